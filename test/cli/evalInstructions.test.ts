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

test("MultiConIR steps in one qrels file: adjacent_win_rate and flip_rate take each instance's last step", () => {
  const root = scratchDir();
  // m1#1, m1#2 (m1's last step) and m2#1 (m2's only, so last) in one file; labels = conditions met.
  writeFileSync(
    join(root, 'qrels'),
    'm1#1 0 pos 1\nm1#1 0 hn0 0\nm1#2 0 pos 2\nm1#2 0 hn1 1\nm1#2 0 hn0 0\nm2#1 0 pos 1\nm2#1 0 hn0 0\n',
  );
  // Instruction style: m1#1 pos > hn0 won; m1#2 hn1 > pos lost, hn1 > hn0 won; m2#1 hn0 > pos lost.
  writeFileSync(
    join(root, 'inst.run'),
    'm1#1 Q0 pos 1 0.9 i\nm1#1 Q0 hn0 2 0.1 i\nm1#2 Q0 hn1 1 0.6 i\nm1#2 Q0 pos 2 0.5 i\nm1#2 Q0 hn0 3 0.1 i\n' +
      'm2#1 Q0 hn0 1 0.3 i\nm2#1 Q0 pos 2 0.2 i\n',
  );
  // Descriptive style of the last steps only: every pair won.
  writeFileSync(
    join(root, 'desc.run'),
    'm1#2 Q0 pos 1 0.7 d\nm1#2 Q0 hn1 2 0.6 d\nm1#2 Q0 hn0 3 0.1 d\nm2#1 Q0 pos 1 0.4 d\nm2#1 Q0 hn0 2 0.3 d\n',
  );
  const args = ['eval', '-q', '-m', 'win_rate', '-m', 'adjacent_win_rate', '-m', 'flip_rate'];
  const result = cli(root, ...args, '--baseline', 'desc.run', 'qrels', 'inst.run');
  assert.equal(result.status, 0, result.stderr);
  // WR_k over every step: (1 + 0 + 0) / 3.
  assert.equal(value(result.stdout, 'win_rate', 'all'), 0.3333);
  // WR_{k,k−1} over m1#2 (1/2) and m2#1 (0): 0.25; flip rate over m1#2 (1/2) and m2#1 (1): 0.75.
  assert.equal(value(result.stdout, 'adjacent_win_rate', 'all'), 0.25);
  assert.equal(value(result.stdout, 'flip_rate', 'all'), 0.75);
  assert.doesNotMatch(result.stdout, /^(adjacent_win_rate|flip_rate)\s+\tm1#1\t/m, 'm1#1 is not a last step');
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
  // Mixed with a trec_eval measure, both are printed (once refused): map = mean of q1_1's AP (1 + 2/3) / 2 and
  // q1_2's 1 = 0.9167, then the run's irs lines.
  const mixed = cli(root, 'eval', '-m', 'irs', '-m', 'map', '--baseline', 'base.run', 'qrels', 'a.run');
  assert.equal(mixed.status, 0, mixed.stderr);
  assert.equal(value(mixed.stdout, 'map', 'all'), 0.9167);
  assert.equal(value(mixed.stdout, 'irs', 'all'), 0.9247);
  writeFileSync(join(root, 'bad.tsv'), 'q1_1\tq1\nq1_1\tq1\n');
  const twice = cli(root, 'eval', '-m', 'irs', '--baseline', 'base.run', '--instructions', 'bad.tsv', 'qrels', 'a.run');
  assert.equal(twice.status, 1);
  assert.match(twice.stderr, /bad\.tsv:2:1: error: instruction 'q1_1' is mapped again \(first on line 1\)/);
  writeFileSync(join(root, 'badq'), 'q1_1 0 p two\n');
  const label = cli(root, 'eval', '-m', 'irs', '--baseline', 'base.run', 'badq', 'a.run');
  assert.match(label.stderr, /badq:1:10: error: expected a whole-number label, found 'two'/);
  writeFileSync(join(root, 'other.run'), 'q9 Q0 p 1 1 x\n');
  const missing = cli(root, 'eval', '-m', 'irs', '--baseline', 'other.run', 'qrels', 'a.run');
  assert.match(
    missing.stderr,
    /qrels:1:1: error: 'q1_1' is judged here but other\.run \(--baseline\) has no ranking for its query 'q1'\n/,
  );
  // The run keyed by query ids instead of instruction ids: an error, not scores of empty rankings.
  const byQuery = cli(root, 'eval', '-m', 'irs', '-m', 'p_mrr', '--baseline', 'base.run', 'qrels', 'base.run');
  assert.equal(byQuery.status, 1);
  assert.match(byQuery.stderr, /qrels:1:1: error: 'q1_1' is judged here but has no results in base\.run\. .*-c/);
  writeFileSync(join(root, 'map-gap.tsv'), 'q1_1\t\tC1\n');
  const gap = cli(
    root,
    'eval',
    '-m',
    'irs',
    '--baseline',
    'base.run',
    '--instructions',
    'map-gap.tsv',
    'qrels',
    'a.run',
  );
  assert.match(gap.stderr, /map-gap\.tsv:1:6: error: expected a query id, found an empty field/);
  writeFileSync(join(root, 'stray-traps'), 'q1_1 n\nq9_1 x\n');
  const stray = cli(root, 'eval', '-m', 'nfr', '--baseline', 'base.run', '--traps', 'stray-traps', 'qrels', 'a.run');
  assert.match(stray.stderr, /stray-traps:2:1: error: instruction 'q9_1' has traps but no judgments in the qrels/);
  const unknown = cli(root, 'eval', '-m', 'irs', '-m', 'foo', '--baseline', 'base.run', 'qrels', 'a.run');
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /unknown measure 'foo'; .* and the instruction-following irs, p_mrr, nfr/);
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

test('-c counts an instruction the run lacks as an empty ranking; -M cuts both rankings', () => {
  const root = followTable();
  // c lacks q1_2: without -c an error (above), with -c an empty ranking — IRS of [] against [n p]: p missing.
  writeFileSync(join(root, 'c.run'), 'q1_1 Q0 p 1 3 c\nq1_1 Q0 o 2 2 c\nq1_1 Q0 n 3 1 c\n');
  const strict = cli(root, 'eval', '-m', 'irs', '--baseline', 'base.run', 'qrels', 'c.run');
  assert.equal(strict.status, 1);
  const complete = cli(root, 'eval', '-c', '-q', '-m', 'irs', '--baseline', 'base.run', 'qrels', 'c.run');
  assert.equal(complete.status, 0, complete.stderr);
  assert.equal(value(complete.stdout, 'irs', 'q1_1'), 1);
  // U = {n, p, o}, all missing from []: each at the mean weight 0.71031, F 0; the baseline F = w(2) − w(1) = −0.36907,
  // the ideal [p o n] 0.5: IRS = 0.36907 / 0.86907 (random beats a baseline that put the violating table first).
  assert.equal(value(complete.stdout, 'irs', 'q1_2'), 0.4247);
  // -M 1: a's q1_1 keeps only p, the baseline only n; the same as evaluating the cut runs.
  writeFileSync(join(root, 'a1.run'), 'q1_1 Q0 p 1 3 a\nq1_2 Q0 p 1 3 a\n');
  writeFileSync(join(root, 'base1.run'), 'q1 Q0 n 1 3 bm25\n');
  const cut = cli(
    root,
    'eval',
    '-q',
    '-M',
    '1',
    '-m',
    'irs',
    '-m',
    'p_mrr',
    '--baseline',
    'base.run',
    'qrels',
    'a.run',
  );
  const short = cli(root, 'eval', '-q', '-m', 'irs', '-m', 'p_mrr', '--baseline', 'base1.run', 'qrels', 'a1.run');
  assert.equal(cut.status, 0, cut.stderr);
  assert.equal(cut.stdout.replaceAll('a.run', 'a1.run'), short.stdout);
  const whole = cli(root, 'eval', '-q', '-m', 'irs', '--baseline', 'base.run', 'qrels', 'a.run');
  assert.notEqual(value(whole.stdout, 'irs', 'q1_2'), value(cut.stdout, 'irs', 'q1_2'), '-M is not ignored');
});

test('p-MRR: a violating document a shallower run left out is ranked after its own list (FollowIR) or after both (shared)', () => {
  const root = scratchDir();
  writeFileSync(join(root, 'qrels'), 'q5_1 0 p 2\nq5_1 0 n 1\n');
  writeFileSync(join(root, 'base.run'), 'q5 Q0 p 1 5 b\nq5 Q0 a 2 4 b\nq5 Q0 b 3 3 b\nq5 Q0 c 4 2 b\nq5 Q0 n 5 1 b\n');
  writeFileSync(join(root, 'r.run'), 'q5_1 Q0 p 1 2 r\nq5_1 Q0 a 2 1 r\n');
  writeFileSync(join(root, 'traps'), 'q5_1 n\n');
  const own = cli(
    root,
    'eval',
    '-m',
    'p_mrr',
    '-m',
    'nfr',
    '--traps',
    'traps',
    '--baseline',
    'base.run',
    'qrels',
    'r.run',
  );
  // own: n from rank 5 to rank 3 (after r's 2 documents): 3/5 − 1 = −0.4, though NFR says it did not move up.
  assert.equal(value(own.stdout, 'p_mrr', 'all'), -0.4);
  assert.equal(value(own.stdout, 'nfr', 'all'), 0);
  // shared: both rank it 6th when they lack it (5 documents in either): n from 5 to 6, 1 − 5/6.
  const shared = cli(
    root,
    'eval',
    '-m',
    'p_mrr',
    '--pmrr-missing',
    'shared',
    '--baseline',
    'base.run',
    'qrels',
    'r.run',
  );
  assert.equal(value(shared.stdout, 'p_mrr', 'all'), 0.1667);
  const bad = cli(root, 'eval', '-m', 'p_mrr', '--pmrr-missing', 'nowhere', '--baseline', 'base.run', 'qrels', 'r.run');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--pmrr-missing expects own or shared, found 'nowhere'/);
});

test('a trap the qrels do not label violating is a warning at its line', () => {
  const root = followTable();
  writeFileSync(join(root, 'odd-traps'), 'q1_1 n\nq1_1 p\nq1_2 z\n');
  const result = cli(root, 'eval', '-m', 'nfr', '--baseline', 'base.run', '--traps', 'odd-traps', 'qrels', 'a.run');
  assert.equal(result.status, 0, result.stderr);
  const warnings = result.stderr.trim().split('\n');
  assert.equal(warnings.length, 2, result.stderr);
  assert.match(
    warnings[0]!,
    /odd-traps:2:1: warning: trap 'p' of 'q1_1' is labelled 2 in the qrels, not 1 \(violating\)/,
  );
  assert.match(warnings[1]!, /odd-traps:3:1: warning: trap 'z' of 'q1_2' is not judged in the qrels/);
});

test('capped_recall cutoffs from several -m are merged', () => {
  const root = scratchDir();
  writeFileSync(join(root, 'qrels'), 'q1 0 a 1\nq1 0 b 1\nq1 0 c 1\n');
  writeFileSync(join(root, 'r.run'), 'q1 Q0 a 1 3 r\nq1 Q0 x 2 2 r\nq1 Q0 b 3 1 r\n');
  const result = cli(root, 'eval', '-m', 'capped_recall.1', '-m', 'capped_recall.3', 'qrels', 'r.run');
  assert.equal(value(result.stdout, 'capped_recall_1', 'all'), 1);
  assert.equal(value(result.stdout, 'capped_recall_3', 'all'), 0.6667);
});

test('trec_eval measures: --maxp scores a passage run by its best passages, --compare tests runs pairwise, instruction-only options are refused', () => {
  const root = scratchDir();
  writeFileSync(join(root, 'qrels'), 'q1 0 d1 1\nq1 0 d3 1\nq2 0 d2 1\n');
  // MaxP: q1 → d2 .9, d1 .8, d3 .5 (d1's best passage); q2 → d2 .4, d9 .3.
  writeFileSync(
    join(root, 'p.run'),
    'q1 Q0 d2:0 1 .9 p\nq1 Q0 d1:0 2 .8 p\nq1 Q0 d2:1 3 .7 p\nq1 Q0 d1:5 4 .6 p\nq1 Q0 d3:2 5 .5 p\n' +
      'q2 Q0 d9:0 1 .3 p\nq2 Q0 d2:4 2 .4 p\n',
  );
  writeFileSync(
    join(root, 'doc.run'),
    'q1 Q0 d2 1 .9 d\nq1 Q0 d1 2 .8 d\nq1 Q0 d3 3 .5 d\nq2 Q0 d2 1 .4 d\nq2 Q0 d9 2 .3 d\n',
  );
  const maxp = cli(root, 'eval', '--maxp', '-q', '-m', 'map', '-m', 'P.2', '-m', 'runid', 'qrels', 'p.run');
  const documents = cli(root, 'eval', '-q', '-m', 'map', '-m', 'P.2', '-m', 'runid', 'qrels', 'doc.run');
  assert.equal(maxp.status, 0, maxp.stderr);
  // AP of q1: (1/2 + 2/3) / 2; the same numbers as the document run written by hand, the passage run's tag.
  assert.equal(value(maxp.stdout, 'map', 'q1'), 0.5833);
  assert.equal(
    maxp.stdout.replace(/runid\s+\tall\tp/, 'runid\tall\td'),
    documents.stdout.replace(/runid\s+\tall\td/, 'runid\tall\td'),
  );
  // Ids longer than a message shows, and bytes that are not UTF-8, go through MaxP byte for byte.
  const long = `d${'x'.repeat(70)}\u00e9`;
  writeFileSync(join(root, 'long.qrels'), `q1 0 ${long} 1\n`);
  writeFileSync(join(root, 'long.run'), `q1 Q0 ${long}:0 1 .5 p\nq1 Q0 ${long}:1 2 .9 p\nq1 Q0 other:0 3 .7 p\n`);
  assert.equal(value(cli(root, 'eval', '--maxp', '-m', 'map', 'long.qrels', 'long.run').stdout, 'map', 'all'), 1);
  writeFileSync(join(root, 'latin1.qrels'), Buffer.from('q1 0 d\xe9 1\n', 'latin1'));
  writeFileSync(join(root, 'latin1.run'), Buffer.from('q1 Q0 x:0 1 .9 p\nq1 Q0 d\xe9:3 2 .5 p\n', 'latin1'));
  assert.equal(value(cli(root, 'eval', '--maxp', '-m', 'map', 'latin1.qrels', 'latin1.run').stdout, 'map', 'all'), 0.5);
  const bare = cli(root, 'eval', '--maxp', '-m', 'map', 'qrels', 'doc.run');
  assert.equal(bare.status, 1);
  assert.match(bare.stderr, /doc\.run:1:7: error: expected a passage id '<docid>:<n>' \(--maxp\), found 'd2'/);

  const compared = cli(root, 'eval', '--compare', '--seed', '3', '-m', 'map', '-m', 'P.2', 'qrels', 'doc.run', 'p.run');
  assert.equal(compared.status, 0, compared.stderr);
  assert.match(compared.stdout, /^map\s+\tcompare\t-0\.7917\t/m, 'without --maxp no passage id is judged: map 0');
  const json = cli(
    root,
    'eval',
    '--maxp',
    '--compare',
    '--seed',
    '3',
    '--json',
    '-m',
    'map',
    'qrels',
    'p.run',
    'p.run',
  );
  assert.equal(json.status, 0, json.stderr);
  const parsed = JSON.parse(json.stdout);
  assert.equal(parsed.runs.length, 2);
  assert.deepEqual(parsed.comparisons[0].tests.map, { n: 2, meanDifference: 0, randomisationP: 1, t: null, tTestP: 1 });
  writeFileSync(join(root, 'worse.run'), 'q1 Q0 d9 1 .9 w\nq1 Q0 d1 2 .8 w\nq2 Q0 d9 1 .4 w\nq2 Q0 d2 2 .3 w\n');
  const text = cli(root, 'eval', '--compare', '-m', 'map', 'qrels', 'doc.run', 'worse.run');
  assert.equal(text.status, 0, text.stderr);
  // map: doc.run (0.5833 + 1) / 2, worse.run (0.25 + 0.5) / 2: −0.4167 on average over 2 queries.
  assert.match(text.stdout, /^# worse\.run against doc\.run: /m);
  assert.match(text.stdout, /^map\s+\tcompare\t-0\.4167\tp_rand=\d\.\d{4}\tp_t=\d\.\d{4}\tn=2$/m);
  // The counts are sums, not scores: no test of num_rel (the same for every run) or num_ret.
  const counted = cli(
    root,
    'eval',
    '--compare',
    '-m',
    'map',
    '-m',
    'num_rel',
    '-m',
    'num_ret',
    'qrels',
    'doc.run',
    'worse.run',
  );
  assert.equal(counted.status, 0, counted.stderr);
  assert.match(counted.stdout, /^map\s+\tcompare\t/m);
  assert.doesNotMatch(counted.stdout, /^num_re[lt]\s+\tcompare/m);
  assert.match(counted.stdout, /^num_rel\s+\tall\t3$/m, 'the counts are still reported per run');
  const refused = cli(
    root,
    'eval',
    '-m',
    'map',
    '--baseline',
    'doc.run',
    '--irs-list',
    'retrieved',
    'qrels',
    'doc.run',
  );
  assert.equal(refused.status, 2);
  assert.match(refused.stderr, /--baseline, --irs-list: only the instruction-following measures .* read them/);
});
