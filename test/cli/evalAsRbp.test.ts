// `qrels-studio eval --as rbp_eval` as a real process: rbp_eval 0.2's output byte for byte, its exit codes and
// messages (the computation itself is tested in test/core/metrics/rbp/rbpEval.test.ts).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fixturesDir, runCliProcess, scratchDir } from '../helpers.ts';

const reference = join(fixturesDir, 'reference-measures');

test('eval --as rbp_eval -q -H -p 0.5,0.8,0.95 equals rbp_eval on runA, wherever --as stands', () => {
  const expected = readFileSync(join(reference, 'runA.rbp_eval'), 'utf8');
  for (const args of [
    ['eval', '--as', 'rbp_eval', '-q', '-H', '-p', '0.5,0.8,0.95', 'web.nonneg.qrels', 'runA.run'],
    ['eval', '-qH', '-p0.5,0.8,0.95', '--as', 'rbp_eval', 'web.nonneg.qrels', 'runA.run'],
  ]) {
    const result = runCliProcess(args, { cwd: reference });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout, expected);
    assert.equal(result.stderr, '');
  }
});

test('eval --as rbp_eval: a negative grade is a positioned error (exit 1), a bad option a usage error (exit 2)', () => {
  const junk = runCliProcess(['eval', '--as', 'rbp_eval', '-H', 'web.qrels', 'runA.run'], { cwd: reference });
  assert.equal(junk.status, 1);
  assert.match(junk.stderr, /^web\.qrels:\d+:\d+: error: expected a relevance grade ≥ 0 .*found '-2'\n$/);
  assert.equal(junk.stdout, '');
  const dir = scratchDir();
  writeFileSync(join(dir, 'a.qrels'), '1 0 d1 1\n');
  writeFileSync(join(dir, 'a.run'), '1 Q0 d1 1 2 r\n');
  const option = runCliProcess(['eval', '--as', 'rbp_eval', '-d', '5,2', 'a.qrels', 'a.run'], { cwd: dir });
  assert.equal(option.status, 2);
  assert.match(option.stderr, /--as rbp_eval: option -d: depths in '5,2' not in strictly ascending order/);
  const fine = runCliProcess(['eval', '--as', 'rbp_eval', '-H', '-p', '0.5', 'a.qrels', 'a.run'], { cwd: dir });
  assert.equal(fine.stdout, 'p= 0.50 q=  all d= full rbp= 0.5000 +0.5000\n');
});
