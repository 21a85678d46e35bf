// `qrels-studio eval` with the instruction-following measures, as a process: FollowTable-style instruction ids
// split at their last `_` (or an instruction map with types and subsets), the baseline run, traps, MultiConIR's
// win and flip rates, MaxP, --compare with seeded paired tests, --json, and positioned errors for bad inputs.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCliProcess, scratchDir } from '../helpers.ts';

function cli(cwd: string, ...args: string[]) {
  const result = runCliProcess(args, { cwd });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function followTable(): string {
  const root = scratchDir();
  // q1 has two instructions; p compliant (2), n violating (1), o off-topic (0).
  writeFileSync(join(root, 'qrels'), 'q1_1 0 p 2\nq1_1 0 n 1\nq1_1 0 o 0\nq1_2 0 p 2\nq1_2 0 n 1\n');
  writeFileSync(join(root, 'base.run'), 'q1 Q0 n 1 3 bm25\nq1 Q0 p 2 2 bm25\nq1 Q0 o 3 1 bm25\n');
  // a: q1_1 ideal [p o n] (IRS 1), q1_2 [p n] (IRS 0.8493); b: q1_1 worst [n o p] (IRS −1), q1_2 as a.
  writeFileSync(
    join(root, 'a.run'),
    'q1_1 Q0 p 1 3 a\nq1_1 Q0 o 2 2 a\nq1_1 Q0 n 3 1 a\nq1_2 Q0 p 1 3 a\nq1_2 Q0 n 2 2 a\n',
  );
  writeFileSync(
    join(root, 'b.run'),
    'q1_1 Q0 n 1 3 b\nq1_1 Q0 o 2 2 b\nq1_1 Q0 p 3 1 b\nq1_2 Q0 p 1 3 b\nq1_2 Q0 n 2 2 b\n',
  );
  writeFileSync(
    join(root, 'map.tsv'),
    'instruction_id\tquery_id\ttype\tsubset\nq1_1\tq1\tC1\tWQT\nq1_2\tq1\tS2\tWQT\n',
  );
  writeFileSync(join(root, 'traps'), 'q1_1 n\n');
  return root;
}

const value = (stdout: string, name: string, key: string): number => {
  const match = new RegExp(`^${name}\\s+\\t${key}\\t(-?\\d+\\.\\d{4})$`, 'm').exec(stdout);
  assert.ok(match, `no line ${name} ${key} in\n${stdout}`);
  return Number(match[1]);
};

test('irs, p_mrr, nfr per instruction, overall, per type and subset; ids split at the last _ by default', () => {
  const root = followTable();
  const result = cli(
    root,
    'eval',
    '-q',
    '-m',
    'irs',
    '-m',
    'p_mrr',
    '-m',
    'nfr',
    '--baseline',
    'base.run',
    '--traps',
    'traps',
    'qrels',
    'a.run',
  );
  assert.equal(result.status, 0, result.stderr);
  assert.equal(value(result.stdout, 'irs', 'q1_1'), 1);
  assert.equal(value(result.stdout, 'irs', 'q1_2'), 0.8493);
  assert.equal(value(result.stdout, 'irs', 'all'), 0.9247);
  assert.equal(value(result.stdout, 'p_mrr', 'q1_1'), 0.6667);
  assert.equal(value(result.stdout, 'nfr', 'all'), 0);
  assert.doesNotMatch(result.stdout, /nfr\s+\tq1_2/, 'no trap: no nfr line for q1_2');
  const mapped = cli(
    root,
    'eval',
    '-m',
    'irs',
    '--baseline',
    'base.run',
    '--instructions',
    'map.tsv',
    'qrels',
    'a.run',
  );
  assert.equal(value(mapped.stdout, 'irs', 'type:C1'), 1);
  assert.equal(value(mapped.stdout, 'irs', 'type:S2'), 0.8493);
  assert.equal(value(mapped.stdout, 'irs', 'subset:WQT'), 0.9247);
});

test('--compare: mean difference and seeded paired tests; --json carries the same', () => {
  const root = followTable();
  const args = ['eval', '-m', 'irs', '--baseline', 'base.run', '--compare', '--seed', '5', 'qrels', 'a.run', 'b.run'];
  const result = cli(root, ...args);
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /# b\.run against a\.run/);
  assert.match(result.stdout, /^irs\s+\tcompare\t-1\.0000\tp_rand=\d\.\d{4}\tp_t=0\.5000\tn=2$/m);
  const json = JSON.parse(cli(root, ...args, '--json').stdout);
  assert.equal(json.runs.length, 2);
  assert.equal(json.runs[0].all.irs.n, 2);
  assert.equal(json.comparisons[0].tests.irs.meanDifference, -1);
  assert.deepEqual(JSON.parse(cli(root, ...args, '--json').stdout), json, 'the same seed, the same numbers');
  assert.deepEqual(json.options.irs, { list: 'union', missing: 'expected', degenerate: 'one' });
});

test('MultiConIR layout: win_rate by k, adjacent_win_rate, flip_rate against the other query style; MaxP', () => {
  const root = scratchDir();
  // Instance m1 at k = 2: pos satisfies 2 conditions, hn1 one, hn0 none. The instruction-style run ties pos and hn1.
  writeFileSync(join(root, 'qrels'), 'm1#2 0 pos 2\nm1#2 0 hn1 1\nm1#2 0 hn0 0\n');
  writeFileSync(
    join(root, 'inst.run'),
    'm1#2 Q0 pos:0 1 0.9 inst\nm1#2 Q0 hn1:0 2 0.9 inst\nm1#2 Q0 hn0:0 3 0.2 inst\nm1#2 Q0 pos:1 4 0.1 inst\n',
  );
  writeFileSync(
    join(root, 'desc.run'),
    'm1#2 Q0 pos:0 1 0.95 desc\nm1#2 Q0 hn1:0 2 0.5 desc\nm1#2 Q0 hn0:0 3 0.6 desc\n',
  );
  const result = cli(
    root,
    'eval',
    '-m',
    'win_rate',
    '-m',
    'adjacent_win_rate',
    '-m',
    'flip_rate',
    '--maxp',
    '--baseline',
    'desc.run',
    'qrels',
    'inst.run',
  );
  assert.equal(result.status, 0, result.stderr);
  assert.equal(value(result.stdout, 'win_rate', 'all'), 0, 'a tie is a loss');
  assert.equal(value(result.stdout, 'win_rate', 'k:2'), 0);
  assert.equal(value(result.stdout, 'adjacent_win_rate', 'all'), 0.5, '(2,1) tie lost, (1,0) won');
  assert.equal(value(result.stdout, 'flip_rate', 'all'), 1, 'both adjacent pairs go the other way in desc');
  const noMaxp = cli(root, 'eval', '-m', 'win_rate', 'qrels', 'inst.run');
  assert.equal(noMaxp.status, 0);
  assert.equal(value(noMaxp.stdout, 'win_rate', 'all'), 0, 'without --maxp the passage ids match no judged document');
});

test('capped_recall with cutoffs, micro and macro lines', () => {
  const root = scratchDir();
  writeFileSync(join(root, 'qrels'), 'q1 0 a 1\nq1 0 b 1\nq1 0 c 1\nq2 0 d 1\n');
  writeFileSync(join(root, 'r.run'), 'q1 Q0 a 1 3 r\nq1 Q0 x 2 2 r\nq1 Q0 b 3 1 r\nq2 Q0 y 1 2 r\nq2 Q0 d 2 1 r\n');
  const result = cli(root, 'eval', '-m', 'capped_recall.2,3', 'qrels', 'r.run');
  assert.equal(result.status, 0, result.stderr);
  // @2: q1 1/2, q2 1/1 → macro 0.75, micro 2/3; @3: q1 2/3, q2 1/1 → 0.8333, micro 3/4.
  assert.equal(value(result.stdout, 'capped_recall_2', 'all'), 0.75);
  assert.equal(value(result.stdout, 'capped_recall_2_micro', 'all'), 0.6667);
  assert.equal(value(result.stdout, 'capped_recall_3', 'all'), 0.8333);
  assert.equal(value(result.stdout, 'capped_recall_3_micro', 'all'), 0.75);
});

test('bad inputs: usage errors and positioned errors', () => {
  const root = followTable();
  const noBaseline = cli(root, 'eval', '-m', 'irs', 'qrels', 'a.run');
  assert.equal(noBaseline.status, 1);
  assert.match(noBaseline.stderr, /irs need --baseline RUN_Q/);
  const mixed = cli(root, 'eval', '-m', 'irs', '-m', 'map', '--baseline', 'base.run', 'qrels', 'a.run');
  assert.equal(mixed.status, 2);
  writeFileSync(join(root, 'bad.tsv'), 'q1_1\tq1\nq1_1\tq1\n');
  const twice = cli(root, 'eval', '-m', 'irs', '--baseline', 'base.run', '--instructions', 'bad.tsv', 'qrels', 'a.run');
  assert.equal(twice.status, 1);
  assert.match(twice.stderr, /bad\.tsv:2:1: error: instruction 'q1_1' is mapped again \(first on line 1\)/);
  writeFileSync(join(root, 'badq'), 'q1_1 0 p two\n');
  const label = cli(root, 'eval', '-m', 'irs', '--baseline', 'base.run', 'badq', 'a.run');
  assert.match(label.stderr, /badq:1:10: error: expected a whole-number label, found 'two'/);
  writeFileSync(join(root, 'other.run'), 'q9 Q0 p 1 1 x\n');
  const missing = cli(root, 'eval', '-m', 'irs', '--baseline', 'other.run', 'qrels', 'a.run');
  assert.match(missing.stderr, /other\.run: no ranking for query 'q1' \(the baseline of 'q1_1'\)/);
  const option = cli(
    root,
    'eval',
    '-m',
    'irs',
    '--irs-missing',
    'somewhere',
    '--baseline',
    'base.run',
    'qrels',
    'a.run',
  );
  assert.equal(option.status, 2);
  assert.match(option.stderr, /--irs-missing expects expected or beyond, found 'somewhere'/);
});
