// Proves, on study files (`*.assess`) — the DESIGN.md sketch and generated studies broken token by token and line
// by line, nests of `(`, `{`, `!`, `? :`, calls and blocks up to 10,000 deep anywhere, 100 KB strings, names and
// comments, thousands of lines — that parseStudyFile, checkStudyFile, semanticTokens, hoverAt, completionsAt and
// formatStudyText never throw (nor hide a throw as `internal-error`), answer within the time bound, give ranges
// inside the text (non-empty, sorted), and that formatting changes no check's verdict.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  checkStudyFile,
  completionsAt,
  formatStudyText,
  hoverAt,
  keywordDocs,
  parseStudyFile,
  semanticTokens,
} from '../../../core/dsl/index.ts';
import { type FuzzTarget, fuzzParameters, type InputRecorder, timed } from '../harness.ts';
import { latin1Mojibake, oddText } from '../mutations.ts';
import { checkDslRanges, checkServiceRange } from '../rangeChecks.ts';
import { designSketch, generatedStudyFile } from '../seeds.ts';

export const smallStudyRuns = 70_000;
export const deepStudyRuns = 120;
export const bigStudyRuns = 100;

/** Tokens as the fuzzer sees them (close to the lexer's): strings, comments, spaces, names, numbers, one char. */
const tokenPattern = /"(?:[^"\\\n]|\\.)*"?|#[^\n]*|\s+|[\p{L}_][\p{L}\p{N}_-]*|-?\d+(?:\.\d+)?|[\s\S]/gu;

function tokensOf(text: string): string[] {
  return text.match(tokenPattern) ?? [];
}

/** Whole statements (the keyword table's examples), keywords and punctuation, to insert or substitute. */
const fragments: readonly string[] = [
  ...new Set([
    ...keywordDocs.map((doc) => doc.word),
    ...keywordDocs.map((doc) => doc.example),
    ...['study "x" {', 'review "y" {', '{', '}', '(', ')', ':', '=', '?', '!', '&&', '||', '&', '|', '==', '!=', '<='],
    ...[',', '-', '-1', '0.5', '1.', '1e3', '99999999999999999999', '"', '"\\q"', '"unterminated', '\\', '#', '\n'],
  ]),
];

const fragment = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...fragments) }, { weight: 1, arbitrary: oddText });

/** Openers of nests, with what closes them (each level of a real block is an unclosed block when left open). */
const nests: readonly { open: string; close: string; maxDepth: number }[] = [
  { open: '(', close: ')', maxDepth: 10_000 },
  { open: '{', close: '}', maxDepth: 10_000 },
  { open: '!', close: '', maxDepth: 10_000 },
  { open: 'a ? ', close: ' : 0', maxDepth: 10_000 },
  { open: 'all(', close: ')', maxDepth: 10_000 },
  { open: 'any(topical, ', close: ')', maxDepth: 10_000 },
  { open: '({', close: '})', maxDepth: 10_000 },
  { open: '[', close: ']', maxDepth: 10_000 },
  { open: '"', close: '"', maxDepth: 10_000 },
  { open: 'study "n" {', close: '}', maxDepth: 10_000 },
  { open: 'judge "j" { prompt ', close: '}', maxDepth: 10_000 },
  { open: 'queries "q" { id: ', close: '}', maxDepth: 10_000 },
  { open: 'scale ordinal { ', close: '}', maxDepth: 10_000 },
];

/** `depth` levels of nest `index`, closed around a name or left open. */
function nested(index: number, depth: number, closed: boolean): string {
  const { open, close, maxDepth } = nests[index]!;
  const levels = Math.min(depth, maxDepth);
  return open.repeat(levels) + (closed ? `topical${close.repeat(levels)}` : '');
}

export type StudyEdit =
  | { op: 'delete-tokens'; at: number; count: number }
  | { op: 'duplicate-token'; at: number }
  | { op: 'swap-tokens'; a: number; b: number }
  | { op: 'insert'; at: number; text: string }
  | { op: 'replace-token'; at: number; text: string }
  | { op: 'cut'; at: number }
  | { op: 'splice-sketch-lines'; at: number; from: number; count: number }
  | { op: 'nest'; at: number; nest: number; depth: number; closed: boolean }
  | { op: 'line-endings'; style: 'crlf' | 'cr' | 'tabs' }
  | { op: 'mojibake' }
  | { op: 'bom' };

const sketchLines = designSketch.split('\n');

function studyEdit(maxDepth: number): fc.Arbitrary<StudyEdit> {
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({ op: fc.constant('delete-tokens'), at: fc.nat(), count: fc.integer({ min: 1, max: 6 }) }),
    },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('duplicate-token'), at: fc.nat() }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('swap-tokens'), a: fc.nat(), b: fc.nat() }) },
    { weight: 5, arbitrary: fc.record({ op: fc.constant('insert'), at: fc.nat(), text: fragment }) },
    { weight: 4, arbitrary: fc.record({ op: fc.constant('replace-token'), at: fc.nat(), text: fragment }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('cut'), at: fc.nat() }) },
    {
      weight: 2,
      arbitrary: fc.record({
        op: fc.constant('splice-sketch-lines'),
        at: fc.nat(),
        from: fc.nat(),
        count: fc.integer({ min: 1, max: 8 }),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        op: fc.constant('nest'),
        at: fc.nat(),
        nest: fc.nat(nests.length - 1),
        depth: fc.integer({ min: 1, max: maxDepth }),
        closed: fc.boolean(),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        op: fc.constant('line-endings'),
        style: fc.constantFrom('crlf' as const, 'cr' as const, 'tabs' as const),
      }),
    },
    { weight: 1, arbitrary: fc.constant<StudyEdit>({ op: 'mojibake' }) },
    { weight: 1, arbitrary: fc.constant<StudyEdit>({ op: 'bom' }) },
  );
}

export function applyStudyEdit(text: string, edit: StudyEdit): string {
  switch (edit.op) {
    case 'cut':
      return text.slice(0, edit.at % (text.length + 1));
    case 'splice-sketch-lines': {
      const lines = text.split('\n');
      const from = edit.from % sketchLines.length;
      lines.splice(edit.at % (lines.length + 1), 0, ...sketchLines.slice(from, from + edit.count));
      return lines.join('\n');
    }
    case 'line-endings':
      if (edit.style === 'crlf') return text.replaceAll('\n', '\r\n');
      if (edit.style === 'cr') return text.replaceAll('\n', '\r');
      return text.replaceAll('  ', '\t');
    case 'mojibake':
      return latin1Mojibake(text);
    case 'bom':
      return `\ufeff${text}`;
  }
  const tokens = tokensOf(text);
  const at = (n: number) => n % (tokens.length + 1);
  switch (edit.op) {
    case 'delete-tokens':
      tokens.splice(at(edit.at), edit.count);
      break;
    case 'duplicate-token': {
      const i = at(edit.at);
      if (i < tokens.length) tokens.splice(i, 0, tokens[i]!);
      break;
    }
    case 'swap-tokens': {
      if (tokens.length === 0) break;
      const a = edit.a % tokens.length;
      const b = edit.b % tokens.length;
      [tokens[a], tokens[b]] = [tokens[b]!, tokens[a]!];
      break;
    }
    case 'insert':
      tokens.splice(at(edit.at), 0, edit.text);
      break;
    case 'replace-token':
      tokens.splice(at(edit.at), 1, edit.text);
      break;
    case 'nest':
      tokens.splice(at(edit.at), 0, nested(edit.nest, edit.depth, edit.closed));
      break;
  }
  return tokens.join('');
}

/** A study file (the sketch, or generated) with edits applied. */
function brokenStudy(maxDepth: number, maxEdits: number): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.oneof({ weight: 1, arbitrary: fc.constant(designSketch) }, { weight: 6, arbitrary: generatedStudyFile }),
      fc.array(studyEdit(maxDepth), { maxLength: maxEdits }),
    )
    .map(([text, edits]) => edits.reduce(applyStudyEdit, text));
}

/** A valid prefix, a nest up to 10,000 deep at a statement, expression or top-level position, and the sketch. */
const deeplyNestedStudy = fc
  .record({
    where: fc.constantFrom(
      '',
      'study "s" {\n  ',
      'study "s" {\n  derive label = ',
      'review "r" {\n  rubric levels a b ',
    ),
    nest: fc.nat(nests.length - 1),
    depth: fc.constantFrom(99, 100, 101, 1000, 10_000),
    closed: fc.boolean(),
    after: fc.constantFrom('', '\n}\n', `\n}\n${designSketch}`),
  })
  .map(({ where, nest, depth, closed, after }) => `${where}${nested(nest, depth, closed)}${after}`);

/** 100 KB strings, names, numbers and comments; the sketch a hundred times over; thousands of short blocks. */
const bigStudy = fc
  .record({
    shape: fc.constantFrom('string', 'unterminated', 'name', 'number', 'comment', 'sketches', 'blocks', 'lines'),
    size: fc.constantFrom(10_000, 100_000),
    at: fc.nat(),
  })
  .map(({ shape, size, at }) => {
    const huge = (unit: string) => unit.repeat(Math.ceil(size / unit.length));
    const inSketch = (piece: string) => {
      const i = at % (designSketch.length + 1);
      return designSketch.slice(0, i) + piece + designSketch.slice(i);
    };
    switch (shape) {
      case 'string':
        return designSketch.replace('"WQT dev', `"${huge('é\\" ')}`);
      case 'unterminated':
        return inSketch(`"${huge('x')}`);
      case 'name':
        return inSketch(` ${huge('a_')} `);
      case 'number':
        return inSketch(` ${huge('9')}.${huge('0')} `);
      case 'comment':
        return inSketch(`#${huge('#{(')}\n`);
      case 'sketches':
        return huge(designSketch);
      case 'blocks':
        return huge('study "s" { title "t" }\n');
      case 'lines':
        return `study "s" {\n${huge('  blind\n')}}\n`;
    }
    return designSketch;
  });

const completionContext = { fieldsOf: () => ['qid', 'query', 'text'], paths: (prefix: string) => [`${prefix}x.jsonl`] };

/** Every law, on one text; `probe` picks the offset hover and completion are asked at. */
function studyLaws(recorder: InputRecorder, inputs: string, text: string, probe: number): void {
  recorder.start(inputs, text);
  const size = text.length;
  const parsed = timed('parseStudyFile', size, () => parseStudyFile(text));
  checkDslRanges(text, parsed.diagnostics, 'start-end');
  const semantic = timed('checkStudyFile', size, () => checkStudyFile(parsed));
  checkDslRanges(text, semantic, 'start-end-code');

  let end = 0;
  for (const token of timed('semanticTokens', size, () => semanticTokens(parsed))) {
    assert.ok(token.start >= end && token.length > 0 && token.start + token.length <= size, 'semantic tokens in order');
    end = token.start + token.length;
    assert.ok(!/[\n\r]/.test(text.slice(token.start, end)), 'a semantic token spans a line break');
  }

  const offset = probe % (size + 1);
  const hover = timed('hoverAt', size, () => hoverAt(parsed, offset));
  if (hover !== undefined) {
    checkServiceRange(text, hover.range, 'hover');
    assert.ok(hover.markdown.length > 0, 'hover without text');
  }
  for (const completion of timed('completionsAt', size, () => completionsAt(parsed, offset, completionContext))) {
    assert.ok(completion.label.length > 0, 'completion without a label');
    checkServiceRange(text, completion.range, 'completion');
  }

  const formatted = timed('formatStudyText', size, () => formatStudyText(text));
  assert.equal(formatted === undefined, parsed.diagnostics.length > 0, 'formatted exactly when free of syntax errors');
  if (formatted === undefined) return;
  const reparsed = timed('parseStudyFile', formatted.length, () => parseStudyFile(formatted));
  assert.deepEqual(reparsed.diagnostics, [], 'the formatted text parses');
  assert.equal(
    timed('formatStudyText', formatted.length, () => formatStudyText(formatted)),
    formatted,
    'idempotent',
  );
  const codes = (diagnostics: readonly { code: string }[]) => diagnostics.map((d) => d.code).sort();
  assert.deepEqual(codes(checkStudyFile(reparsed)), codes(semantic), 'formatting changes no check verdict');
}

/** Where hover and completion are asked (modulo the text's length + 1). */
const probe = fc.nat();

export const studyFileFuzz: FuzzTarget = {
  async run(recorder: InputRecorder) {
    await recorder.property('broken sketches and generated studies', () =>
      fc.assert(
        fc.property(brokenStudy(300, 6), probe, (text, at) => studyLaws(recorder, 'broken study files', text, at)),
        fuzzParameters(5, smallStudyRuns),
      ),
    );
    await recorder.property('nests up to 10,000 deep', () =>
      fc.assert(
        fc.property(fc.oneof(deeplyNestedStudy, brokenStudy(10_000, 3)), probe, (text, at) =>
          studyLaws(recorder, 'deeply nested study files', text, at),
        ),
        fuzzParameters(6, deepStudyRuns),
      ),
    );
    await recorder.property('huge tokens and thousands of lines', () =>
      fc.assert(
        fc.property(bigStudy, probe, (text, at) => studyLaws(recorder, 'huge study files', text, at)),
        fuzzParameters(7, bigStudyRuns),
      ),
    );
    return recorder.report();
  },
};
