// `qrels-studio eval --as gdeval` through the CLI's own entry point (cli/main.ts, in this process; once as the
// built bin/qrels-studio.cjs): gdeval.pl's output for its options, and bad input as a positioned error with exit
// code 1 — never a stack trace.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fixturesDir, runCliProcess, scratchDir } from '../helpers.ts';
import { cliInProcess } from './inProcessCli.ts';

const reference = join(fixturesDir, 'reference-measures');
const extra = join(reference, 'gdeval-extra');

test('eval --as gdeval -k 10 prints gdeval.pl -k 10 byte for byte; the default depth is 20', async () => {
  const k10 = await cliInProcess(reference, 'eval', '--as', 'gdeval', '-k', '10', 'web.qrels', 'runB.run');
  assert.equal(k10.stderr, '');
  assert.equal(k10.status, 0);
  assert.equal(k10.stdout, readFileSync(join(reference, 'runB.gdeval.k10'), 'utf8'));
  const k20 = await cliInProcess(reference, 'eval', 'web.qrels', '--as', 'gdeval', 'runA.run');
  assert.equal(k20.stdout, readFileSync(join(reference, 'runA.gdeval.k20'), 'utf8'));
});

test('bin/qrels-studio.cjs eval --as gdeval (the built CLI) prints gdeval.pl -k 20 as it printed it', () => {
  const result = runCliProcess(['eval', '--as', 'gdeval', 'web.qrels', 'runB.run'], { cwd: reference });
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stdout, readFileSync(join(reference, 'runB.gdeval.k20'), 'utf8'));
});

test('-c, -k and -j together, as gdeval.pl (with $MAX_JUDGMENT 6) printed them', async () => {
  const result = await cliInProcess(
    extra,
    'eval',
    '--as',
    'gdeval',
    '-c',
    '-k',
    '10',
    '-j',
    '6',
    'edge.qrels',
    'edge.run',
  );
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stdout, readFileSync(join(extra, 'edge.k10.j6.c.out'), 'utf8'));
});

test('-baseline and -riskAlpha (risk-sensitive evaluation), with and without -c, as gdeval.pl printed them', async () => {
  const cases: { args: string[]; expected: string }[] = [
    { args: ['-riskAlpha', '1', '-baseline', 'runA.run', 'web.qrels', 'runB.run'], expected: 'runB.baseA.a1.out' },
    { args: ['-c', '-k', '10', '-baseline', 'runA.run', 'web.qrels', 'runB.run'], expected: 'runB.baseA.k10.c.out' },
    // A judged topic missing from both runs (6) takes the baseline values of the missing topic before it (5).
    {
      args: [
        '-c',
        '-baseline',
        'gdeval-extra/edge.run',
        '-riskAlpha',
        '0.5',
        'gdeval-extra/edge.qrels',
        'gdeval-extra/one.run',
      ],
      expected: 'one.baseEdge.a05.c.out',
    },
  ];
  for (const { args, expected } of cases) {
    const result = await cliInProcess(reference, 'eval', '--as', 'gdeval', ...args);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout, readFileSync(join(extra, expected), 'utf8'), expected);
  }
  const negative = await cliInProcess(
    reference,
    'eval',
    '--as',
    'gdeval',
    '-baseline',
    'runA.run',
    '-riskAlpha',
    '-1',
    'web.qrels',
    'runB.run',
  );
  assert.equal(negative.status, 2);
  assert.match(negative.stderr, /-riskAlpha: expected a number ≥ 0, found '-1'/);
});

test("-k as Perl's int() reads it: '3.9' is 3; below 1 is a usage error", async () => {
  const result = await cliInProcess(extra, 'eval', '--as', 'gdeval', '-k', '3.9', 'edge.qrels', 'edge.run');
  assert.equal(result.stdout, readFileSync(join(extra, 'edge.k3.out'), 'utf8'));
  // Perl's int() and its way of printing the result: 1e16 is an integer, 1e20 a double, nan means every document.
  for (const depth of ['nan', '1e20', '1e16']) {
    const printed = await cliInProcess(extra, 'eval', '--as', 'gdeval', '-k', depth, 'edge.qrels', 'one.run');
    assert.equal(printed.stdout, readFileSync(join(extra, `one.k${depth}.out`), 'utf8'), `-k ${depth}`);
  }
  const zero = await cliInProcess(extra, 'eval', '--as', 'gdeval', '-k', '0', 'edge.qrels', 'edge.run');
  assert.equal(zero.status, 2);
  assert.match(zero.stderr, /-k: expected a depth, an integer ≥ 1, found '0'/);
  const unknown = await cliInProcess(extra, 'eval', '--as', 'gdeval', '-q', 'edge.qrels', 'edge.run');
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /unknown option '-q'/);
  const threeFiles = await cliInProcess(extra, 'eval', '--as', 'gdeval', 'edge.qrels', 'edge.run', 'one.run');
  assert.equal(threeFiles.status, 2);
  assert.match(threeFiles.stderr, /expected a qrels file and one run file, found 3 files/);
});

test('bad input: a positioned error (file:line:col, expected, found), exit code 1, nothing on stdout', async () => {
  const dir = scratchDir();
  const cases: { qrels: string; run: string; error: RegExp }[] = [
    {
      qrels: '1 0 a 1\n1 0 b two\n',
      run: '1 Q0 a 1 1 r\n',
      error: /qrels:2:7: error: expected a grade \(an integer ≤ 4\) in the fourth column, found 'two'/,
    },
    {
      qrels: '1 0 a 1\n1 0 b\n',
      run: '1 Q0 a 1 1 r\n',
      error: /qrels:2:6: error: expected a grade .* found end of line/,
    },
    {
      qrels: '1 0 a 5\n',
      run: '1 Q0 a 1 1 r\n',
      error: /qrels:1:7: error: expected a grade \(an integer ≤ 4\).* found '5'/,
    },
    { qrels: 'T1 0 a 1\n', run: '1 Q0 a 1 1 r\n', error: /qrels:1:1: error: expected a topic number .* found 'T1'/ },
    {
      qrels: '1 1 a 1\n',
      run: '1 Q0 a 1 1 r\n',
      error: /qrels:1:3: error: expected 0 in the second column, found '1'/,
    },
    {
      qrels: '1 0 a 1\n\n',
      run: '1 Q0 a 1 1 r\n',
      error: /qrels:2:1: error: expected a topic number .* found end of line/,
    },
    {
      qrels: '1 0 a 1\n',
      run: '1 Q0 a 1 1\n',
      error: /run:1:11: error: expected a run tag \(not '0'\) in the sixth column, found end of line/,
    },
    {
      qrels: '1 0 a 1\n',
      run: '1 Q1 a 1 1 r\n',
      error: /run:1:3: error: expected Q0 in the second column, found 'Q1'/,
    },
    {
      qrels: '1 0 a 1\n',
      run: '1 Q0 a first 1 r\n',
      error: /run:1:8: error: expected a rank \(digits\) in the fourth column, found 'first'/,
    },
    { qrels: '1 0 a 1\n', run: '1 Q0 a 1 1 r%d\n', error: /run:1:12: error: expected a run tag without '%'/ },
    {
      qrels: '10 0 a 1\n010 0 b 2\n',
      run: '10 Q0 a 1 1 r\n',
      error: /qrels: topic 10 is judged under another spelling/,
    },
  ];
  for (const { qrels, run, error } of cases) {
    writeFileSync(join(dir, 'qrels'), qrels);
    writeFileSync(join(dir, 'run'), run);
    const result = await cliInProcess(dir, 'eval', '--as', 'gdeval', join(dir, 'qrels'), join(dir, 'run'));
    assert.equal(result.status, 1, `${JSON.stringify(qrels)} ${JSON.stringify(run)}: ${result.stderr}`);
    assert.match(result.stderr, error);
    assert.doesNotMatch(result.stderr, /internal error|\n\s+at /);
    assert.equal(result.stdout, '');
  }
  const missing = await cliInProcess(dir, 'eval', '--as', 'gdeval', join(dir, 'none'), join(dir, 'run'));
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /none: cannot read: no such file/);
});
