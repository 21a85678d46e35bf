// `qrels-studio eval` as a real process: trec_eval's option forms, output, exit codes and messages.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { cliLauncher, fixturesDir, runCliProcess, scratchDir } from '../helpers.ts';
import { storeKinds } from '../storeKinds.ts';
import { cliStore } from './cliStore.ts';

const suite = join(fixturesDir, 'trec_eval');
const qrels = join(suite, 'qrels.test');
const results = join(suite, 'results.test');

test('default output equals trec_eval official, every line (out.test)', () => {
  const result = runCliProcess(['eval', qrels, results]);
  assert.equal(result.status, 0, result.stderr);
  const expected = readFileSync(join(suite, 'out.test'), 'utf8').split('\n').slice(0, -1);
  assert.deepEqual(result.stdout.split('\n').slice(0, -1), expected);
  assert.equal(result.stderr, '');
});

test('attached and separate option values, and bundled flags, mean the same', () => {
  const attached = runCliProcess(['eval', '-q', '-c', '-l2', '-M100', '-mP.5,10', '-mndcg_cut.10', qrels, results]);
  const separate = runCliProcess([
    'eval',
    '-qc',
    '-l',
    '2',
    '-M',
    '100',
    '-m',
    'P.5,10',
    '-m',
    'ndcg_cut.10',
    qrels,
    results,
  ]);
  assert.equal(attached.status, 0, attached.stderr);
  assert.equal(separate.stdout, attached.stdout);
  assert.match(attached.stdout, /^P_5 {19}\t301\t/m);
  assert.match(attached.stdout, /^ndcg_cut_10 {11}\tall\t0\.\d{4}$/m);
  assert.doesNotMatch(attached.stdout, /^P_15 /m);
});

test('--json carries the same numbers at full precision, per query with -q', () => {
  const result = runCliProcess(['eval', '--json', '-q', '-m', 'map', '-m', 'num_q', qrels, results, results]);
  assert.equal(result.status, 0, result.stderr);
  const json = JSON.parse(result.stdout);
  assert.equal(json.runs.length, 2);
  const [run] = json.runs;
  assert.equal(run.runid, 'STANDARD');
  assert.equal(run.all.num_q, 3);
  assert.equal(run.all.map.toFixed(4), '0.1785');
  assert.deepEqual(Object.keys(run.queries), ['301', '302', '303']);
  assert.equal(run.queries['301'].map.toFixed(4), '0.0324');
});

/** results.test with every run tag replaced (a second run, told apart from the first only by its tag). */
function retaggedResults(tag: string): string {
  const file = join(scratchDir(), `${tag}.run`);
  writeFileSync(file, readFileSync(results, 'utf8').replace(/\S+$/gm, tag));
  return file;
}

test("several runs print one block each, each opening with trec_eval's runid line", () => {
  const other = retaggedResults('OTHER');
  const result = runCliProcess(['eval', '-m', 'map', qrels, results, other]);
  assert.equal(result.status, 0, result.stderr);
  assert.equal(
    result.stdout,
    'runid                 \tall\tSTANDARD\nmap                   \tall\t0.1785\n' +
      'runid                 \tall\tOTHER\nmap                   \tall\t0.1785\n',
  );
  assert.equal(result.stderr, '');
  // With -q the runid line comes before the run's query lines, and is not printed again with the summary.
  const perQuery = runCliProcess(['eval', '-q', qrels, results, other]);
  const blocks = perQuery.stdout.split(/^(?=runid )/m);
  assert.deepEqual(
    blocks.map((block) => block.split('\n')[0]),
    ['runid                 \tall\tSTANDARD', 'runid                 \tall\tOTHER'],
  );
  for (const block of blocks) {
    assert.equal(block.match(/^runid /gm)!.length, 1);
    assert.match(block, /^map {19}\t301\t/m);
    assert.match(block, /^num_q {17}\tall\t3$/m);
  }
  // One run prints exactly what trec_eval prints (the runid line only where -m asks for it).
  assert.equal(runCliProcess(['eval', '-m', 'map', qrels, results]).stdout, 'map                   \tall\t0.1785\n');
});

test('runs that share a runid are told apart on stderr: their blocks are in the order of the files', () => {
  const result = runCliProcess(['eval', '-m', 'map', qrels, results, results]);
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stdout.match(/^runid {17}\tall\tSTANDARD$/gm)!.length, 2);
  assert.equal(
    result.stderr,
    `note: ${results} and ${results} share the runid 'STANDARD'; their blocks are in the order of the files\n`,
  );
});

test("-c with -l 2 prints trec_eval's num_rel lines: the query's follows -l, the summary counts labels > 0", () => {
  const dir = scratchDir();
  writeFileSync(join(dir, 'qrels'), 'q1 0 d1 1\nq1 0 d2 0\n');
  writeFileSync(join(dir, 'run'), 'q1 Q0 d1 1 1 r\n');
  const result = runCliProcess(['eval', '-q', '-c', '-l', '2', '-m', 'num_rel', join(dir, 'qrels'), join(dir, 'run')]);
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stdout, 'num_rel               \tq1\t0\nnum_rel               \tall\t1\n');
});

test("--json keeps a byte order mark that starts a file in the first id: '\\ufeffq1' and 'q1' stay two", () => {
  const dir = scratchDir();
  writeFileSync(join(dir, 'qrels'), '\ufeffq1 0 d1 1\nq1 0 d2 1\n');
  writeFileSync(join(dir, 'run'), '\ufeffq1 Q0 d1 1 1 r\nq1 Q0 d1 1 1 r\n');
  const result = runCliProcess(['eval', '--json', '-q', '-m', 'map', join(dir, 'qrels'), join(dir, 'run')]);
  assert.equal(result.status, 0, result.stderr);
  assert.deepEqual(JSON.parse(result.stdout).runs[0].queries, { q1: { map: 0 }, '\ufeffq1': { map: 1 } });
});

test("a missing query without -c is a clear error, not trec_eval's misleading one", () => {
  const result = runCliProcess(['eval', qrels, join(suite, 'results.trunc')]);
  assert.equal(result.status, 1);
  assert.match(
    result.stderr,
    /qrels\.test:\d+:1: error: query '302' is judged here but has no results in .*results\.trunc.*pass -c/,
  );
  assert.equal(result.stdout, '');
});

test('bad input files give positioned errors and exit 1, never a stack trace', () => {
  const dir = scratchDir();
  const bad = join(dir, 'bad.run');
  writeFileSync(bad, '301 Q0 FR940202-2-00150 1 2.0 r\n301 Q0 doc 2 high r\n');
  const result = runCliProcess(['eval', qrels, bad]);
  assert.equal(result.status, 1);
  assert.equal(result.stderr, `${bad}:2:14: error: expected a decimal score, found 'high'\n`);
  const missing = runCliProcess(['eval', join(dir, 'nope.qrels'), results]);
  assert.equal(missing.status, 1);
  assert.equal(missing.stderr, `${join(dir, 'nope.qrels')}: cannot read: no such file\n`);
});

test('bad usage exits 2 with the reason and the usage', () => {
  for (const [args, reason] of [
    [['eval', qrels], /expected a qrels file and at least one run file/],
    [['eval', '-m', 'P_avgjg', qrels, results], /trec_eval measure 'P_avgjg' is not computed by qrels-studio/],
    [['eval', '-m', 'nonsense', qrels, results], /unknown measure 'nonsense'/],
    [['eval', '-m', 'P.5,5', qrels, results], /cutoff 5 is given twice/],
    [['eval', '-m', 'P.0', qrels, results], /cutoff '0' is not a positive integer/],
    [['eval', '-l', 'two', qrels, results], /option -l: expected an integer ≥ 0, found 'two'/],
    [['eval', '-l-1', qrels, results], /option -l: expected an integer ≥ 0, found '-1'/],
    [['eval', '-x', qrels, results], /unknown option '-x'/],
  ] as const) {
    const result = runCliProcess([...args]);
    assert.equal(result.status, 2, `${args.join(' ')}: ${result.stderr}`);
    assert.match(result.stderr, reason);
    assert.match(result.stderr, /usage: qrels-studio eval/);
  }
});

test('qids and run tags that are not UTF-8 are written back byte for byte, and stay distinct in JSON', () => {
  const dir = scratchDir();
  const qrelsFile = join(dir, 'latin1.qrels');
  const runFile = join(dir, 'latin1.run');
  writeFileSync(qrelsFile, Buffer.from('q\xe9 0 d 1\nq\xe8 0 d 1\n', 'latin1'));
  writeFileSync(runFile, Buffer.from('q\xe9 Q0 d 1 1 run\xe9\nq\xe8 Q0 x 1 1 run\xe9\n', 'latin1'));
  const text = spawnSync(process.execPath, [cliLauncher, 'eval', '-q', '-m', 'map', qrelsFile, runFile]);
  assert.equal(text.status, 0, text.stderr.toString());
  const bytes = text.stdout.toString('latin1');
  assert.ok(bytes.includes('map                   \tq\xe8\t0.0000\n'), bytes);
  assert.ok(bytes.includes('map                   \tq\xe9\t1.0000\n'), bytes);
  const json = JSON.parse(runCliProcess(['eval', '--json', '-q', '-m', 'map', qrelsFile, runFile]).stdout);
  assert.equal(Object.keys(json.runs[0].queries).length, 2);
  assert.equal(json.runs[0].runid, 'run\u00e9');
});

test('files can come through pipes and process substitution, gzip included', () => {
  const script = `"${process.execPath}" "${cliLauncher}" eval -m map <(gzip -c "${qrels}") <(cat "${results}")`;
  const result = spawnSync('bash', ['-c', script], { encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stdout, 'map                   \tall\t0.1785\n');
});

test('-m all_trec is all of trec_eval 10: nothing is left out, nothing said on stderr', () => {
  const result = runCliProcess(['eval', '-m', 'all_trec', qrels, results]);
  assert.equal(result.status, 0);
  assert.equal(result.stderr, '');
});

test("--gains: a study's scale gives nDCG its gains (FollowTable: a violating table gains 0); -l does not", () => {
  const dir = scratchDir();
  // a compliant (2), b violating (1), c off-topic (0); the run puts b first.
  writeFileSync(join(dir, 'qrels'), 'q 0 a 2\nq 0 b 1\nq 0 c 0\n');
  writeFileSync(join(dir, 'run'), 'q Q0 b 1 3 r\nq Q0 a 2 2 r\nq Q0 c 3 1 r\n');
  const ndcg = (...options: string[]) => {
    const result = runCliProcess(['eval', '-m', 'ndcg_cut.1,3', ...options, 'qrels', 'run'], { cwd: dir });
    assert.equal(result.status, 0, result.stderr);
    return result.stdout;
  };
  // Gain = label: ndcg_cut_1 = 1/2; ndcg_cut_3 = (1 + 2/log2 3) / (2 + 1/log2 3) = 2.26186 / 2.63093 = 0.8597.
  const plain = 'ndcg_cut_1            \tall\t0.5000\nndcg_cut_3            \tall\t0.8597\n';
  assert.equal(ndcg(), plain);
  assert.equal(ndcg('-l', '2'), plain, '-l is for the binary measures, as in trec_eval');
  // Gains 0, 0, 1: ndcg_cut_1 = 0; ndcg_cut_3 = (1/log2 3) / 1 = 0.6309.
  assert.equal(
    ndcg('--gains', '0:0,1:0,2:1'),
    'ndcg_cut_1            \tall\t0.0000\nndcg_cut_3            \tall\t0.6309\n',
  );
  for (const [args, reason] of [
    [['--gains', '1=0'], /--gains: expected LABEL:GAIN .* found '1=0'/],
    [['--gains', '1:0,1:2'], /--gains: label 1 is given twice/],
    [['--gains', '2:-1'], /--gains: expected LABEL:GAIN/],
  ] as const) {
    const result = runCliProcess(['eval', '-m', 'ndcg', ...args, 'qrels', 'run'], { cwd: dir });
    assert.equal(result.status, 2, result.stderr);
    assert.match(result.stderr, reason);
  }
  const unread = runCliProcess(['eval', '-m', 'map', '--gains', '1:0', 'qrels', 'run'], { cwd: dir });
  assert.equal(unread.status, 2);
  assert.match(unread.stderr, /--gains: only ndcg and ndcg_cut read it/);
});

for (const kind of storeKinds)
  test(`eval --study: nDCG takes the gains the study's scale declares (FollowTable: \`1 "Violates" … gain 0\`) (${kind})`, async () => {
    const kindStore = await cliStore(kind);
    const dir = scratchDir();
    // As above: a compliant (2), b violating (1), c off-topic (0); the run puts b first.
    writeFileSync(join(dir, 'qrels'), 'q 0 a 2\nq 0 b 1\nq 0 c 0\n');
    writeFileSync(join(dir, 'run'), 'q Q0 b 1 3 r\nq Q0 a 2 2 r\nq Q0 c 3 1 r\n');
    writeFileSync(join(dir, 'q.jsonl'), '{"qid":"q","query":"sales by region"}\n');
    writeFileSync(join(dir, 'c.jsonl'), '{"did":"a","text":"t"}\n{"did":"b","text":"t"}\n{"did":"c","text":"t"}\n');
    const studyWith = (scale: string) =>
      `  queries "q.jsonl" { id: qid  text: query }\n  corpus "c.jsonl" { id: did  body: text }\n  scale ordinal {\n${scale}  }\n`;
    kindStore.writeStudy(
      join(dir, 'ft.assess'),
      `study "followtable" {\n${studyWith('    0 "Off-topic" key "0"\n    1 "Violates" key "1" gain 0\n    2 "Follows" key "2"\n')}}\n` +
        `study "graded" {\n${studyWith('    0 "No" key "0"\n    1 "Partly" key "1"\n    2 "Yes" key "2"\n')}}\n`,
    );
    const ndcg = (...options: string[]) => {
      const result = kindStore.cli(['eval', '-m', 'ndcg_cut.1,3', ...options, 'qrels', 'run'], { cwd: dir });
      assert.equal(result.status, 0, result.stderr);
      return result.stdout;
    };
    // Gains 0, 0, 2 (2 not declared: it gains itself): ndcg_cut_1 = 0; ndcg_cut_3 = (2/log2 3) / 2 = 0.6309, the
    // numbers of --gains 0:0,1:0,2:1 (nDCG is scale-free).
    const followTable = 'ndcg_cut_1            \tall\t0.0000\nndcg_cut_3            \tall\t0.6309\n';
    assert.equal(ndcg('--study', 'ft.assess', '--name', 'followtable'), followTable);
    assert.equal(ndcg('--study', 'ft.assess', '--name', 'followtable'), ndcg('--gains', '0:0,1:0,2:1'));
    // --gains, when given, is the gains: then nothing reads --study without MaxP.
    const both = kindStore.cli(
      ['eval', '--study', 'ft.assess', '--name', 'followtable', '--gains', '1:1', 'qrels', 'run'],
      {
        cwd: dir,
      },
    );
    assert.equal(both.status, 2);
    assert.match(
      both.stderr,
      /--study is read for MaxP, and for the gains of ndcg and ndcg_cut when --gains is not given/,
    );
    const none = kindStore.cli(['eval', '-m', 'ndcg', '--study', 'ft.assess', '--name', 'graded', 'qrels', 'run'], {
      cwd: dir,
    });
    assert.equal(none.status, 2);
    assert.match(
      none.stderr,
      /--study is read for MaxP and for the gains its scale declares, and ft\.assess declares none/,
    );
    const unread = kindStore.cli(
      ['eval', '-m', 'map', '--study', 'ft.assess', '--name', 'followtable', 'qrels', 'run'],
      {
        cwd: dir,
      },
    );
    assert.equal(unread.status, 2);
    assert.match(unread.stderr, /--study is read for MaxP/);
  });

test("trec_eval and instruction measures in one eval: TARGET's R@10 next to capped R@10", () => {
  const dir = scratchDir();
  // q1 has 20 relevant tables, 5 in the top 10: recall_10 = 5/20 = 0.25, capped = 5 / min(10, 20) = 0.5.
  // q2 has 2, both in the top 10: 1 and 1. Means: recall_10 = 0.625, capped_recall_10 = 0.75.
  const gold = Array.from({ length: 20 }, (_, i) => `g${i}`);
  writeFileSync(join(dir, 'qrels'), `${gold.map((g) => `q1 0 ${g} 1\n`).join('')}q2 0 a 1\nq2 0 b 1\n`);
  const q1 = [...gold.slice(0, 5), 'x1', 'x2', 'x3', 'x4', 'x5', ...gold.slice(5)];
  writeFileSync(
    join(dir, 'run'),
    `${q1.map((d, i) => `q1 Q0 ${d} ${i + 1} ${100 - i} t\n`).join('')}q2 Q0 x 1 3 t\nq2 Q0 a 2 2 t\nq2 Q0 b 3 1 t\n`,
  );
  const result = runCliProcess(['eval', '-m', 'recall.10', '-m', 'capped_recall.10', 'qrels', 'run'], { cwd: dir });
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /^recall_10\s+\tall\t0\.6250$/m);
  assert.match(result.stdout, /^capped_recall_10\s+\tall\t0\.7500$/m);
  assert.ok(result.stdout.indexOf('recall_10') < result.stdout.indexOf('capped_recall_10'), 'trec_eval block first');
  const json = JSON.parse(
    runCliProcess(['eval', '--json', '-m', 'recall.10', '-m', 'capped_recall.10', 'qrels', 'run'], { cwd: dir }).stdout,
  );
  assert.equal(json.runs[0].all.recall_10, 0.625);
  assert.equal(json.instruction.runs[0].all.capped_recall_10.value, 0.75);
});
