// A lint rule is a record: its id, severity, one-line description, the file types it checks, and a factory for
// its per-file check. The session calls `line` for every line in order (comments and blank lines included; a
// rule looks at `line.kind`) — except, for a rule that says `skipsPlainLines`, the plain lines (LineView.plain) —
// and `end` once after the last line. Rules with no `create` are reported by the session itself (file-level
// verdicts such as an undetectable file type).
import type { FileFormat } from './fileFormats.ts';
import type { LineView } from './lineView.ts';
import type { PairIndex } from './pairIndex.ts';
import type { QueryIndex } from './queryIndex.ts';
import type { StudyLintContext } from './studyContext.ts';
import type { LintFileType, LintSeverity, RelatedPosition } from './types.ts';

export interface LintRule {
  readonly id: string;
  readonly severity: LintSeverity;
  /** What the rule checks and why it matters, in a sentence or two (help text, hover). */
  readonly description: string;
  readonly fileTypes: readonly LintFileType[];
  /**
   * What the rule's findings depend on. 'query': the line alone, or the lines of the same query (so a file's
   * findings are the union of its queries' findings, which lets the editor re-check only the queries an edit
   * touched). 'file': the whole file (line 1, the last line, adjacent lines, counts over all lines).
   * A 'file' rule must not read the line's interned query or pair: the file-wide pass does not derive them.
   */
  readonly scope: RuleScope;
  /**
   * A 'file' rule that reads a content line's fields or parsed values (not just its kind and ending) says so: when
   * no such rule runs, the file-scope session does not split lines after the first ones.
   */
  readonly readsFields?: boolean;
  /**
   * The rule has nothing to say about a plain line (LineView.plain: a content line with exactly its format's
   * columns, every value parsed, a pair not seen before, no BOM, CR or trailing blank), so the session does not
   * call its `line` for those — nearly every line of a good file. A call per line per rule was a good part of
   * linting a million lines; a rule that counts or compares every line (labels per query, run tags) must not say it.
   */
  readonly skipsPlainLines?: boolean;
  /**
   * The rule reads a pair's docid (PairIndex.docid, compareDocids) after the lines of its query's block, at the
   * end say: the session then keeps every pair, not only the current block's.
   */
  readonly readsPairsLater?: boolean;
  create?(context: RuleContext): RuleCheck;
}

export type RuleScope = 'file' | 'query';

export interface RuleCheck {
  line?(line: LineView): void;
  end?(file: FileEnd): void;
}

export interface FileEnd {
  /** Number of lines (a last line without `\n` counts). */
  lines: number;
  endsWithNewline: boolean;
  /** The column just past the last line's text, when the session saw that line (set by the session). */
  lastLineEndColumn?: number;
}

/** A problem as a rule reports it; severity, rule id and file are added by the session. */
export interface Problem {
  line: number;
  column: number;
  endColumn: number;
  /** Defaults to `line`. */
  endLine?: number;
  message: string;
  related?: RelatedPosition;
}

export interface RuleContext {
  readonly file: string;
  readonly format: FileFormat;
  readonly queries: QueryIndex;
  readonly pairs: PairIndex;
  /** Roughly how many lines the file has (from its size), to size per-line storage once. */
  readonly expectedLines: number;
  /** The study that uses the file, when one does (for the study-aware rules). */
  readonly study: StudyLintContext | undefined;
  report(problem: Problem): void;
}

/** Quotes a value for a message. */
export function quote(text: string): string {
  return `'${text}'`;
}

/** "1 line" / "3 lines". */
export function plural(count: number, noun: string): string {
  const digits = String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${digits} ${noun}${count === 1 ? '' : 's'}`;
}
