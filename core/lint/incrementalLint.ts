// Lints a document being edited without re-checking what an edit did not touch: the editor's path to the same
// findings as lintText. A file's findings split in two (rule.ts's `scope`):
//   - query-scope rules look at one line or at the lines of one query, so their findings are the union of each
//     query's findings. They are kept per query (a "group": the query's line numbers and its diagnostics); an edit
//     re-lints only the groups of the lines it removed or added, and shifts the others' line numbers.
//   - file-scope rules (type detection, cascade guard, BOM, comments, line endings, counts, run tags) look at the
//     whole file, and run in one light pass over every line, which neither interns queries nor indexes pairs.
//     That pass is skipped, and its findings only shifted, when the edit cannot change them: every rule of the type
//     reads only line kinds and endings (qrels), the edit replaced plain content lines (no blank, comment, CR or
//     trailing whitespace) with plain content lines, at least one each, after the lines the type was decided from
//     and before the last line.
// Blank, comment and header lines form a group of their own (column-count reports blank qrels lines).
// A document with a carriage return is always linted whole: the editor also breaks lines at a lone '\r', so its
// line numbers and core/lint's (which split on '\n' only) could differ.
import { type FileFormat, fileFormats } from './fileFormats.ts';
import { LintSession, type SessionScope } from './lintSession.ts';
import { lintTextWith } from './lintText.ts';
import { findLintRule } from './registry.ts';
import type { StudyLintContext } from './studyContext.ts';
import {
  compareDiagnostics,
  type DetectedFileType,
  type LintDiagnostic,
  type LintFileType,
  type LintResult,
  lintFileTypes,
} from './types.ts';

/** The document as the engine reads it; lines are 0-based and come without their '\n'. */
export interface DocumentLines {
  readonly lineCount: number;
  line(index: number): string;
  text(): string;
}

/** Lines `[from, from + removed.length)` of the previous text became `[from, from + added.length)`. */
export interface LineChange {
  from: number;
  removed: readonly string[];
  added: readonly string[];
}

interface Group {
  /** 1-based line numbers, ascending. */
  lines: number[];
  diagnostics: LintDiagnostic[];
  dirty: boolean;
}

interface LintedFile {
  type: DetectedFileType;
  format: FileFormat;
  /** Only file-scope findings when `groups` is kept; every finding otherwise. */
  fileDiagnostics: LintDiagnostic[];
  sampleLastLine: number;
  /** Per query, plus `nonContent`; undefined when the file pass stopped (nothing per query to keep). */
  groups: Map<string, Group> | undefined;
  nonContent: Group;
  fileDirty: boolean;
  lineCount: number;
}

/** What the last lint was in numbers, for tests and the bench. */
export interface IncrementalLintStats {
  whole: boolean;
  filePass: boolean;
  groupsLinted: number;
  linesLinted: number;
}

export class IncrementalLint {
  readonly file: string;
  /** The type to lint as when the content cannot tell (the editor's language id), if any. */
  private readonly declared: LintFileType | undefined;
  private study: StudyLintContext | undefined;
  private state: LintedFile | undefined;
  private needsWhole = true;
  private mayHaveCarriageReturn = false;
  lastStats: IncrementalLintStats = { whole: true, filePass: true, groupsLinted: 0, linesLinted: 0 };

  constructor(file: string, declared?: LintFileType, study?: StudyLintContext) {
    this.file = file;
    this.declared = declared;
    this.study = study;
  }

  /** Uses another study's ids and scale (or none) from the next lint on, which re-checks the whole text. */
  setStudy(study: StudyLintContext | undefined): void {
    this.study = study;
    this.needsWhole = true;
  }

  /** The next lint re-checks the whole text (a full-text change, or a change it cannot follow). */
  invalidate(): void {
    this.needsWhole = true;
  }

  /** Records one change (apply them in the order the editor made them). */
  applyChange(change: LineChange): void {
    if (this.needsWhole) return;
    const state = this.state!;
    // Line 1 is special (a BEIR header, a byte order mark): an edit that moves or replaces it re-lints the whole text.
    if (state.groups === undefined || change.from === 0 || change.added.some((line) => line.includes('\r'))) {
      this.needsWhole = true;
      return;
    }
    const { from, removed, added } = change;
    const delta = added.length - removed.length;
    const format = state.format;
    // Whether the file-scope findings can stay as they are (shifted).
    if (
      !state.fileDirty &&
      !(
        fileRulesReadOnlyKinds(format.type) &&
        removed.length > 0 &&
        added.length > 0 &&
        from + 1 > state.sampleLastLine &&
        from + removed.length < state.lineCount - 1 &&
        removed.every((line) => isPlainContent(line, format)) &&
        added.every((line) => isPlainContent(line, format))
      )
    ) {
      state.fileDirty = true;
    }
    // Take the removed lines out of their groups, then renumber every line after them.
    const firstAfter = from + removed.length + 1; // 1-based number of the first line after the removed ones
    removed.forEach((text, i) => {
      const group = this.groupOf(state, text, from + i + 1);
      const at = group.lines.indexOf(from + i + 1);
      if (at >= 0) group.lines.splice(at, 1);
      group.dirty = true;
    });
    if (delta !== 0) {
      for (const group of this.allGroups(state)) {
        shiftLines(group.lines, firstAfter, delta);
        // A message that names another line (a duplicate's first occurrence) cannot be shifted: re-lint its query.
        if (group.diagnostics.some((d) => d.related !== undefined && d.related.line >= firstAfter)) group.dirty = true;
        if (!group.dirty) shiftDiagnostics(group.diagnostics, firstAfter, delta);
      }
      if (!state.fileDirty) shiftDiagnostics(state.fileDiagnostics, firstAfter, delta);
    }
    added.forEach((text, i) => {
      const number = from + i + 1;
      const group = this.groupOf(state, text, number);
      insertSorted(group.lines, number);
      group.dirty = true;
    });
    state.lineCount += delta;
  }

  /** Lints the document as it is now (after the recorded changes). */
  lint(document: DocumentLines): LintResult {
    if (this.needsWhole || this.state === undefined || this.state.groups === undefined) return this.lintWhole(document);
    const state = this.state;
    const stats: IncrementalLintStats = { whole: false, filePass: false, groupsLinted: 0, linesLinted: 0 };
    if (state.fileDirty) {
      stats.filePass = true;
      const session = this.detectAndRun(document.text(), 'file');
      if (session.hasStopped || session.type !== state.type) return this.lintWhole(document);
      state.fileDiagnostics = session.diagnostics;
      state.sampleLastLine = session.sampleLastLine;
      state.fileDirty = false;
    }
    for (const group of this.allGroups(state)) {
      if (!group.dirty) continue;
      group.dirty = false;
      stats.groupsLinted++;
      stats.linesLinted += group.lines.length;
      group.diagnostics = this.lintGroup(document, group.lines, state.format.type);
    }
    this.lastStats = stats;
    return this.result(state);
  }

  private lintWhole(document: DocumentLines): LintResult {
    const text = document.text();
    this.needsWhole = false;
    this.mayHaveCarriageReturn = text.includes('\r');
    const session = this.detectAndRun(text, 'all');
    this.lastStats = { whole: true, filePass: true, groupsLinted: 0, linesLinted: document.lineCount };
    const type = session.type;
    const nonContent: Group = { lines: [], diagnostics: [], dirty: false };
    if (!isLintFileType(type) || session.hasStopped || this.mayHaveCarriageReturn) {
      // Nothing to keep per query: the next change lints the whole text again.
      this.needsWhole = true;
      this.state = {
        type,
        format: fileFormats.qrels,
        fileDiagnostics: session.diagnostics,
        sampleLastLine: session.sampleLastLine,
        groups: undefined,
        nonContent,
        fileDirty: true,
        lineCount: document.lineCount,
      };
      return { file: this.file, type, diagnostics: session.diagnostics };
    }
    const format = fileFormats[type];
    const state: LintedFile = {
      type,
      format,
      fileDiagnostics: [],
      sampleLastLine: session.sampleLastLine,
      groups: new Map(),
      nonContent,
      fileDirty: false,
      lineCount: document.lineCount,
    };
    const byLine = this.buildGroups(state, text);
    for (const group of state.groups!.values()) group.dirty = false;
    for (const d of session.diagnostics) {
      if (findLintRule(d.rule)?.scope === 'query') byLine[d.line - 1]!.diagnostics.push(d);
      else state.fileDiagnostics.push(d);
    }
    this.state = state;
    return this.result(state);
  }

  /** Puts every line of `text` in its group; returns each line's group (index = line number - 1). */
  private buildGroups(state: LintedFile, text: string): Group[] {
    const byLine: Group[] = [];
    let start = 0;
    let number = 0;
    for (;;) {
      const newline = text.indexOf('\n', start);
      const end = newline === -1 ? text.length : newline;
      number++;
      const group = this.groupOf(state, text.slice(start, end), number);
      group.lines.push(number);
      byLine.push(group);
      if (newline === -1) break;
      start = newline + 1;
    }
    return byLine;
  }

  private groupOf(state: LintedFile, line: string, number: number): Group {
    const key = queryKey(line, number, state.format);
    if (key === undefined) return state.nonContent;
    let group = state.groups!.get(key);
    if (group === undefined) {
      group = { lines: [], diagnostics: [], dirty: true };
      state.groups!.set(key, group);
    }
    return group;
  }

  private *allGroups(state: LintedFile): Iterable<Group> {
    yield state.nonContent;
    for (const [key, group] of state.groups!) {
      if (group.lines.length === 0 && !group.dirty) state.groups!.delete(key);
      else yield group;
    }
  }

  private lintGroup(document: DocumentLines, groupLines: readonly number[], type: LintFileType): LintDiagnostic[] {
    // The empty last line of a text ending in '\n' is not a line to core/lint.
    let lines = groupLines;
    const last = lines.at(-1);
    if (last === document.lineCount && document.line(last - 1) === '') lines = lines.slice(0, -1);
    if (lines.length === 0) return [];
    const texts = lines.map((number) => document.line(number - 1));
    const bytes = Buffer.from(texts.join('\n'), 'utf8');
    const session = new LintSession(this.file, {
      type,
      scope: 'query',
      expectedLines: lines.length,
      study: this.study,
    });
    let position = 0;
    for (let i = 0; i < lines.length; i++) {
      const newline = i + 1 < lines.length ? bytes.indexOf(10, position) : bytes.length;
      session.addLine(bytes, position, newline, lines[i]!);
      position = newline + 1;
    }
    return session.finish({ lines: lines.at(-1)!, endsWithNewline: true }).diagnostics;
  }

  /** Lints with the type the content shows, or the declared one when the content cannot tell (as lintDocument). */
  private detectAndRun(text: string, scope: SessionScope): SessionOutcome {
    // Diversity qrels look exactly like TREC qrels (see fileFormats.ts): only the declared language tells them.
    if (this.declared === 'diversity-qrels') return this.runSession(text, scope, this.declared);
    const detected = this.runSession(text, scope, undefined);
    if (this.declared === undefined || detected.type !== 'unknown') return detected;
    return this.runSession(text, scope, this.declared);
  }

  private runSession(text: string, scope: SessionScope, type: LintFileType | undefined): SessionOutcome {
    const session = new LintSession(this.file, { type, scope, study: this.study });
    const result = lintTextWith(session, text);
    return {
      type: result.type,
      diagnostics: result.diagnostics,
      hasStopped: session.hasStopped,
      sampleLastLine: session.sampleLastLine,
    };
  }

  private result(state: LintedFile): LintResult {
    const diagnostics = [...state.fileDiagnostics];
    for (const group of this.allGroups(state)) for (const d of group.diagnostics) diagnostics.push(d);
    diagnostics.sort(compareDiagnostics);
    return { file: this.file, type: state.type, diagnostics };
  }
}

interface SessionOutcome {
  type: DetectedFileType;
  diagnostics: LintDiagnostic[];
  hasStopped: boolean;
  sampleLastLine: number;
}

function isLintFileType(type: DetectedFileType): type is LintFileType {
  return (lintFileTypes as readonly string[]).includes(type);
}

/** Whether every file-scope rule of the type reads only line kinds and endings (see the header). */
function fileRulesReadOnlyKinds(type: LintFileType): boolean {
  return type === 'qrels';
}

function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13);
}

/** The query a line belongs to (its first field), or undefined for a blank, comment or header line. */
export function queryKey(line: string, number: number, format: FileFormat): string | undefined {
  let start = number === 1 && line.charCodeAt(0) === 0xfeff ? 1 : 0;
  if (format.header && number === 1) return undefined;
  const firstByte = start;
  while (start < line.length && isSpace(line.charCodeAt(start))) start++;
  if (start === line.length) return undefined;
  if (format.comments === 'first-byte' && line.charCodeAt(firstByte) === 35) return undefined;
  if (format.comments === 'first-non-blank' && line.charCodeAt(start) === 35) return undefined;
  if (format.separator === 'tab') {
    const tab = line.indexOf('\t', firstByte);
    return wellFormed(line.slice(firstByte, tab === -1 ? line.length : tab));
  }
  let end = start;
  while (end < line.length && !isSpace(line.charCodeAt(end))) end++;
  return wellFormed(line.slice(start, end));
}

/** Lone surrogates as U+FFFD: the UTF-8 bytes LintSession reads have them so, and two such qids are one query. */
function wellFormed(text: string): string {
  if (!/[\ud800-\udfff]/.test(text)) return text;
  return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

/** A content line with no carriage return and no trailing whitespace (what file-scope rules cannot see change). */
function isPlainContent(line: string, format: FileFormat): boolean {
  if (line.length === 0 || line.includes('\r')) return false;
  const last = line.charCodeAt(line.length - 1);
  if (last === 32 || last === 9) return false;
  return queryKey(line, 2, format) !== undefined;
}

function shiftLines(lines: number[], from: number, delta: number): void {
  // Ascending: find the first line at or after `from`, shift the rest.
  let low = 0;
  let high = lines.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (lines[mid]! < from) low = mid + 1;
    else high = mid;
  }
  for (let i = low; i < lines.length; i++) lines[i]! += delta;
}

/**
 * Shifts diagnostics at or after line `from` (none of them names a line in its message: see applyChange). Shifted
 * ones are copies: results already returned keep their positions.
 */
function shiftDiagnostics(diagnostics: LintDiagnostic[], from: number, delta: number): void {
  for (let i = 0; i < diagnostics.length; i++) {
    const d = diagnostics[i]!;
    if (d.endLine < from) continue;
    diagnostics[i] = { ...d, line: d.line >= from ? d.line + delta : d.line, endLine: d.endLine + delta };
  }
}

function insertSorted(lines: number[], number: number): void {
  let low = 0;
  let high = lines.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (lines[mid]! < number) low = mid + 1;
    else high = mid;
  }
  lines.splice(low, 0, number);
}
