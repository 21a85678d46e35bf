// trec_eval's rules on small hand-made files, each checked against numbers worked out by hand.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { FormatError } from '../../../core/formats/formatError.ts';
import { readQrels } from '../../../core/formats/trecQrels.ts';
import { type EvaluationOptions, evaluateRunFile, type RunEvaluation } from '../../../core/metrics/evaluate.ts';
import { selectMeasures } from '../../../core/metrics/measureSelection.ts';
import { evaluationJson } from '../../../core/metrics/trecEvalOutput.ts';
import { scratchDir } from '../../helpers.ts';

function files(qrels: string, run: string): { qrels: string; run: string } {
  const dir = scratchDir();
  writeFileSync(join(dir, 'qrels'), qrels);
  writeFileSync(join(dir, 'run'), run);
  return { qrels: join(dir, 'qrels'), run: join(dir, 'run') };
}

async function evaluate(
  qrelsText: string,
  runText: string,
  options: Partial<EvaluationOptions> & { m?: string[] } = {},
): Promise<RunEvaluation> {
  const paths = files(qrelsText, runText);
  const qrels = await readQrels(paths.qrels);
  return evaluateRunFile(qrels, paths.run, {
    measures: selectMeasures(options.m ?? ['all_trec']).measures,
    relevanceLevel: options.relevanceLevel ?? 1,
    maxRetrieved: options.maxRetrieved ?? Number.POSITIVE_INFINITY,
    complete: options.complete ?? false,
  });
}

const value = (evaluation: RunEvaluation, name: string, qid?: string): number => {
  const values = qid ? evaluation.queries.find((q) => q.qid === qid)!.values : evaluation.all;
  const found = values.find((v) => v.name === name);
  assert.ok(found, `no value ${name}`);
  return found.value;
};

test('ranking: score descending, ties broken by docid descending byte order, rank column ignored', async () => {
  // All three tie; descending strcmp puts d2 first, then d10, then d1 ("d1" < "d10" < "d2").
  const evaluation = await evaluate('q 0 d10 1\n', 'q Q0 d1 1 5 r\nq Q0 d10 2 5 r\nq Q0 d2 3 5 r\n', {
    m: ['recip_rank'],
  });
  assert.equal(value(evaluation, 'recip_rank'), 1 / 2);
  // The rank column says d1 is first; the score says otherwise and wins.
  const byScore = await evaluate('q 0 d1 1\n', 'q Q0 d1 1 0.5 r\nq Q0 d2 2 0.9 r\n', { m: ['recip_rank'] });
  assert.equal(value(byScore, 'recip_rank'), 1 / 2);
});

test('ties compare docids byte by byte (UTF-8 bytes above 0x7f sort after ASCII)', async () => {
  const evaluation = await evaluate('q 0 é 1\n', 'q Q0 z 1 1 r\nq Q0 é 2 1 r\n', { m: ['recip_rank'] });
  assert.equal(value(evaluation, 'recip_rank'), 1, 'é (0xC3 0xA9) > z (0x7A), so it ranks first');
});

test('queries with no relevant document count as 0 in averages; queries only in the run are ignored', async () => {
  const evaluation = await evaluate('a 0 d1 1\nb 0 d1 0\n', 'a Q0 d1 1 1 r\nb Q0 d1 1 1 r\nc Q0 d1 1 1 r\n', {
    m: ['num_q', 'map', 'num_ret'],
  });
  assert.equal(value(evaluation, 'num_q'), 2);
  assert.equal(value(evaluation, 'map'), 0.5);
  assert.equal(value(evaluation, 'num_ret'), 2);
});

test('a qrels query absent from the run is a positioned error; with -c it counts 0 and keeps its num_rel', async () => {
  const qrels = 'a 0 d1 1\nb 0 d1 1\nb 0 d2 1\n';
  await assert.rejects(evaluate(qrels, 'a Q0 d1 1 1 r\n'), (error: FormatError) => {
    assert.ok(error instanceof FormatError);
    assert.equal(error.line, 2);
    assert.match(error.message, /qrels:2:1: error: query 'b' is judged here but has no results in .*run.*pass -c/);
    return true;
  });
  const complete = await evaluate(qrels, 'a Q0 d1 1 1 r\n', {
    complete: true,
    m: ['num_q', 'num_rel', 'num_ret', 'map'],
  });
  assert.equal(value(complete, 'num_q'), 2);
  assert.equal(value(complete, 'num_rel'), 3);
  assert.equal(value(complete, 'num_ret'), 1);
  assert.equal(value(complete, 'map'), 0.5);
  assert.equal(value(complete, 'map', 'b'), 0);
});

test("-c: the summary num_rel counts labels > 0 in the whole qrels, whatever -l, as trec_eval's does", async () => {
  // trec_eval (m_num_rel.c, te_calc_avg_num_rel) recounts the qrels file for the summary under -c; per query,
  // num_rel follows -l. Checked against trec_eval 10: `-q -c -l 2 -m num_rel` prints q1 0, all 1.
  const qrels = 'q1 0 d1 1\nq1 0 d2 0\n';
  const run = 'q1 Q0 d1 1 1 r\n';
  const level2 = await evaluate(qrels, run, { complete: true, relevanceLevel: 2, m: ['num_rel'] });
  assert.equal(value(level2, 'num_rel', 'q1'), 0);
  assert.equal(value(level2, 'num_rel'), 1);
  const level0 = await evaluate(qrels, run, { complete: true, relevanceLevel: 0, m: ['num_rel'] });
  assert.equal(value(level0, 'num_rel', 'q1'), 2);
  assert.equal(value(level0, 'num_rel'), 1);
  // A query missing from the run counts too; without -c the summary is the sum of the per-query lines.
  const twoQueries = 'q1 0 d1 1\nq1 0 d2 0\nq2 0 d1 2\nq2 0 d3 1\nq2 0 d4 -1\n';
  const missing = await evaluate(twoQueries, run, { complete: true, relevanceLevel: 2, m: ['num_rel'] });
  assert.deepEqual(
    [value(missing, 'num_rel', 'q1'), value(missing, 'num_rel', 'q2'), value(missing, 'num_rel')],
    [0, 1, 3],
  );
  const incomplete = await evaluate(qrels, run, { relevanceLevel: 2, m: ['num_rel'] });
  assert.equal(value(incomplete, 'num_rel'), 0);
});

test('a byte order mark starting a file is part of the first id, as in trec_eval, and stays in --json', async () => {
  // trec_eval reads bytes: '\ufeffq1' and 'q1' are two queries, and so they are in every output.
  const bom = '\ufeff';
  const evaluation = await evaluate(`${bom}q1 0 d1 1\nq1 0 d2 1\n`, `${bom}q1 Q0 d1 1 1 r\nq1 Q0 d2 1 1 r\n`, {
    m: ['num_rel_ret'],
  });
  assert.deepEqual(
    evaluation.queries.map((q) => [Buffer.from(q.qid, 'latin1').toString('utf8'), q.values[0]!.value]),
    [
      ['q1', 1],
      [`${bom}q1`, 1],
    ],
  );
  const json = evaluationJson([evaluation], { perQuery: true });
  assert.deepEqual(Object.keys(json.runs[0]!.queries!), ['q1', `${bom}q1`]);
  // A run without the mark leaves the marked query unanswered; the message shows the invisible character.
  await assert.rejects(evaluate(`${bom}q1 0 d1 1\n`, 'q1 Q0 d1 1 1 r\n'), (error: Error) => {
    assert.ok(error instanceof FormatError, String(error));
    assert.match(error.message, /qrels:1:1: error: query '\\u\{feff\}q1' is judged here but has no results/);
    return true;
  });
});

// Where trec_eval 10 crashes or is wrong, each checked against it; README "Differences from trec_eval".
test('a query whose labels are all negative is a query with no relevant document (trec_eval exits 4)', async () => {
  const evaluation = await evaluate('q1 0 d1 -1\nq1 0 d2 -2\nq2 0 d1 1\n', 'q1 Q0 d1 1 1 r\nq2 Q0 d1 1 1 r\n', {
    m: ['num_q', 'num_rel', 'num_rel_ret', 'map', 'ndcg'],
  });
  assert.equal(value(evaluation, 'num_q'), 2);
  assert.deepEqual(
    ['num_rel', 'num_rel_ret', 'map', 'ndcg'].map((name) => value(evaluation, name, 'q1')),
    [0, 0, 0, 0],
  );
  assert.equal(value(evaluation, 'map'), 0.5);
});

test('every line whose first byte is # is a comment, also right after another (trec_eval reads that one as data)', async () => {
  // trec_eval's qrels reader skips one '#' line and parses the next as data: '# x d1 1' becomes query '#'.
  const evaluation = await evaluate(
    '# judged by hand\n# x d1 1\nq1 0 d1 1\n',
    '# run header\n# x Q0 d1 1 1 r\nq1 Q0 d1 1 1 r\n',
    { m: ['num_q', 'num_ret', 'map'] },
  );
  assert.deepEqual(
    evaluation.queries.map((q) => q.qid),
    ['q1'],
  );
  assert.equal(value(evaluation, 'num_ret'), 1);
  assert.equal(value(evaluation, 'map'), 1);
});

test("-c evaluates a missing query as an empty ranking, not as trec_eval's placeholder document", async () => {
  // trec_eval ranks 'ceci_nest_pas_un_docno' for a query the run lacks: a qrels judging that docid relevant gives
  // the unanswered query map 0.5 and recip_rank 1 there (num_ret 0). Nothing was retrieved, so everything is 0.
  const evaluation = await evaluate('q1 0 d1 1\nq2 0 ceci_nest_pas_un_docno 1\nq2 0 d9 1\n', 'q1 Q0 d1 1 1 r\n', {
    complete: true,
    m: ['num_ret', 'num_rel', 'num_rel_ret', 'map', 'recip_rank', 'P.5', 'bpref', 'ndcg'],
  });
  assert.deepEqual(
    evaluation.queries.find((q) => q.qid === 'q2')!.values.map((v) => [v.name, v.value]),
    [
      ['num_ret', 0],
      ['num_rel', 2],
      ['num_rel_ret', 0],
      ['map', 0],
      ['bpref', 0],
      ['recip_rank', 0],
      ['P_5', 0],
      ['ndcg', 0],
    ],
  );
  assert.equal(value(evaluation, 'map'), 0.5);
});

test('-l thresholds binary measures but not ndcg (graded gain = label, negative labels gain 0)', async () => {
  const qrels = 'q 0 a 2\nq 0 b 1\nq 0 c -2\n';
  const run = 'q Q0 c 1 3 r\nq Q0 b 2 2 r\nq Q0 a 3 1 r\n';
  const level1 = await evaluate(qrels, run, { m: ['num_rel', 'P.3', 'ndcg'] });
  const level2 = await evaluate(qrels, run, { m: ['num_rel', 'P.3', 'ndcg'], relevanceLevel: 2 });
  assert.equal(value(level1, 'num_rel'), 2);
  assert.equal(value(level2, 'num_rel'), 1);
  assert.equal(value(level1, 'P_3'), 2 / 3);
  assert.equal(value(level2, 'P_3'), 1 / 3);
  // DCG = 0 (c: -2) + 1/log2(3) + 2/log2(4); ideal = 2/log2(2) + 1/log2(3).
  const expected = (1 / Math.log2(3) + 2 / 2) / (2 + 1 / Math.log2(3));
  assert.equal(value(level1, 'ndcg'), expected);
  assert.equal(value(level2, 'ndcg'), expected);
});

test('bpref ignores documents that are not judged and documents judged negative', async () => {
  // R = 1 relevant (r), N = 2 judged non-relevant; ranking: x (unjudged), n1, r, n2.
  const qrels = 'q 0 r 1\nq 0 n1 0\nq 0 n2 0\nq 0 neg -1\n';
  const run = 'q Q0 x 1 9 t\nq Q0 neg 2 8 t\nq Q0 n1 3 7 t\nq Q0 r 4 6 t\nq Q0 n2 5 5 t\n';
  const evaluation = await evaluate(qrels, run, { m: ['bpref'] });
  assert.equal(value(evaluation, 'bpref'), 1 - 1 / 1); // 1 non-relevant above r, min(1, R=1) / min(N=2, R=1)
});

test('-M keeps the top documents by score; a duplicate below the cut is not an error, above it is', async () => {
  const qrels = 'q 0 a 1\n';
  const run = 'q Q0 a 1 3 r\nq Q0 b 2 2 r\nq Q0 a 3 1 r\n';
  const cut = await evaluate(qrels, run, { maxRetrieved: 2, m: ['num_ret', 'P.2'] });
  assert.equal(value(cut, 'num_ret'), 2);
  assert.equal(value(cut, 'P_2'), 0.5);
  await assert.rejects(evaluate(qrels, run), (error: FormatError) => {
    assert.equal(error.line, 3);
    assert.equal(error.column, 6);
    assert.deepEqual(error.related, { line: 1, column: 6, message: 'first retrieval' });
    assert.match(error.message, /run:3:6: error: document 'a' is retrieved twice for query 'q' \(first on line 1\)/);
    return true;
  });
});

test('interleaved queries in a run give the same numbers as grouped ones', async () => {
  const qrels = 'a 0 d1 1\nb 0 d2 1\nb 0 d3 1\n';
  const grouped = await evaluate(qrels, 'a Q0 d1 1 2 r\na Q0 d9 2 1 r\nb Q0 d3 1 2 r\nb Q0 d2 2 1 r\n');
  const interleaved = await evaluate(qrels, 'b Q0 d3 1 2 r\na Q0 d9 2 1 r\nb Q0 d2 2 1 r\na Q0 d1 1 2 r\n');
  assert.deepEqual(interleaved.all, grouped.all);
  assert.deepEqual(interleaved.queries, grouped.queries);
});

test('a duplicate in an interleaved run is reported at its own line', async () => {
  await assert.rejects(
    evaluate('a 0 d1 1\n', 'a Q0 d1 1 2 r\nb Q0 x 1 2 r\na Q0 d1 2 1 r\n'),
    /run:3:6: error: document 'd1' is retrieved twice/,
  );
});

test('runid is the tag of the last line; comments, blank lines and trailing fields are ignored as in trec_eval', async () => {
  const evaluation = await evaluate(
    '# judged by hand\nq 0 a 1\n\n',
    '# run header\n\nq Q0 a 1 2 first extra fields\nq Q0 b 2 1 second\n',
    { m: ['num_ret', 'map'] },
  );
  assert.equal(evaluation.runid, 'second');
  assert.equal(value(evaluation, 'num_ret'), 2);
  assert.equal(value(evaluation, 'map'), 1);
});

test('scores parse as C strtod would: exponents, signs, long mantissas', async () => {
  const qrels = 'q 0 a 1\n';
  const evaluation = await evaluate(qrels, 'q Q0 b 1 1e-3 r\nq Q0 a 2 0.00100000000000000002 r\nq Q0 c 3 -5 r\n', {
    m: ['recip_rank'],
  });
  // 0.00100000000000000002 rounds to the same double as 1e-3; the tie goes to docid: 'b' > 'a'.
  assert.equal(value(evaluation, 'recip_rank'), 1 / 2);
});

test('an interleaved run is ranked whole before -M cuts it: a repeat below the cut is no error', async () => {
  // A's lines are split by B's; d1 appears twice but both fall below the cut of 2 (d2 .9, d3 .8 rank first).
  const qrels = 'A 0 d2 1\nA 0 d1 1\nB 0 x 1\n';
  const run = 'A Q0 d1 1 0.5 t\nA Q0 d1 2 0.4 t\nB Q0 x 1 1 t\nA Q0 d2 3 0.9 t\nA Q0 d3 4 0.8 t\n';
  const evaluation = await evaluate(qrels, run, { maxRetrieved: 2, m: ['map'] });
  assert.equal(value(evaluation, 'map', 'A'), 0.5);
  assert.equal(value(evaluation, 'map', 'B'), 1);
  assert.equal(value(evaluation, 'map'), 0.75);
});

test('every negative label is judged-but-not-relevant, however large its magnitude', async () => {
  const evaluation = await evaluate('1 0 d1 -4294967295\n1 0 d2 1\n', '1 Q0 d1 1 0.9 t\n1 Q0 d2 2 0.8 t\n', {
    m: ['num_rel', 'num_rel_ret', 'map', 'ndcg'],
  });
  assert.equal(value(evaluation, 'num_rel'), 1);
  assert.equal(value(evaluation, 'num_rel_ret'), 1);
  assert.equal(value(evaluation, 'map'), 0.5);
  assert.equal(value(evaluation, 'ndcg'), 1 / Math.log2(3));
});

test('large labels cost nothing per query (label counts are sparse)', async () => {
  const lines: string[] = [];
  const runLines: string[] = [];
  for (let q = 0; q < 5000; q++) {
    lines.push(`q${q} 0 d 2147483647`);
    runLines.push(`q${q} Q0 d 1 1 r`);
  }
  const evaluation = await evaluate(`${lines.join('\n')}\n`, `${runLines.join('\n')}\n`, { m: ['ndcg', 'num_q'] });
  assert.equal(value(evaluation, 'num_q'), 5000);
  assert.equal(value(evaluation, 'ndcg'), 1);
});

test('an empty run is an error, even with -c', async () => {
  await assert.rejects(evaluate('q 0 a 1\n', '', { complete: true }), /run:1:1: error: the run has no results/);
});

test('a score beyond the range of a double says so', async () => {
  await assert.rejects(
    evaluate('q 0 a 1\n', 'q Q0 a 1 1e400 r\n'),
    /run:1:10: error: score '1e400' is beyond the range/,
  );
});

for (const [name, qrels, run, expected] of [
  [
    'qrels with 3 fields',
    'q 0 a\n',
    'q Q0 a 1 1 r\n',
    /qrels:1:6: error: expected 4 fields 'qid iter docid rel', found 3/,
  ],
  ['qrels with 5 fields', 'q 0 a 1 extra\n', 'q Q0 a 1 1 r\n', /qrels:1:9: error: expected 4 fields .* found 5/],
  [
    'a fractional label',
    'q 0 a 1\nq 0 b 0.5\n',
    'q Q0 a 1 1 r\n',
    /qrels:2:7: error: expected an integer relevance label .*found '0\.5'/,
  ],
  [
    'a duplicate judgment',
    'q 0 a 1\nq 0 b 1\nq 0 a 0\n',
    'q Q0 a 1 1 r\n',
    /qrels:3:5: error: duplicate judgment of document 'a' for query 'q' \(first on line 1\)/,
  ],
  [
    'an empty qrels file',
    '# nothing judged yet\n',
    'q Q0 a 1 1 r\n',
    /qrels:1:1: error: the qrels file has no judgments/,
  ],
  [
    'a run line with 5 fields',
    'q 0 a 1\n',
    'q Q0 a 1 1\n',
    /run:1:11: error: expected 6 fields 'qid Q0 docid rank score tag', found 5/,
  ],
  [
    'a score that is not a number',
    'q 0 a 1\n',
    'q Q0 a 1 0x1F r\n',
    /run:1:10: error: expected a decimal score, found '0x1F'/,
  ],
  // C's atof, trec_eval's reader, takes these: inf ranks first, nan anywhere, 0x1p3 is 8.
  ...['inf', '-inf', 'INFINITY', 'nan', 'NaN', 'nan(1)', '0x1p3', '0X.8'].map(
    (score) =>
      [
        `a score of '${score}'`,
        'q 0 a 1\n',
        `q Q0 b 1 1 r\nq Q0 a 2 ${score} r\n`,
        new RegExp(`run:2:10: error: expected a decimal score, found '${score.replace(/[()]/g, '\\$&')}'`),
      ] as const,
  ),
] as const) {
  test(`${name} is a positioned error`, async () => {
    await assert.rejects(evaluate(qrels, run), (error: Error) => {
      assert.ok(error instanceof FormatError, String(error));
      assert.match(error.message, expected);
      return true;
    });
  });
}
