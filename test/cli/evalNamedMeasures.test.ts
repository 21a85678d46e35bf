// eval's measures beyond trec_eval's, by name next to trec_eval's (-m map -m err@20 -m rbp@0.8): the values equal what
// gdeval.pl and rbp_eval printed on the TREC Web 2010 reference data (to the digits they print), the text output and
// --json carry the same numbers, rbp@P brings its residual, and a bad name is a usage error that says why.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { printfFixed } from '../../core/metrics/gdeval/perlValues.ts';
import { printfFixed6 } from '../../core/metrics/ndeval/ndeval.ts';
import { formatFixed4 } from '../../core/metrics/trecEvalOutput.ts';
import { fixturesDir } from '../helpers.ts';
import { cliInProcess } from './inProcessCli.ts';

const reference = join(fixturesDir, 'reference-measures');
const file = (name: string) => join(reference, name);

interface JsonRun {
  runid: string;
  all: Record<string, number>;
  queries: Record<string, Record<string, number>>;
}

async function evalJson(...args: string[]): Promise<JsonRun> {
  const result = await cliInProcess(reference, 'eval', '--json', '-q', ...args);
  assert.equal(result.status, 0, result.stderr);
  return (JSON.parse(result.stdout) as { runs: JsonRun[] }).runs[0]!;
}

/** gdeval.pl's CSV: topic → [ndcg, err] (the amean row under 'amean'). */
function gdevalRows(file: string): Map<string, [number, number]> {
  const rows = readFileSync(join(reference, file), 'utf8').trim().split('\n').slice(1);
  return new Map(
    rows.map((row) => row.split(',')).map(([, topic, ndcg, err]) => [topic!, [Number(ndcg), Number(err)]]),
  );
}

test('err@K and ndcg_gd@K alone equal gdeval.pl -k K on every topic it evaluates and its amean (5 decimals)', async () => {
  for (const run of ['runA', 'runB']) {
    for (const depth of [10, 20]) {
      const values = await evalJson(
        '-m',
        `err@${depth}`,
        '-m',
        `ndcg_gd@${depth}`,
        file('web.qrels'),
        file(`${run}.run`),
      );
      const expected = gdevalRows(`${run}.gdeval.k${depth}`);
      const topics = Object.keys(values.queries).filter((q) => values.queries[q]![`err@${depth}`] !== undefined);
      assert.deepEqual(topics.sort(), [...expected.keys()].filter((t) => t !== 'amean').sort(), `${run} k${depth}`);
      for (const [topic, [ndcg, err]] of expected) {
        const ours = topic === 'amean' ? values.all : values.queries[topic]!;
        const where = `${run} -k ${depth} topic ${topic}`;
        assert.equal(printfFixed(ours[`ndcg_gd@${depth}`]!, 5), printfFixed(ndcg, 5), `ndcg_gd@${depth} ${where}`);
        assert.equal(printfFixed(ours[`err@${depth}`]!, 5), printfFixed(err, 5), `err@${depth} ${where}`);
      }
    }
  }
});

test('rbp@P with rbp_residual@P equal rbp_eval -q -p P on every topic and the mean (4 decimals)', async () => {
  for (const run of ['runA', 'runB']) {
    const values = await evalJson(
      '-m',
      'rbp@0.5',
      '-m',
      'rbp@0.8',
      '-m',
      'rbp@.95',
      file('web.nonneg.qrels'),
      file(`${run}.run`),
    );
    const lines = readFileSync(join(reference, `${run}.rbp_eval`), 'utf8')
      .trim()
      .split('\n');
    assert.ok(lines.length > 3);
    for (const line of lines) {
      const match = /^p= (\S+) q= +(\S+) d= full rbp= (\S+) \+(\S+)$/.exec(line);
      assert.ok(match, line);
      const [, p, topic, rbp, residual] = match;
      const ours = topic === 'all' ? values.all : values.queries[topic!]!;
      const persistence = Number(p);
      assert.equal(formatFixed4(ours[`rbp@${persistence}`]!), rbp, `rbp@${persistence} ${run} topic ${topic}`);
      assert.equal(formatFixed4(ours[`rbp_residual@${persistence}`]!), residual, `residual ${run} topic ${topic}`);
    }
  }
});

test("ndeval's measures by name with --diversity-qrels equal ndeval on every topic and its amean (6 decimals)", async () => {
  const names = [5, 10, 20].flatMap((k) =>
    ['err_ia', 'nerr_ia', 'alpha_dcg', 'alpha_ndcg', 'p_ia', 'strec'].map((f) => `${f}@${k}`),
  );
  names.push('nrbp', 'nnrbp', 'map_ia');
  for (const run of ['runA', 'runB']) {
    const values = await evalJson(
      ...names.flatMap((name) => ['-m', name]),
      '--diversity-qrels',
      file('web.ndeval.qrels'),
      file('web.qrels'),
      file(`${run}.run`),
    );
    const [header, ...rows] = readFileSync(file(`${run}.ndeval`), 'utf8')
      .trim()
      .split('\n');
    const columns = header!.split(',').slice(2);
    const ourName = (column: string) =>
      [
        ['alpha-nDCG', 'alpha_ndcg'],
        ['alpha-DCG', 'alpha_dcg'],
        ['nERR-IA', 'nerr_ia'],
        ['ERR-IA', 'err_ia'],
        ['MAP-IA', 'map_ia'],
        ['P-IA', 'p_ia'],
        ['nNRBP', 'nnrbp'],
        ['NRBP', 'nrbp'],
      ].reduce(
        (name, [theirs, ours]) => (name.startsWith(theirs!) ? ours! + name.slice(theirs!.length) : name),
        column,
      );
    assert.deepEqual(columns.map(ourName).sort(), [...names].sort());
    for (const row of rows) {
      const [, topic, ...printed] = row.split(',');
      const ours = topic === 'amean' ? values.all : values.queries[topic!]!;
      columns.forEach((column, i) => {
        assert.equal(printfFixed6(ours[ourName(column)]!), printed[i], `${ourName(column)} ${run} topic ${topic}`);
      });
    }
  }
  const missing = await cliInProcess(reference, 'eval', '-m', 'alpha_ndcg@20', file('web.qrels'), file('runA.run'));
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /alpha_ndcg@20: diversity measures need diversity qrels .*give --diversity-qrels FILE/);
});

test('the text output prints the same values as --json, named as asked, after the trec_eval lines', async () => {
  // runB lacks topic 261: -c for map, and each tool's -c for the others.
  const args = ['-c', '-m', 'map', '-m', 'err@20', '-m', 'rbp@0.8', file('web.nonneg.qrels'), file('runB.run')];
  const text = await cliInProcess(reference, 'eval', '-q', ...args);
  assert.equal(text.status, 0, text.stderr);
  const values = await evalJson(...args);
  const printed = text.stdout.trim().split('\n');
  const expected: string[] = [];
  const line = (name: string, qid: string, value: number) => `${name.padEnd(22)}\t${qid}\t${formatFixed4(value)}`;
  for (const [qid, record] of Object.entries(values.queries)) {
    for (const [name, value] of Object.entries(record)) expected.push(line(name, qid, value));
  }
  for (const [name, value] of Object.entries(values.all)) expected.push(line(name, 'all', value));
  assert.deepEqual(printed, expected);
  assert.deepEqual(Object.keys(values.all), ['map', 'err@20', 'rbp@0.8', 'rbp_residual@0.8']);
});

test('bad names and missing inputs are usage errors that say what is expected', async () => {
  const cases: [string[], RegExp][] = [
    [['-m', 'err@x'], /measure 'err@x': expected a depth \(an integer ≥ 1\) after @, found 'x'/],
    [['-m', 'err'], /unknown measure 'err'/],
    [['-m', 'rbp@1.5'], /expected a persistence between 0 and 1/],
    [['-m', 'alpha_ndcg@7'], /ndeval computes alpha_ndcg at depths 5, 10, 20 only, found 7/],
    [['-m', 'nrbp@5'], /measure 'nrbp' takes no parameter/],
    [['-m', 'foo@3'], /unknown measure 'foo' in 'foo@3'/],
  ];
  for (const [args, message] of cases) {
    const result = await cliInProcess(reference, 'eval', ...args, file('web.qrels'), file('runA.run'));
    assert.equal(result.status, 2, `${args.join(' ')}: ${result.stderr}`);
    assert.match(result.stderr, message);
    assert.doesNotMatch(result.stderr, /\n\s+at /);
  }
});
