// ndeval, digit for digit: our CSV must equal what ndeval 4.5 printed on the TREC Web 2010 diversity qrels
// (test/fixtures/reference-measures) and, for its options and edge cases, on small files made for the purpose
// (ndeval-extra/; test/fixtures/README.md gives each command). A difference names the topic, measure and both values.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseDiversityQrels, readDiversityQrels } from '../../../../core/formats/diversityQrels.ts';
import { FormatError } from '../../../../core/formats/formatError.ts';
import { diversityColumns } from '../../../../core/metrics/ndeval/diversityMeasures.ts';
import { evaluateNdeval, ndevalText, printfFixed6 } from '../../../../core/metrics/ndeval/ndeval.ts';
import { parseNdevalRun, readNdevalRun } from '../../../../core/metrics/ndeval/ndevalRun.ts';
import { fixturesDir } from '../../../helpers.ts';

const reference = join(fixturesDir, 'reference-measures');
const extra = join(reference, 'ndeval-extra');

interface Case {
  qrels: string;
  run: string;
  expected: string;
  options?: { alpha?: number; beta?: number; complete?: boolean; traditional?: boolean; depth?: number };
}

const qrelsRead = new Map<string, ReturnType<typeof readDiversityQrels>>();

function ours({ qrels, run, options = {} }: Case): string {
  const parameters = { alpha: 0.5, beta: 0.5, complete: false, ...options };
  const ranked = readNdevalRun(run, { traditional: options.traditional ?? false, depth: options.depth ?? 0 });
  if (!qrelsRead.has(qrels)) qrelsRead.set(qrels, readDiversityQrels(qrels));
  return ndevalText(evaluateNdeval(qrelsRead.get(qrels)!, ranked, parameters));
}

/** Equal byte for byte, or a failure that says which topic and measure differ, with both values. */
function assertSameCsv(actual: string, expected: string, label: string): void {
  if (actual === expected) return;
  const [ourLines, theirLines] = [actual.split('\n'), expected.split('\n')];
  const headers = theirLines[0]!.split(',');
  for (let i = 0; i < Math.max(ourLines.length, theirLines.length); i++) {
    const [mine, theirs] = [ourLines[i] ?? '', theirLines[i] ?? ''];
    if (mine === theirs) continue;
    const [a, b] = [mine.split(','), theirs.split(',')];
    const column = b.findIndex((value, j) => value !== a[j]);
    assert.fail(
      `${label}: line ${i + 1}, topic ${b[1] ?? a[1]}, ${headers[column] ?? `column ${column + 1}`}: ` +
        `ours ${a[column] ?? '(missing)'}, ndeval ${b[column] ?? '(missing)'}`,
    );
  }
}

const cases: Case[] = [
  ...['runA', 'runB'].map((name) => ({
    qrels: join(reference, 'web.ndeval.qrels'),
    run: join(reference, `${name}.run`),
    expected: join(reference, `${name}.ndeval`),
  })),
  ...(
    [
      ['edge.ndeval', 'edge.run', {}],
      ['edge.c.ndeval', 'edge.run', { complete: true }],
      ['edge.alpha1.ndeval', 'edge.run', { alpha: 1, beta: 0.9 }],
      ['edge.M3.ndeval', 'edge.run', { depth: 3 }],
      ['ties.ndeval', 'ties.run', {}],
      ['ties.traditional.ndeval', 'ties.run', { traditional: true }],
      ['disjoint.ndeval', 'disjoint.run', {}],
      ['disjoint.c.ndeval', 'disjoint.run', { complete: true }],
    ] as const
  ).map(([expected, run, options]) => ({
    qrels: join(extra, 'edge.qrels'),
    run: join(extra, run),
    expected: join(extra, expected),
    options,
  })),
  ...(
    [
      ['runA.c.ndeval', 'runA', { complete: true }],
      ['runB.c.ndeval', 'runB', { complete: true }],
      ['runA.traditional.ndeval', 'runA', { traditional: true }],
      ['runB.alpha0.2.beta0.8.ndeval', 'runB', { alpha: 0.2, beta: 0.8 }],
      ['runA.alpha0.ndeval', 'runA', { alpha: 0 }],
      ['runB.M10.traditional.c.ndeval', 'runB', { depth: 10, traditional: true, complete: true }],
    ] as const
  ).map(([expected, run, options]) => ({
    qrels: join(reference, 'web.ndeval.qrels'),
    run: join(reference, `${run}.run`),
    expected: join(extra, expected),
    options,
  })),
];

for (const c of cases) {
  const label = `${c.expected.slice(reference.length + 1)} (${JSON.stringify(c.options ?? {})})`;
  test(`ndeval: ${label} equals ndeval's output byte for byte`, () => {
    assertSameCsv(ours(c), readFileSync(c.expected, 'latin1'), label);
  });
}

test('ndeval: the columns are named for the normal output as err_ia@k, alpha_ndcg@k, nrbp, map_ia, p_ia@k, strec@k', () => {
  assert.deepEqual(
    diversityColumns.map((c) => c.name),
    [
      ...['err_ia', 'nerr_ia', 'alpha_dcg', 'alpha_ndcg'].flatMap((n) => [`${n}@5`, `${n}@10`, `${n}@20`]),
      'nrbp',
      'nnrbp',
      'map_ia',
      ...['p_ia', 'strec'].flatMap((n) => [`${n}@5`, `${n}@10`, `${n}@20`]),
    ],
  );
});

test("printfFixed6 rounds like C's printf: exact halves to even, NaN as glibc's -nan", () => {
  assert.equal(printfFixed6(0.0078125), '0.007812');
  assert.equal(printfFixed6(0.0234375), '0.023438');
  assert.equal(printfFixed6(0.4375), '0.437500');
  assert.equal(printfFixed6(2 / 3), '0.666667');
  assert.equal(printfFixed6(1), '1.000000');
  assert.equal(printfFixed6(Number.NaN), '-nan');
});

function formatErrorOf(action: () => unknown): FormatError {
  try {
    action();
  } catch (error) {
    if (error instanceof FormatError) return error;
    throw error;
  }
  assert.fail('expected a FormatError');
}

test('diversity qrels: a line without a subtopic is an error at its line and column, naming the subtopic', () => {
  const error = formatErrorOf(() => parseDiversityQrels('251 0 doc-a 1\n251 doc-b 1\n', 'div.qrels'));
  assert.equal(error.message.split(':').slice(0, 3).join(':'), 'div.qrels:2:12');
  assert.match(
    error.message,
    /expected 4 columns \(topic subtopic docno grade\), found 3: the subtopic \(2nd column\) is missing/,
  );
});

test('diversity qrels: a grade that is not a number is an error at the grade', () => {
  const error = formatErrorOf(() => parseDiversityQrels('251 0 doc-a 1\n251 2 doc-b high\n', 'div.qrels'));
  assert.equal(`${error.line}:${error.column}`, '2:13');
  assert.match(error.message, /expected an integer grade, found 'high'/);
});

test('diversity qrels: a subtopic that is not a number, and too many columns, are positioned errors', () => {
  assert.equal(formatErrorOf(() => parseDiversityQrels('251 x doc-a 1\n', 'q')).column, 5);
  assert.match(formatErrorOf(() => parseDiversityQrels('251 1 doc-a 1 extra\n', 'q')).message, /q:1:15: .*found 5/);
});

test('diversity qrels: blank lines and # comments are skipped, CRLF is read, negative grades are not relevant', () => {
  const qrels = parseDiversityQrels('# judged by NIST\r\n\r\n1 0 a -2\r\n1 1 a 1\r\n', 'q');
  assert.deepEqual(
    qrels.judgments.map((j) => [j.topic, j.subtopic, j.docno, j.grade, j.line]),
    [
      ['1', 0, 'a', -2, 3],
      ['1', 1, 'a', 1, 4],
    ],
  );
  const run = parseNdevalRun('1 Q0 a 1 1 r\n', 'run', { traditional: false, depth: 0 });
  const evaluation = evaluateNdeval(qrels, run, { alpha: 0.5, beta: 0.5, complete: false });
  assert.equal(evaluation.rows[0]!.values[diversityColumns.findIndex((c) => c.name === 'strec@5')], 1); // subtopic 0 has no relevant document
});

test("ndeval run: a topic that is not ndeval's number, a rank given twice, a document given twice", () => {
  const options = { traditional: false, depth: 0 };
  assert.match(formatErrorOf(() => parseNdevalRun('q1 Q0 a 1 1 r\n', 'run', options)).message, /^run:1:1: /);
  const rank = formatErrorOf(() => parseNdevalRun('1 Q0 a 1 1 r\n1 Q0 b 1 0.5 r\n', 'run', options));
  assert.match(rank.message, /^run:2:8: error: topic 1 has rank 1 twice \(line 1 too\)/);
  const docno = formatErrorOf(() => parseNdevalRun('1 Q0 a 1 1 r\n1 Q0 a 2 0.5 r\n', 'run', options));
  assert.match(docno.message, /^run:2:6: error: topic 1 lists document a twice \(line 1 too\)/);
  // Beyond -M the repeated document is dropped before the check, as in ndeval.
  assert.equal(parseNdevalRun('1 Q0 a 1 1 r\n1 Q0 a 2 0.5 r\n', 'run', { ...options, depth: 1 }).topics.length, 1);
  assert.match(formatErrorOf(() => parseNdevalRun('1 Q0 a x 1 r\n', 'run', options)).message, /^run:1:8: .*rank/);
  assert.match(formatErrorOf(() => parseNdevalRun('1 Q0 a 1\n', 'run', options)).message, /found 4/);
});

test('diversity qrels: a topic ndeval cannot number is a positioned error when evaluating', () => {
  const qrels = parseDiversityQrels('1 0 a 1\nq-2 0 b 1\n', 'div.qrels');
  const run = parseNdevalRun('1 Q0 a 1 1 r\n', 'run', { traditional: false, depth: 0 });
  const error = formatErrorOf(() => evaluateNdeval(qrels, run, { alpha: 0.5, beta: 0.5, complete: false }));
  assert.match(error.message, /^div\.qrels:2:1: error: expected a topic number/);
});

test('diversity qrels: fields split at C whitespace only, so a UTF-8 docno with a 0xA0 byte (à) stays whole', () => {
  const latin1 = Buffer.from('1 0 docà 1\n1 1 docà\u00a0x 1\n', 'utf8').toString('latin1');
  const docnos = parseDiversityQrels(latin1, 'q').judgments.map((j) => Buffer.from(j.docno, 'latin1').toString('utf8'));
  assert.deepEqual(docnos, ['docà', 'docà\u00a0x']);
});
