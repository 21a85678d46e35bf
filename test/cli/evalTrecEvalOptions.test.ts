// `qrels-studio eval` with trec_eval's -J, -N, -Z and the parameterised -m forms, as a user runs it: the same lines
// as trec_eval 10 (reference-measures/trec_eval-extra), and a positioned or usage error for each kind of bad input.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { assertSameTrecEvalLines } from '../core/metrics/trecEvalComparison.ts';
import { fixturesDir, scratchDir } from '../helpers.ts';
import { cliInProcess } from './inProcessCli.ts';

const folder = join(fixturesDir, 'reference-measures');
const extra = join(folder, 'trec_eval-extra');

test('eval -q -c -J -M50 -l2 -m all_trec prints what trec_eval prints (-nan included)', async () => {
  const result = await cliInProcess(
    folder,
    'eval',
    '-q',
    '-c',
    '-J',
    '-M50',
    '-l2',
    '-m',
    'all_trec',
    join(folder, 'web.qrels'),
    join(folder, 'runB.run'),
  );
  assert.equal(result.status, 0, result.stderr);
  const expected = readFileSync(join(extra, 'runB.trec_eval.cJM50l2.all_trec.q'), 'latin1');
  assertSameTrecEvalLines(result.stdout, expected, 'runB.trec_eval.cJM50l2.all_trec.q');
});

test('eval -N with utility, set_F, relstring, ndcg pairs, rbp.p, P and unj parameters', async () => {
  const result = await cliInProcess(
    folder,
    'eval',
    '-q',
    '-N',
    '50000000',
    ...[
      'utility.1,-1,-0.5,0.001',
      'set_F.0.5',
      'relstring.15',
      'ndcg.1=3,2=9',
      'rbp.p=0.8',
      'P.3,7',
      'unj.1,50',
    ].flatMap((m) => ['-m', m]),
    join(folder, 'runA.inrun.qrels'),
    join(folder, 'runA.run'),
  );
  assert.equal(result.status, 0, result.stderr);
  const expected = readFileSync(join(extra, 'runA.trec_eval.params1.q'), 'latin1');
  assertSameTrecEvalLines(result.stdout, expected, 'runA.trec_eval.params1.q');
});

test('eval -Z ZSCORES', async () => {
  const result = await cliInProcess(
    folder,
    'eval',
    '-q',
    '-Z',
    join(extra, 'runA.zscores'),
    ...['map', 'P.10', 'num_ret', 'gm_map', 'num_rel_ret'].flatMap((m) => ['-m', m]),
    join(folder, 'runA.inrun.qrels'),
    join(folder, 'runA.run'),
  );
  assert.equal(result.status, 0, result.stderr);
  assertSameTrecEvalLines(
    result.stdout,
    readFileSync(join(extra, 'runA.trec_eval.Z.q'), 'latin1'),
    'runA.trec_eval.Z.q',
  );
});

test('eval -q -n: the per-query lines only, as trec_eval -n', async () => {
  const result = await cliInProcess(
    folder,
    'eval',
    '-q',
    '-n',
    '-m',
    'official',
    join(folder, 'runB.inrun.qrels'),
    join(folder, 'runB.run'),
  );
  assert.equal(result.status, 0, result.stderr);
  const expected = readFileSync(join(extra, 'runB.trec_eval.n.q'), 'latin1');
  assertSameTrecEvalLines(result.stdout, expected, 'runB.trec_eval.n.q');
});

test('bad options and parameters: a usage error that says what was expected and found', async () => {
  const cases: [string[], RegExp][] = [
    [['-N', 'many'], /-N: expected an integer ≥ 0, found 'many'/],
    [['-Z'], /-Z needs a zscores file|expected a qrels file/],
    [['-m', 'set_F.half'], /set_F': 'half' is not a number/],
    [['-m', 'utility.1,-1'], /utility' takes 4 numbers .* found 2/],
    [['-m', 'ndcg.1=3,2'], /ndcg': '2' is not a name=value pair/],
    [['-m', 'iprec_at_recall.0.5,0.5'], /threshold 0.5 is given twice/],
    [['-m', 'map.5'], /measure 'map' takes no parameters/],
    [['-m', 'P_avgjg'], /P_avgjg' is not computed by qrels-studio/],
    [['-m', 'set_F.0.5', '-m', 'set_F.2'], /set_F' is given twice with different parameters/],
  ];
  for (const [options, message] of cases) {
    const result = await cliInProcess(
      folder,
      'eval',
      ...options,
      join(folder, 'runA.inrun.qrels'),
      join(folder, 'runA.run'),
    );
    assert.notEqual(result.status, 0, options.join(' '));
    assert.match(result.stderr, message, options.join(' '));
    assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
  }
});

test('a bad zscores file: a positioned error (file:line:column, expected, found)', async () => {
  const dir = scratchDir();
  const cases: [string, RegExp][] = [
    ['251 map 0.1\n', /bad\.zscores:1:12: error: expected 4 fields \(qid measure mean stddev\), found 3/],
    ['251 map 0.1 0.2\n251 P_10 x 1\n', /bad\.zscores:2:10: error: expected the mean, a number; found 'x'/],
    ['251 map 0.1 0.2\n251 map 0.1 0.3\n', /bad\.zscores:2:5: error: measure 'map' of query '251' is given twice/],
  ];
  for (const [text, message] of cases) {
    writeFileSync(join(dir, 'bad.zscores'), text);
    const result = await cliInProcess(
      folder,
      'eval',
      '-Z',
      join(dir, 'bad.zscores'),
      join(folder, 'runA.inrun.qrels'),
      join(folder, 'runA.run'),
    );
    assert.notEqual(result.status, 0);
    assert.match(result.stderr, message);
    assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
  }
  const missing = await cliInProcess(
    folder,
    'eval',
    '-Z',
    join(dir, 'none.zscores'),
    join(folder, 'runA.inrun.qrels'),
    join(folder, 'runA.run'),
  );
  assert.notEqual(missing.status, 0);
  assert.match(missing.stderr, /none\.zscores: cannot read: no such file/);
});
