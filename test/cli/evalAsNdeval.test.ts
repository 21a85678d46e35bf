// `qrels-studio eval --as ndeval`: the command prints ndeval's CSV byte for byte, takes ndeval's options, and
// answers bad input with a positioned error (exit 1) and bad options with its usage (exit 2), never a stack trace.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fixturesDir, scratchDir } from '../helpers.ts';
import { cliInProcess } from './inProcessCli.ts';

const reference = join(fixturesDir, 'reference-measures');

test('eval --as ndeval prints what ndeval prints (runB, options before or after the files)', async () => {
  const plain = await cliInProcess(reference, 'eval', '--as', 'ndeval', 'web.ndeval.qrels', 'runB.run');
  assert.equal(plain.stderr, '');
  assert.equal(plain.status, 0);
  assert.equal(plain.stdout, readFileSync(join(reference, 'runB.ndeval'), 'utf8'));
  const withOptions = await cliInProcess(
    reference,
    'eval',
    '-alpha',
    '0.2',
    '--as',
    'ndeval',
    '-beta',
    '0.8',
    'web.ndeval.qrels',
    'runB.run',
  );
  assert.equal(
    withOptions.stdout,
    readFileSync(join(reference, 'ndeval-extra', 'runB.alpha0.2.beta0.8.ndeval'), 'utf8'),
  );
});

test('eval --as ndeval: a diversity qrels line without its subtopic is a positioned error, exit 1', async () => {
  const dir = scratchDir();
  writeFileSync(join(dir, 'div.qrels'), '1 0 a 1\n1 b 1\n');
  writeFileSync(join(dir, 'run'), '1 Q0 a 1 1 r\n');
  const result = await cliInProcess(dir, 'eval', '--as', 'ndeval', 'div.qrels', 'run');
  assert.equal(result.status, 1);
  assert.equal(result.stdout, '');
  assert.match(result.stderr, /^div\.qrels:2:6: error: expected 4 columns .*the subtopic \(2nd column\) is missing\n$/);
  const missing = await cliInProcess(dir, 'eval', '--as', 'ndeval', 'nothing.qrels', 'run');
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /^nothing\.qrels: cannot read it \(ENOENT\)\n$/);
});

test('eval --as ndeval: bad options print the mode usage, exit 2', async () => {
  for (const args of [['-alpha', '1.5', 'q', 'r'], ['-M', '0', 'q', 'r'], ['-x', 'q', 'r'], ['q']]) {
    const result = await cliInProcess(reference, 'eval', '--as', 'ndeval', ...args);
    assert.equal(result.status, 2, args.join(' '));
    assert.match(result.stderr, /^qrels-studio eval --as ndeval: .*\nusage: qrels-studio eval --as ndeval /);
  }
});

// ndeval's risk-sensitive evaluation: each value relative to a baseline run, losses weighted 1 + riskAlpha.
const riskCases: [string, string[]][] = [
  ['runA.baseline-runB.ndeval', ['-baseline', 'runB.run', 'web.ndeval.qrels', 'runA.run']],
  [
    'runB.c.baseline-runA.riskAlpha1.ndeval',
    ['-c', '-baseline', 'runA.run', '-riskAlpha', '1', 'web.ndeval.qrels', 'runB.run'],
  ],
  [
    'runB.baseline-runA.riskAlpha2.5.ndeval',
    ['-baseline', 'runA.run', '-riskAlpha', '2.5', 'web.ndeval.qrels', 'runB.run'],
  ],
  [
    'edge.c.baseline-ties.ndeval',
    ['-c', '-baseline', 'ndeval-extra/ties.run', 'ndeval-extra/edge.qrels', 'ndeval-extra/edge.run'],
  ],
  [
    'ties.baseline-edge.riskAlpha0.5.ndeval',
    ['-baseline', 'ndeval-extra/edge.run', '-riskAlpha', '0.5', 'ndeval-extra/edge.qrels', 'ndeval-extra/ties.run'],
  ],
];

for (const [expected, args] of riskCases) {
  test(`eval --as ndeval ${args.join(' ')} prints ndeval's ${expected}`, async () => {
    const result = await cliInProcess(reference, 'eval', '--as', 'ndeval', ...args);
    assert.equal(result.stderr, '');
    assert.equal(result.stdout, readFileSync(join(reference, 'ndeval-extra', expected), 'latin1'));
  });
}
