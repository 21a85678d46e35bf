// eval on two threads (core/metrics/parallel) must print what one thread prints, digit for digit: trec_eval's own
// suite through the two-thread path (forced on its small files by QRELS_STUDIO_EVAL_THREADS=2), and every case the
// two parts cannot do alone (a file not grouped by query, an error in the second half, gzip) evaluated on one
// thread with the same result or the same positioned error.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { readQrels } from '../../../../core/formats/trecQrels.ts';
import { evaluateRunFile } from '../../../../core/metrics/evaluate.ts';
import {
  evaluateInTwoThreads as evaluateClaimingChunks,
  twoThreadPlan,
} from '../../../../core/metrics/parallel/parallelEvaluation.ts';
import { groupedByQuery, queryChunks } from '../../../../core/metrics/parallel/queryBoundary.ts';
import { formatTrecEvalText } from '../../../../core/metrics/trecEvalOutput.ts';
import { distDir, fixturesDir, runCliProcess, scratchDir } from '../../../helpers.ts';
import { assertSameTrecEvalLines } from '../trecEvalComparison.ts';
import { trecEvalSuite as suite, suiteCases, suiteOptions } from '../trecEvalSuite.ts';

process.env.QRELS_STUDIO_EVAL_THREADS = '2';

/** Two threads, each reading every other chunk of each file: on these small files the main thread would
 * otherwise often read every chunk before the worker has booted. */
const evaluateInTwoThreads = (...args: Parameters<typeof evaluateClaimingChunks>) =>
  evaluateClaimingChunks(args[0], args[1], args[2], args[3], args[4], args[5], true);

/** Why a check is evaluated on one thread: results.trunc interleaves its queries. */
const oneThreadReasons = new Map([['results.trunc', /results.trunc is not grouped by query/]]);

// trec_eval's Makefile checks (as trecEvalTestSuite.test.ts runs them on one thread).
for (const c of suiteCases) {
  const oneThread = oneThreadReasons.get(c.run);
  test(`two threads: ${c.measures.join(' ')} ${c.qrels} ${c.run} equals ${c.expected} and one thread's output`, async () => {
    const options = suiteOptions(c);
    const outcome = await evaluateInTwoThreads(join(suite, c.qrels), join(suite, c.run), options, c.measures);
    const text = { perQuery: c.perQuery ?? false, runidLine: 'summary' as const };
    if (oneThread) {
      assert.ok('oneThread' in outcome);
      assert.match(outcome.oneThread, oneThread);
      return;
    }
    assert.ok('evaluation' in outcome, `evaluated on one thread: ${'oneThread' in outcome && outcome.oneThread}`);
    const ours = formatTrecEvalText(outcome.evaluation, text);
    assertSameTrecEvalLines(ours, readFileSync(join(suite, c.expected), 'latin1'), c.expected);
    const one = await evaluateRunFile(await readQrels(join(suite, c.qrels)), join(suite, c.run), options);
    assert.equal(ours, formatTrecEvalText(one, text));
    assert.deepEqual(outcome.evaluation.queries, one.queries);
  });
}

/** The suite's qrels and run with each line's qid rewritten, so that both files' lines move around. */
function rewritten(dir: string, name: string, lines: (lines: string[]) => string[]): string {
  const file = join(dir, name);
  const source = readFileSync(join(suite, name.replace(/\.[a-z]+$/, '')), 'latin1')
    .split('\n')
    .filter(Boolean);
  writeFileSync(file, `${lines(source).join('\n')}\n`, 'latin1');
  return file;
}

test('two threads: a run or qrels not grouped by query, or gzip, is evaluated on one thread with the same numbers', async () => {
  const dir = scratchDir();
  const options = suiteOptions({ measures: ['all_trec'] });
  const qrels = join(suite, 'qrels.test');
  const run = join(suite, 'results.test');
  const expected = formatTrecEvalText(await evaluateRunFile(await readQrels(qrels), run, options), {
    perQuery: true,
    runidLine: 'summary',
  });
  // The first query's lines, half at the start and half at the end: each chunk grouped, the query in two. Comment
  // lines after the first half fill the first 64 KiB, which is all the check before starting a thread reads.
  const padding = Array<string>(17000).fill('# padding, so that the start of the file looks grouped by query');
  const splitFirstQuery = (lines: string[]): string[] => {
    const qid = lines[0]!.split(/\s+/)[0];
    const first = lines.filter((line) => line.split(/\s+/)[0] === qid);
    const half = Math.ceil(first.length / 2);
    const rest = lines.filter((line) => line.split(/\s+/)[0] !== qid);
    return [...first.slice(0, half), ...padding, ...rest, ...first.slice(half)];
  };
  // Lines alternating between the first and the second half's: not grouped within the first MiB.
  const alternate = (lines: string[]): string[] => {
    const mixed: string[] = [];
    const middle = Math.ceil(lines.length / 2);
    for (let i = 0; i < middle; i++)
      mixed.push(lines[i]!, ...(lines[middle + i] === undefined ? [] : [lines[middle + i]!]));
    return mixed;
  };
  const inputs = [
    { qrels, run: rewritten(dir, 'results.test.split', splitFirstQuery), reason: /two chunks of the run/ },
    { qrels: rewritten(dir, 'qrels.test.split', splitFirstQuery), run, reason: /two chunks of the qrels/ },
    { qrels, run: rewritten(dir, 'results.test.mixed', alternate), reason: /results.test.mixed is not grouped/ },
    { qrels: rewritten(dir, 'qrels.test.mixed', alternate), run, reason: /qrels.test.mixed is not grouped/ },
    { qrels, run: join(dir, 'results.gz'), reason: /not a plain file/ },
  ];
  writeFileSync(join(dir, 'results.gz'), gzipSync(readFileSync(run)));
  for (const input of inputs) {
    const outcome = await evaluateInTwoThreads(input.qrels, input.run, options, ['all_trec']);
    assert.ok('oneThread' in outcome, `${input.run}: two threads`);
    assert.match(outcome.oneThread, input.reason);
    const one = await evaluateRunFile(await readQrels(input.qrels), input.run, options);
    assert.equal(formatTrecEvalText(one, { perQuery: true, runidLine: 'summary' }), expected);
  }
});

test('two threads: TREC Web 2010 runs (missing topics, ties, unjudged, -2 grades) with -c, -J, -M, -l as on one thread', async () => {
  // test/fixtures/reference-measures: 50 topics, more than trec_eval's suite's 3.
  const reference = join(fixturesDir, 'reference-measures');
  const qrels = join(reference, 'web.qrels');
  for (const run of [join(reference, 'runA.run'), join(reference, 'runB.run')]) {
    for (const c of [
      { measures: ['all_trec'], complete: true },
      {
        measures: ['map', 'P.5,10', 'ndcg_cut.10', 'relstring.10'],
        complete: true,
        maxRetrieved: 50,
        relevanceLevel: 2,
      },
    ]) {
      for (const judgedOnly of [false, true]) {
        const options = { ...suiteOptions(c), ...(judgedOnly && { judgedOnly: true }) };
        const outcome = await evaluateInTwoThreads(qrels, run, options, c.measures);
        assert.ok('evaluation' in outcome, `evaluated on one thread: ${'oneThread' in outcome && outcome.oneThread}`);
        const one = await evaluateRunFile(await readQrels(qrels), run, options);
        assert.equal(
          formatTrecEvalText(outcome.evaluation, { perQuery: true, runidLine: 'summary' }),
          formatTrecEvalText(one, { perQuery: true, runidLine: 'summary' }),
        );
        assert.deepEqual(outcome.evaluation.all, one.all);
      }
    }
  }
  // Both threads claiming chunks as they are free (the CLI's way): the same evaluation.
  const options = suiteOptions({ measures: ['all_trec'], complete: true });
  const claimed = await evaluateClaimingChunks(qrels, join(reference, 'runA.run'), options, ['all_trec']);
  assert.ok('evaluation' in claimed);
  const one = await evaluateRunFile(await readQrels(qrels), join(reference, 'runA.run'), options);
  assert.equal(
    formatTrecEvalText(claimed.evaluation, { perQuery: true, runidLine: 'summary' }),
    formatTrecEvalText(one, { perQuery: true, runidLine: 'summary' }),
  );
  // A run without some qrels topic and no -c: an error, which one thread reports where it is.
  const outcome = await evaluateInTwoThreads(qrels, join(reference, 'runB.run'), suiteOptions({ measures: ['map'] }), [
    'map',
  ]);
  assert.ok('oneThread' in outcome);
  assert.match(outcome.oneThread, /no results/);
});

test('two threads: QRELS_STUDIO_EVAL_THREADS=1, small files and many values a query stay on one thread', () => {
  const qrels = join(suite, 'qrels.test');
  const run = join(suite, 'results.test');
  assert.ok('qrels' in twoThreadPlan(qrels, run));
  try {
    process.env.QRELS_STUDIO_EVAL_THREADS = '1';
    assert.deepEqual(twoThreadPlan(qrels, run), { reason: 'QRELS_STUDIO_EVAL_THREADS=1' });
    delete process.env.QRELS_STUDIO_EVAL_THREADS;
    assert.deepEqual(twoThreadPlan(qrels, run), { reason: 'small files' });
    // all_trec's many values a query: one thread, unless forced (with -q or without).
    assert.match((twoThreadPlan(qrels, run, 120, true) as { reason: string }).reason, /^-q with 120 values a query/);
    assert.match((twoThreadPlan(qrels, run, 120) as { reason: string }).reason, /^120 values a query/);
    assert.deepEqual(twoThreadPlan(qrels, run, 3), { reason: 'small files' });
    process.env.QRELS_STUDIO_EVAL_THREADS = '2';
    assert.ok('qrels' in twoThreadPlan(qrels, run, 120));
  } finally {
    process.env.QRELS_STUDIO_EVAL_THREADS = '2';
  }
});

test('two threads: an error in the second half of either file is the error one thread reports (CLI)', () => {
  const dir = scratchDir();
  const qrelsLines = readFileSync(join(suite, 'qrels.test'), 'latin1').split('\n').filter(Boolean);
  const runLines = readFileSync(join(suite, 'results.test'), 'latin1').split('\n').filter(Boolean);
  const near = (lines: string[]): number => Math.floor(lines.length * 0.8);
  // A duplicate judgment, a bad label, a run line with a bad score, a document retrieved twice: all past the middle.
  const duplicated = [...qrelsLines];
  duplicated.splice(near(qrelsLines) + 1, 0, qrelsLines[near(qrelsLines)]!);
  const badLabel = qrelsLines.map((line, i) => (i === near(qrelsLines) ? line.replace(/\S+$/, 'x') : line));
  const badScore = runLines.map((line, i) => {
    if (i !== near(runLines)) return line;
    const fields = line.trim().split(/\s+/);
    fields[4] = '?';
    return fields.join('\t');
  });
  const twice = [...runLines];
  twice.splice(near(runLines) + 1, 0, runLines[near(runLines)]!);
  const write = (name: string, lines: string[]): string => {
    writeFileSync(join(dir, name), `${lines.join('\n')}\n`, 'latin1');
    return join(dir, name);
  };
  const qrels = join(suite, 'qrels.test');
  const run = join(suite, 'results.test');
  const inputs = [
    [write('qrels.duplicated', duplicated), run],
    [write('qrels.badLabel', badLabel), run],
    [qrels, write('run.badScore', badScore)],
    [qrels, write('run.twice', twice)],
  ] as const;
  for (const [q, r] of inputs) {
    const two = runCliProcess(['eval', '-m', 'all_trec', q, r], { env: { QRELS_STUDIO_EVAL_THREADS: '2' } });
    const one = runCliProcess(['eval', '-m', 'all_trec', q, r], { env: { QRELS_STUDIO_EVAL_THREADS: '1' } });
    assert.equal(two.status, 1, `${q} ${r}: ${two.stderr}`);
    assert.match(two.stderr, /:\d+:\d+/);
    assert.equal(two.stderr, one.stderr);
    assert.equal(two.stdout, one.stdout);
  }
});

test('two threads: each file is cut at query boundaries into chunks that shrink towards its end', () => {
  const dir = scratchDir();
  // 40 queries of 1 to 40 lines each, qids of varied lengths.
  const lines: string[] = [];
  for (let q = 0; q < 40; q++) for (let d = 0; d <= q; d++) lines.push(`q${q * 37} Q0 doc${d} ${d + 1} ${40 - d} tag`);
  const file = join(dir, 'run');
  writeFileSync(file, `${lines.join('\n')}\n`);
  const text = readFileSync(file, 'latin1');
  const chunks = queryChunks(file, text.length);
  assert.ok(chunks.length >= 4, `${chunks.length} chunks`);
  assert.equal(chunks[0]!.start, 0);
  assert.equal(chunks.at(-1)!.end, text.length);
  const qidAt = (offset: number): string => text.slice(offset, text.indexOf(' ', offset));
  for (const [i, chunk] of chunks.entries()) {
    if (i > 0) {
      assert.equal(chunk.start, chunks[i - 1]!.end);
      assert.equal(text[chunk.start - 1], '\n');
      assert.notEqual(qidAt(chunk.start), qidAt(text.lastIndexOf('\n', chunk.start - 2) + 1), `chunk ${i}`);
    }
  }
  assert.ok(chunks[0]!.end - chunks[0]!.start > chunks.at(-2)!.end - chunks.at(-2)!.start);
  // One query: no boundary, one chunk.
  writeFileSync(file, 'q1 Q0 a 1 1 t\nq1 Q0 b 2 0.5 t\n');
  assert.deepEqual(queryChunks(file, 28), [{ start: 0, end: 28 }]);
});

test('two threads: a run whose first lines are each a new query (written rank by rank) is not grouped; qrels may be', () => {
  const dir = scratchDir();
  const file = join(dir, 'file');
  const rankByRank = Array.from({ length: 200 }, (_, i) => `q${i} Q0 d${i} 1 1 t`);
  writeFileSync(file, `${rankByRank.join('\n')}\n`);
  assert.equal(groupedByQuery(file, true), false);
  // One judgment a query (MS MARCO's qrels): grouped.
  writeFileSync(file, `${Array.from({ length: 200 }, (_, i) => `q${i} 0 d${i} 1`).join('\n')}\n`);
  assert.equal(groupedByQuery(file), true);
  writeFileSync(file, 'q1 0 a 1\nq2 0 b 1\nq1 0 c 1\n');
  assert.equal(groupedByQuery(file), false);
});

test('two threads: the launcher starts the second thread before the bundle loads, the bundle run directly at its entry; eval takes it (CLI)', () => {
  const qrels = join(suite, 'qrels.test');
  const run = join(suite, 'results.test');
  const env = { QRELS_STUDIO_EVAL_THREADS: '2', QRELS_STUDIO_DEBUG: '1' };
  const two = runCliProcess(['eval', '-m', 'all_trec', qrels, run], { env });
  assert.equal(two.status, 0, two.stderr);
  assert.equal(two.stderr, 'eval: two threads (the second started by the launcher)\n');
  const direct = spawnSync(process.execPath, [join(distDir, 'cli.cjs'), 'eval', '-m', 'all_trec', qrels, run], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  assert.equal(direct.stderr, 'eval: two threads (the second started by the CLI entry)\n');
  assert.equal(direct.stdout, two.stdout);
  const one = runCliProcess(['eval', '-m', 'all_trec', qrels, run], {
    env: { ...env, QRELS_STUDIO_EVAL_THREADS: '1' },
  });
  assert.equal(one.stderr, 'eval: one thread: QRELS_STUDIO_EVAL_THREADS=1\n');
  assert.equal(two.stdout, one.stdout);
});
