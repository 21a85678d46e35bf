// gdeval.pl's own outputs, byte for byte: the TREC Web 2010 runs (test/fixtures/reference-measures/) and the edge
// cases of gdeval-extra/ (ties, negative-only topics, missing topics, prefixed and zero-padded topic numbers,
// duplicates, -c, -k, $MAX_JUDGMENT) — every expected file made by the real script (test/fixtures/README.md).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  evaluateGdeval,
  formatGdevalText,
  type GdevalOptions,
  gdevalDefaults,
  readGdevalQrels,
  readGdevalRun,
} from '../../../../core/metrics/gdeval/gdevalEvaluation.ts';
import { gdevalErr, gdevalTopicValues } from '../../../../core/metrics/gdeval/gdevalMeasures.ts';
import { printfFixed } from '../../../../core/metrics/gdeval/perlValues.ts';
import { fixturesDir } from '../../../helpers.ts';

const reference = join(fixturesDir, 'reference-measures');
const extra = join(reference, 'gdeval-extra');

function ours(qrelsFile: string, runFile: string, options: Partial<GdevalOptions> = {}): string {
  const all = { ...gdevalDefaults, ...options };
  const judgments = readGdevalQrels(readFileSync(qrelsFile, 'latin1'), qrelsFile, all.maxGrade);
  const run = readGdevalRun(readFileSync(runFile, 'latin1'), runFile);
  return formatGdevalText(evaluateGdeval(judgments, run, all), String(all.depth));
}

/** Line by line; a difference names the topic, the measure and both values. */
function assertSameCsv(actual: string, expectedFile: string): void {
  const expected = readFileSync(expectedFile, 'latin1');
  const actualLines = actual.split('\n');
  const expectedLines = expected.split('\n');
  const header = expectedLines[0]!.split(',');
  for (let i = 0; i < Math.max(actualLines.length, expectedLines.length); i++) {
    const a = actualLines[i];
    const e = expectedLines[i];
    if (a === e) continue;
    const aFields = a?.split(',') ?? [];
    const eFields = e?.split(',') ?? [];
    const topic = eFields[1] ?? aFields[1] ?? '?';
    const differing = header
      .slice(2)
      .map((measure, j) => ({ measure, ours: aFields[j + 2], theirs: eFields[j + 2] }))
      .filter((d) => d.ours !== d.theirs)
      .map((d) => `${d.measure}: ours ${d.ours ?? '(none)'}, gdeval.pl ${d.theirs ?? '(none)'}`);
    assert.fail(
      `${expectedFile}:${i + 1}: topic ${topic}: ${differing.length > 0 ? differing.join('; ') : `line '${a}' instead of '${e}'`}`,
    );
  }
  assert.equal(actual, expected);
}

for (const run of ['runA', 'runB']) {
  for (const depth of [10, 20]) {
    test(`${run}: gdeval.pl -k ${depth} web.qrels, byte for byte`, () => {
      assertSameCsv(
        ours(join(reference, 'web.qrels'), join(reference, `${run}.run`), { depth }),
        join(reference, `${run}.gdeval.k${depth}`),
      );
    });
  }
}

const edgeCases: { expected: string; qrels: string; run: string; options: Partial<GdevalOptions> }[] = [
  { expected: 'edge.k1.out', qrels: 'edge.qrels', run: 'edge.run', options: { depth: 1 } },
  { expected: 'edge.k1.c.out', qrels: 'edge.qrels', run: 'edge.run', options: { depth: 1, complete: true } },
  { expected: 'edge.k3.out', qrels: 'edge.qrels', run: 'edge.run', options: { depth: 3 } },
  { expected: 'edge.k3.c.out', qrels: 'edge.qrels', run: 'edge.run', options: { depth: 3, complete: true } },
  { expected: 'edge.k20.out', qrels: 'edge.qrels', run: 'edge.run', options: {} },
  { expected: 'edge.k20.c.out', qrels: 'edge.qrels', run: 'edge.run', options: { complete: true } },
  {
    expected: 'edge.k10.j6.c.out',
    qrels: 'edge.qrels',
    run: 'edge.run',
    options: { depth: 10, complete: true, maxGrade: 6 },
  },
  { expected: 'empty.c.out', qrels: 'edge.qrels', run: 'empty.run', options: { complete: true } },
  { expected: 'one.out', qrels: 'edge.qrels', run: 'one.run', options: {} },
  { expected: 'zeros010.out', qrels: 'zeros.qrels', run: 'zeros010.run', options: {} },
  { expected: 'zeros0010.out', qrels: 'zeros.qrels', run: 'zeros0010.run', options: {} },
  { expected: 'bigint.out', qrels: 'bigint.qrels', run: 'bigint.run', options: {} },
  ...[1, 2, 3].flatMap((n) => [
    { expected: `random${n}.k5.out`, qrels: `random${n}.qrels`, run: `random${n}.run`, options: { depth: 5 } },
    {
      expected: `random${n}.k20.c.out`,
      qrels: `random${n}.qrels`,
      run: `random${n}.run`,
      options: { complete: true },
    },
  ]),
];

for (const { expected, qrels, run, options } of edgeCases) {
  test(`gdeval-extra/${expected}: as gdeval.pl printed it`, () => {
    assertSameCsv(ours(join(extra, qrels), join(extra, run), options), join(extra, expected));
  });
}

test('ties are broken by docno in reverse byte order, scores compared as numbers ("5" = "5.0", "1e1" = "10")', () => {
  const judgments = readGdevalQrels('1 0 a 1\n1 0 b 2\n', 'q');
  const run = readGdevalRun('1 Q0 a 1 5 r\n1 Q0 b 2 5.0 r\n', 'r');
  // b before a: its grade 2 first, so the ranking is ideal.
  assert.equal(evaluateGdeval(judgments, run, { ...gdevalDefaults, depth: 1 }).topics[0]!.ndcg, 1);
});

test('a topic whose grades are all ≤ 0 is neither printed nor averaged, even with -c', () => {
  const judgments = readGdevalQrels('1 0 a -2\n1 0 b 0\n2 0 c 1\n', 'q');
  const run = readGdevalRun('1 Q0 a 1 1 r\n2 Q0 c 1 1 r\n', 'r');
  const report = evaluateGdeval(judgments, run, { ...gdevalDefaults, complete: true });
  assert.deepEqual(
    report.topics.map((t) => t.topic),
    ['2'],
  );
  assert.equal(report.mean.ndcg, 1);
});

test("printf's half-to-even on exact halves: ERR of one grade-1 document at rank 4 is 1/64 = 0.015625 → 0.01562", () => {
  assert.equal(gdevalErr([0, 0, 0, 1], 20), 1 / 64);
  assert.equal(printfFixed(1 / 64, 5), '0.01562');
  assert.equal(printfFixed(3 / 64, 5), '0.04688');
  assert.equal(printfFixed(0.5, 0), '0');
  assert.equal(printfFixed(1.5, 0), '2');
  assert.deepEqual(gdevalTopicValues([2, 0], [2], 20), { ndcg: 1, err: 3 / 16 });
});
