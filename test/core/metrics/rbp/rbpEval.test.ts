// `eval --as rbp_eval` against rbp_eval 0.2's own outputs (test/fixtures/reference-measures/: runX.rbp_eval, and
// rbp-extra/ for the options and edge cases, each made by the command in rbp-extra/commands.txt), byte for byte.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { UsageError } from '../../../../cli/cliContext.ts';
import { evalAsRbp } from '../../../../cli/commands/evalAsRbp.ts';
import { FormatError } from '../../../../core/formats/formatError.ts';
import { FileReadError } from '../../../../core/formats/lineReader.ts';
import { type Relevance, rankBiasedPrecision, rbpAtDepths } from '../../../../core/metrics/rbp/rankBiasedPrecision.ts';
import { formatFixed } from '../../../../core/metrics/rbp/rbpEvalOutput.ts';
import { rbpTopicValues } from '../../../../core/metrics/rbp/rbpTopicValues.ts';
import { fixturesDir, scratchDir } from '../../../helpers.ts';

const reference = join(fixturesDir, 'reference-measures');

async function runRbpEval(args: string[], cwd = reference): Promise<{ stdout: string; stderr: string; code: number }> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await evalAsRbp(
    args.map((arg) => (/\.(qrels|run)$/.test(arg) ? join(cwd, arg) : arg)),
    {
      productVersion: 'test',
      nativeDir: '',
      cwd,
      stdout: (text) => stdout.push(typeof text === 'string' ? text : Buffer.from(text).toString('latin1')),
      stderr: (text) => stderr.push(text),
    },
  );
  return { stdout: stdout.join(''), stderr: stderr.join(''), code };
}

/** Line by line; a difference names the topic, the persistence, the depth and both values. */
function assertSameRbpText(actual: string, expected: string, what: string): void {
  const actualLines = actual.split('\n');
  const expectedLines = expected.split('\n');
  const layout = /^p= (\S+) q=\s*(\S+) d=\s*(\S+) rbp= (\S+) \+(\S+)$/;
  for (let i = 0; i < Math.max(actualLines.length, expectedLines.length); i++) {
    const a = actualLines[i];
    const e = expectedLines[i];
    if (a === e) continue;
    const fields = layout.exec(e ?? '');
    const ours = layout.exec(a ?? '');
    assert.fail(
      fields && ours
        ? `${what}, line ${i + 1}: topic ${fields[2]}, p=${fields[1]}, depth ${fields[3]}: rbp_eval ${fields[4]} +${fields[5]}, ours ${ours[4]} +${ours[5]}`
        : `${what}, line ${i + 1}: rbp_eval '${e ?? '(no line)'}', ours '${a ?? '(no line)'}'`,
    );
  }
}

for (const run of ['runA', 'runB']) {
  test(`rbp_eval -q -H -p 0.5,0.8,0.95 web.nonneg.qrels ${run}.run, byte for byte`, async () => {
    const result = await runRbpEval(['-q', '-H', '-p', '0.5,0.8,0.95', 'web.nonneg.qrels', `${run}.run`]);
    assert.equal(result.code, 0);
    assertSameRbpText(result.stdout, readFileSync(join(reference, `${run}.rbp_eval`), 'latin1'), `${run}.rbp_eval`);
  });
}

const extraCases = readFileSync(join(reference, 'rbp-extra', 'commands.txt'), 'utf8')
  .split('\n')
  .filter((line) => line.includes('|'))
  .map((line) => {
    const [name, args] = line.split('|') as [string, string];
    return { name, args: args.split(' ') };
  });

for (const { name, args } of extraCases) {
  test(`rbp_eval ${args.join(' ')} (rbp-extra/${name}), stdout and warnings`, async () => {
    const result = await runRbpEval(args);
    assert.equal(result.code, 0);
    const expected = readFileSync(join(reference, 'rbp-extra', `${name}.out`), 'latin1');
    assertSameRbpText(result.stdout, expected, `rbp-extra/${name}.out`);
    let expectedWarnings = '';
    try {
      expectedWarnings = readFileSync(join(reference, 'rbp-extra', `${name}.stderr`), 'utf8');
    } catch {
      // no .stderr file: rbp_eval warned about nothing
    }
    assert.equal(result.stderr, expectedWarnings);
  });
}

test('the weights: (1 − p)·p^i summed over the relevant, the unjudged and the tail as the residual', () => {
  // relevant, not relevant, unjudged at p = 0.5: 0.5 + 0 (0.25) + residual 0.125 (unjudged) + 0.125 (tail).
  assert.deepEqual(rankBiasedPrecision([[1], [0], [undefined]], 0.5), { value: 0.5, residual: 0.25 });
  // A tie of three over positions 1–3 shares (0.5 + 0.25 + 0.125) / 3 each.
  const tie = rankBiasedPrecision([[1, 0, 0]], 0.5);
  assert.equal(tie.value, 0.875 / 3);
  assert.equal(tie.residual, 0.125);
  // A depth of 2 cutting that tie takes 2/3 of each document's share; the residual is p^2.
  const [cut] = rbpAtDepths([[1, 0, 0]], [0.5], [2]);
  assert.equal(cut!.byPersistence[0]!.value, (0.875 / 3) * (2 / 3));
  assert.equal(cut!.byPersistence[0]!.residual, 0.25);
  assert.equal(cut!.relevantRetrieved, 2 / 3);
});

test('a depth after one already past the ranking keeps its values (rbp_eval stops at an assertion there)', () => {
  const [ten, twenty] = rbpAtDepths([[1], [undefined], [0]], [0.8], [10, 20]);
  assert.deepEqual(twenty!.byPersistence, ten!.byPersistence);
  assert.equal(twenty!.depth, 20);
});

test("C's %.Nf: ties to even, NaN as -nan", () => {
  assert.equal(formatFixed(0.125, 2), '0.12');
  assert.equal(formatFixed(0.375, 2), '0.38');
  assert.equal(formatFixed(0.15625, 4), '0.1562');
  assert.equal(formatFixed(0.95, 2), '0.95');
  assert.equal(formatFixed(1, 4), '1.0000');
  assert.equal(formatFixed(Number.NaN, 4), '-nan');
  assert.equal(formatFixed(2 / 3, 4), '0.6667');
});

test('without -H: a header of # lines naming the command and the run', async () => {
  const result = await runRbpEval(['-p', '0.8', 'web.nonneg.qrels', 'runB.run']);
  const lines = result.stdout.split('\n');
  assert.deepEqual(lines.slice(0, 2), ['# rbp_eval output', '#']);
  assert.match(lines[2]!, /^# \w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4}$/);
  assert.match(lines[3]!, /^# command: qrels-studio eval --as rbp_eval -p 0\.8 /);
  assert.ok(lines.some((line) => /^# .*runB\.run modification time: /.test(line)));
  assert.match(lines.at(-2)!, /^p= 0\.80 q= {2}all d= full rbp= \d\.\d{4} \+\d\.\d{4}$/);
});

async function errorOf(args: string[], files: Record<string, string>): Promise<unknown> {
  const dir = scratchDir();
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  try {
    await runRbpEval(args, dir);
  } catch (error) {
    return error;
  }
  assert.fail(`no error for ${args.join(' ')}`);
}

const goodQrels = '1 0 d1 1\n1 0 d2 0\n';
const goodRun = '1 Q0 d1 1 2.5 r\n1 Q0 d2 2 1.5 r\n';

test('bad input: positioned errors (file:line:col, expected, found)', async () => {
  const cases: [Record<string, string>, RegExp][] = [
    [
      { 'a.qrels': '1 0 d1 1\n1 0 d2 -2\n', 'a.run': goodRun },
      /a\.qrels:2:8: error: expected a relevance grade ≥ 0 .*found '-2'/,
    ],
    [{ 'a.qrels': '1 0 d1 1\n1 0 d2 high\n', 'a.run': goodRun }, /a\.qrels:2:8: error: expected a relevance grade/],
    [
      { 'a.qrels': '1 0 d1\n', 'a.run': goodRun },
      /a\.qrels:1:7: error: expected 4 fields 'qid iter docid rel', found 3/,
    ],
    [
      { 'a.qrels': '1 0 d1 1\n1 0 D1 0\n', 'a.run': goodRun },
      /a\.qrels:2:5: error: .*found 'D1' of topic '1' again \(first on line 1/,
    ],
    [{ 'a.qrels': goodQrels, 'a.run': '1 Q0 d1 1 2.5 r extra\n' }, /a\.run:1:17: error: expected 6 fields .*found 7/],
    [{ 'a.qrels': goodQrels, 'a.run': '1 Q0 d1 1 2.5 r\n\n' }, /a\.run:2:1: error: expected 6 fields .*found 0/],
    [{ 'a.qrels': goodQrels, 'a.run': '1 Q0 d1 1 high r\n' }, /a\.run:1:11: error: expected a score .*found 'high'/],
    [
      { 'a.qrels': goodQrels, 'a.run': '1 Q0 d1 -1 2 r\n' },
      /a\.run:1:9: error: expected a rank \(an integer ≥ 0\), found '-1'/,
    ],
  ];
  for (const [files, message] of cases) {
    const error = await errorOf(['-H', 'a.qrels', 'a.run'], files);
    assert.ok(error instanceof FormatError, String(error));
    assert.match(error.message, message);
  }
  assert.ok((await errorOf(['-H', 'none.qrels', 'a.run'], { 'a.run': goodRun })) instanceof FileReadError);
});

test('bad options: usage errors that say what was expected', async () => {
  const files = { 'a.qrels': goodQrels, 'a.run': goodRun };
  const cases: [string[], RegExp][] = [
    [['-p', '0.5,1.5'], /-p: element 2 of '0\.5,1\.5': 1\.5 is not in \[0, 1\]/],
    [['-p', 'x'], /-p: element 1 of 'x': expected a persistence/],
    [['-d', '10,5'], /-d: depths in '10,5' not in strictly ascending order/],
    [['-d', '-3'], /-d: element 1 of '-3': expected a depth/],
    [['-b', '-1'], /-b: expected a number ≥ 0, found '-1'/],
    [['-b', '1', '-F'], /relevance type .* already given/],
    [['-p', '0.5', '-p', '0.8'], /persistence spec already given/],
    [['-x'], /unknown option '-x'/],
  ];
  for (const [options, message] of cases) {
    const error = await errorOf([...options, 'a.qrels', 'a.run'], files);
    assert.ok(error instanceof UsageError, String(error));
    assert.match(error.message, message);
  }
  const missing = await errorOf(['-H', 'a.qrels'], files);
  assert.ok(missing instanceof UsageError && /expected a qrels file and a run file/.test(missing.message));
});

test('bundled and attached option values mean the same as separate ones', async () => {
  const separate = await runRbpEval(['-q', '-H', '-p', '0.8', '-d', '5,0', 'web.nonneg.qrels', 'runB.run']);
  const bundled = await runRbpEval(['-qHp0.8', '-d5,0', 'web.nonneg.qrels', 'runB.run']);
  const filesFirst = await runRbpEval(['web.nonneg.qrels', 'runB.run', '-qH', '-p0.8', '-d', '5,0']);
  assert.equal(bundled.stdout, separate.stdout);
  assert.equal(filesFirst.stdout, separate.stdout);
});

test('rbpTopicValues (for rbp@P in the normal output): the numbers --as rbp_eval -q prints, unrounded', async () => {
  const qrels = join(reference, 'web.nonneg.qrels');
  const run = join(reference, 'runB.run');
  const values = await rbpTopicValues(qrels, run, [0.5, 0.8, 0.95]);
  const printed = readFileSync(join(reference, 'runB.rbp_eval'), 'latin1').trimEnd().split('\n');
  const ours = [
    ...values.topics.flatMap(({ topic, values: byP }) => byP.map((v, k) => ({ topic, p: [0.5, 0.8, 0.95][k]!, v }))),
    ...values.mean.map((v, k) => ({ topic: 'all', p: [0.5, 0.8, 0.95][k]!, v })),
  ].map(
    ({ topic, p, v }) =>
      `p= ${formatFixed(p, 2)} q= ${topic.padStart(4)} d= full rbp= ${formatFixed(v.value, 4)} +${formatFixed(v.residual, 4)}`,
  );
  assert.deepEqual(ours, printed);
  // complete: the judged topics runB lacks count as empty rankings (RBP 0, residual 1) in the mean.
  const complete = await rbpTopicValues(qrels, run, [0.8], { complete: true });
  const judged = new Set(
    readFileSync(qrels, 'latin1')
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(' ')[0]),
  );
  assert.equal(complete.topics.length, judged.size);
  const missing = complete.topics.filter((t) => !values.topics.some((v) => v.topic === t.topic));
  assert.ok(missing.length > 0);
  for (const topic of missing) assert.deepEqual(topic.values, [{ value: 0, residual: 1 }]);
  const sum = complete.topics.reduce((total, t) => total + t.values[0]!.value, 0);
  assert.equal(complete.mean[0]!.value, sum / judged.size);
});

test('gzip files are read gunzipped', async () => {
  const dir = scratchDir();
  writeFileSync(join(dir, 'a.qrels.gz'), gzipSync(readFileSync(join(reference, 'web.nonneg.qrels'))));
  const plain = await rbpTopicValues(join(reference, 'web.nonneg.qrels'), join(reference, 'runA.run'), [0.8]);
  const gzipped = await rbpTopicValues(join(dir, 'a.qrels.gz'), join(reference, 'runA.run'), [0.8]);
  assert.deepEqual(gzipped, plain);
});

test('CRLF line ends and blanks after the last field are read as rbp_eval reads a single trailing blank', async () => {
  const dir = scratchDir();
  writeFileSync(join(dir, 'crlf.qrels'), '1 0 d1 1\r\n1 0 d2 0  \r\n');
  writeFileSync(join(dir, 'crlf.run'), '1 Q0 d1 1 2.5 r\t\r\n1 Q0 d2 2 1.5 r\r\n');
  writeFileSync(join(dir, 'plain.qrels'), goodQrels);
  writeFileSync(join(dir, 'plain.run'), goodRun);
  const crlf = await runRbpEval(['-q', '-H', 'crlf.qrels', 'crlf.run'], dir);
  const plain = await runRbpEval(['-q', '-H', 'plain.qrels', 'plain.run'], dir);
  assert.equal(crlf.stdout, plain.stdout);
  assert.match(plain.stdout, /^p= 0\.50 q= {4}1 d= full rbp= 0\.5000 \+0\.2500\n/);
});

test('rbpTopicValues reads TREC junk (−2) as 0, as web.nonneg.qrels maps it; --as rbp_eval refuses it', async () => {
  const run = join(reference, 'runA.run');
  const withJunk = await rbpTopicValues(join(reference, 'web.qrels'), run, [0.5, 0.95]);
  const mapped = await rbpTopicValues(join(reference, 'web.nonneg.qrels'), run, [0.5, 0.95]);
  assert.deepEqual(withJunk, mapped);
  await assert.rejects(runRbpEval(['-H', 'web.qrels', 'runA.run']), FormatError);
});

/** Every order of each tie: the cartesian product of the groups' permutations, as flat rankings. */
function tieBreakings(groups: readonly (readonly Relevance[])[]): Relevance[][] {
  const permutations = (items: readonly Relevance[]): Relevance[][] =>
    items.length <= 1
      ? [[...items]]
      : items.flatMap((item, i) =>
          permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
        );
  return groups.reduce<Relevance[][]>(
    (rankings, group) => rankings.flatMap((ranking) => permutations(group).map((order) => [...ranking, ...order])),
    [[]],
  );
}

test('property: a tie no depth cuts gives the mean RBP and residual over the orders it could be broken in', () => {
  let seed = 23;
  const random = (): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const relevances: Relevance[] = [0, 1, undefined, 0.5];
  for (let trial = 0; trial < 300; trial++) {
    const groups: Relevance[][] = [];
    const groupCount = 1 + Math.floor(random() * 4);
    for (let g = 0; g < groupCount; g++) {
      const size = 1 + Math.floor(random() * 3);
      groups.push(Array.from({ length: size }, () => relevances[Math.floor(random() * relevances.length)]));
    }
    const length = groups.reduce((total, group) => total + group.length, 0);
    // Depths at the ends of ties, or past the ranking: a depth that cuts a tie is rbp_eval's own (tested above).
    const ends = groups.map((_, g) => groups.slice(0, g + 1).reduce((total, group) => total + group.length, 0));
    const depths = [...ends.filter(() => random() < 0.5), length + 2];
    const persistences = [0.3, 0.8];
    const results = rbpAtDepths(groups, persistences, depths);
    const breakings = tieBreakings(groups);
    for (const [d, depth] of depths.entries()) {
      for (const [k, p] of persistences.entries()) {
        let value = 0;
        let unjudged = 0;
        for (const ranking of breakings) {
          for (let i = 0; i < Math.min(depth, ranking.length); i++) {
            const weight = (1 - p) * p ** i;
            if (ranking[i] === undefined) unjudged += weight;
            else value += weight * ranking[i]!;
          }
        }
        const expected = {
          value: value / breakings.length,
          residual: unjudged / breakings.length + p ** Math.min(depth, length),
        };
        const ours = results[d]!.byPersistence[k]!;
        const what = `groups ${JSON.stringify(groups)} depth ${depth} p ${p}`;
        assert.ok(
          Math.abs(ours.value - expected.value) < 1e-12,
          `${what}: value ${ours.value}, expected ${expected.value}`,
        );
        assert.ok(
          Math.abs(ours.residual - expected.residual) < 1e-12,
          `${what}: residual ${ours.residual}, expected ${expected.residual}`,
        );
      }
    }
  }
});
