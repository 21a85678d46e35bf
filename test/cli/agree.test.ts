// `qrels-studio agree` as users run it (real processes): the JSON keys the issue spells, the published examples
// through a label file, thresholds, seeded intervals, a study file with an LLM judge, degenerate inputs (null and a
// note, never NaN), positioned errors, and the round trip export --labels → agree. A study file is one of each store
// kind (cliStore.ts).
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCliProcess, scratchDir } from '../helpers.ts';
import { storeKinds } from '../storeKinds.ts';
import { type CliStore, cliStore } from './cliStore.ts';

/** The store of each study workspace (its study file's record); a folder not in it holds only label files. */
const workspaceStores = new Map<string, CliStore>();

function cli(cwd: string, ...args: string[]) {
  const result = runCliProcess(args, { cwd, env: workspaceStores.get(cwd)?.env ?? {} });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function agreeJson(cwd: string, ...args: string[]) {
  const result = cli(cwd, 'agree', ...args, '--json');
  assert.equal(result.status, 0, result.stderr);
  assert.doesNotMatch(result.stdout, /NaN|Infinity/);
  return JSON.parse(result.stdout);
}

/** A label file from coders' rows over units (null: missing). */
function labelFile(rows: (number | null)[][], names = rows.map((_, i) => `c${i + 1}`)): string {
  let text = 'query_id,doc_id,annotator,label\n';
  rows.forEach((row, coder) => {
    row.forEach((value, unit) => {
      if (value !== null) text += `q,u${unit + 1},${names[coder]},${value}\n`;
    });
  });
  return text;
}

const krippendorff2011 = [
  [1, 2, 3, 3, 2, 1, 4, 1, 2, null, null, null],
  [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, null, 3],
  [null, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, null],
  [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, null],
];

test('--json: exactly the keys the issue spells; Krippendorff (2011) through a label file', () => {
  const root = scratchDir();
  writeFileSync(join(root, 'labels.csv'), labelFile(krippendorff2011));
  const json = agreeJson(root, 'labels.csv', '--threshold', '3');
  for (const key of ['n_units', 'n_annotators', 'percent_agreement', 'krippendorff', 'fleiss', 'cohen', 'binary']) {
    assert.ok(key in json, key);
  }
  assert.deepEqual(Object.keys(json.krippendorff), ['nominal', 'ordinal', 'interval', 'ratio']);
  assert.deepEqual(Object.keys(json.fleiss), ['kappa', 'n_units']);
  for (const pair of json.cohen) {
    for (const key of ['a', 'b', 'n', 'unweighted', 'linear', 'quadratic']) assert.ok(key in pair, key);
    assert.ok(pair.a < pair.b, `${pair.a} < ${pair.b}`);
  }
  assert.equal(json.cohen.length, 6, 'every pair of the 4 coders');
  for (const key of ['n_units', 'n_annotators', 'percent_agreement', 'krippendorff', 'fleiss', 'cohen']) {
    assert.ok(key in json.binary, `binary.${key}`);
  }
  assert.equal(json.n_units, 12);
  assert.equal(json.n_annotators, 4);
  assert.equal(json.krippendorff.nominal.toFixed(3), '0.743');
  assert.equal(json.krippendorff.ordinal.toFixed(3), '0.815');
  assert.equal(json.krippendorff.interval.toFixed(3), '0.849');
  assert.equal(json.krippendorff.ratio.toFixed(3), '0.797');
  assert.ok(Array.isArray(json.notes));
});

test("Cohen's Wikipedia example through TSV and JSONL: κ = 0.40; the text report says the same", () => {
  const root = scratchDir();
  let tsv = 'annotator\tquery_id\tdoc_id\tlabel\tcomment\n';
  let jsonl = '';
  let unit = 0;
  for (const [a, b, count] of [
    [1, 1, 20],
    [1, 0, 5],
    [0, 1, 10],
    [0, 0, 15],
  ] as const) {
    for (let i = 0; i < count; i++) {
      unit++;
      tsv += `A\tq\td${unit}\t${a}\textra\nB\tq\td${unit}\t${b}\textra\n`;
      jsonl += `${JSON.stringify({ query_id: 'q', doc_id: `d${unit}`, annotator: 'A', label: a })}\n`;
      jsonl += `${JSON.stringify({ query_id: 'q', doc_id: `d${unit}`, annotator: 'B', label: b, note: 'x' })}\n`;
    }
  }
  writeFileSync(join(root, 'labels.tsv'), tsv);
  writeFileSync(join(root, 'labels.jsonl'), jsonl);
  for (const file of ['labels.tsv', 'labels.jsonl']) {
    const json = agreeJson(root, file);
    assert.equal(json.cohen[0].unweighted.toFixed(6), '0.400000', file);
    assert.equal(json.cohen[0].n, 50);
  }
  const text = cli(root, 'agree', 'labels.tsv');
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, /labels\.tsv: 100 labels, 50 units, 2 annotators \(A, B\)/);
  assert.match(text.stdout, /A\s+B\s+human-human\s+50\s+0\.4000/);
  assert.match(text.stdout, /percent agreement\s+0\.7000/);
});

test('--bootstrap with a seed: the same intervals twice, others with another seed', () => {
  const root = scratchDir();
  writeFileSync(join(root, 'labels.csv'), labelFile(krippendorff2011));
  const first = agreeJson(root, 'labels.csv', '--bootstrap', '300', '--seed', '7');
  const again = agreeJson(root, 'labels.csv', '--bootstrap', '300', '--seed', '7');
  const other = agreeJson(root, 'labels.csv', '--bootstrap', '300', '--seed', '8');
  assert.deepEqual(first.ci, again.ci);
  assert.notDeepEqual(first.ci.krippendorff, other.ci.krippendorff);
  assert.equal(first.ci.samples, 300);
  assert.equal(first.ci.seed, 7);
  const [low, high] = first.ci.krippendorff.ordinal;
  assert.ok(low <= first.krippendorff.ordinal && first.krippendorff.ordinal <= high);
  for (const bad of [
    ['--bootstrap', '-1'],
    ['--bootstrap', 'many'],
    ['--seed', '1.5'],
    ['--threshold', 'high'],
  ]) {
    const refused = cli(root, 'agree', 'labels.csv', ...bad);
    assert.equal(refused.status, 2, bad.join(' '));
    assert.match(refused.stderr, new RegExp(`${bad[0]} expects`));
  }
});

test('degenerate inputs: null with a note, never NaN', () => {
  const root = scratchDir();
  writeFileSync(join(root, 'one.csv'), labelFile([[1, 2, 0]]));
  writeFileSync(
    join(root, 'same.csv'),
    labelFile([
      [2, 2, 2],
      [2, 2, 2],
    ]),
  );
  writeFileSync(
    join(root, 'apart.csv'),
    labelFile([
      [1, 2, null, null],
      [null, null, 1, 2],
    ]),
  );
  const one = agreeJson(root, 'one.csv');
  assert.equal(one.percent_agreement, null);
  assert.equal(one.krippendorff.ordinal, null);
  assert.equal(one.fleiss.kappa, null);
  assert.ok(
    one.notes.some((n: string) => /percent_agreement is undefined: no unit has labels from two annotators/.test(n)),
  );
  const same = agreeJson(root, 'same.csv');
  assert.equal(same.percent_agreement, 1);
  assert.equal(same.krippendorff.nominal, null);
  assert.equal(same.cohen[0].unweighted, null);
  assert.ok(same.notes.some((n: string) => /every pairable label is the same category/.test(n)));
  const apart = agreeJson(root, 'apart.csv');
  assert.equal(apart.cohen[0].n, 0);
  assert.equal(apart.cohen[0].unweighted, null);
  assert.ok(apart.notes.some((n: string) => /labelled no unit in common/.test(n)));
  const text = cli(root, 'agree', 'same.csv');
  assert.equal(text.status, 0);
  assert.doesNotMatch(text.stdout, /NaN/);
  assert.match(text.stdout, /Krippendorff's α nominal\s+—/);
  assert.match(text.stdout, /notes:\n {2}- krippendorff\.nominal is undefined/);
  // κ of agreement at chance level comes out as −2.2e−16 in floating point: the text shows 0.0000, not −0.0000.
  writeFileSync(
    join(root, 'chance.csv'),
    labelFile([
      [2, 1, 0],
      [2, 2, 1],
    ]),
  );
  const chance = cli(root, 'agree', 'chance.csv');
  assert.match(chance.stdout, /^\s+c1\s+c2\s+human-human\s+3\s+0\.0000\s/m);
  assert.doesNotMatch(chance.stdout, /-0\.0000/);
});

test('bad label files: positioned errors, both lines for a unit labelled twice by one annotator', () => {
  const root = scratchDir();
  writeFileSync(join(root, 'twice.csv'), 'query_id,doc_id,annotator,label\nq1,d1,ann,1\nq1,d2,ann,0\nq1,d1,ann,2\n');
  const twice = cli(root, 'agree', 'twice.csv');
  assert.equal(twice.status, 1);
  assert.match(
    twice.stderr,
    /^twice\.csv:4:1: expected one label per annotator .*found a second label by 'ann' for query 'q1', document 'd1' \(the first on line 2\)/,
  );
  writeFileSync(join(root, 'nolabel.csv'), 'query_id,doc_id,annotator,grade\nq1,d1,ann,1\n');
  const missing = cli(root, 'agree', 'nolabel.csv');
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /^nolabel\.csv:1:1: .*label/);
  assert.doesNotMatch(missing.stderr + twice.stderr, /at .*\.ts:\d+/, 'no stack trace');
});

/** A study (its record in `store`) with alice and bob labelling (imported label file) and an LLM judge's suggestions. */
function studyWorkspace(store: CliStore): string {
  const root = scratchDir();
  workspaceStores.set(root, store);
  mkdirSync(join(root, 'data'));
  writeFileSync(
    join(root, 'data', 'queries.jsonl'),
    '{"qid": "q1", "query": "medal tables"}\n{"qid": "q2", "query": "rivers"}\n',
  );
  writeFileSync(
    join(root, 'data', 'corpus.jsonl'),
    `${['d1', 'd2', 'd3', 'd4'].map((id) => JSON.stringify({ _id: id, text: `text of ${id}` })).join('\n')}\n`,
  );
  writeFileSync(join(root, 'alice.qrels'), 'q1 0 d1 2\nq1 0 d2 0\nq1 0 d3 1\nq2 0 d4 2\n');
  writeFileSync(join(root, 'bob.qrels'), 'q1 0 d1 2\nq1 0 d2 1\nq1 0 d3 1\nq2 0 d4 0\n');
  writeFileSync(join(root, 'judge.qrels'), 'q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 1\nq2 0 d4 2\n');
  store.writeStudy(
    join(root, 'wqt.assess'),
    `study "wqt" {
  queries "data/queries.jsonl" { id: qid  text: query }
  corpus  "data/corpus.jsonl"  { id: _id  body: text }
  scale ordinal { 0 "No" key "0"  1 "Partly" key "1"  2 "Yes" key "2" }
  import qrels "alice.qrels" as alice
  import qrels "bob.qrels" as bob
  import qrels "judge.qrels" as "llm:gpt-4.1-mini"
}
`,
  );
  return root;
}

for (const kind of storeKinds)
  test(`a study file: its current labels, people and the LLM judge; export --labels → agree gives the same numbers (${kind})`, async () => {
    const root = studyWorkspace(await cliStore(kind));
    const imported = cli(root, 'import', 'wqt.assess');
    assert.equal(imported.status, 0, imported.stderr);
    const study = agreeJson(root, 'wqt.assess');
    assert.equal(study.n_units, 4);
    assert.equal(study.n_annotators, 2, 'the people');
    assert.deepEqual(
      study.cohen.map((p: { a: string; b: string; kind: string; n: number }) => [p.a, p.b, p.kind, p.n]),
      [
        ['alice', 'bob', 'human-human', 4],
        ['alice', 'llm:gpt-4.1-mini', 'human-llm', 4],
        ['bob', 'llm:gpt-4.1-mini', 'human-llm', 4],
      ],
    );
    assert.ok(study.notes.some((n: string) => /LLM judge\(s\) llm:gpt-4\.1-mini appear in the pairwise/.test(n)));
    const everyone = agreeJson(root, 'wqt.assess', '--include-llm');
    assert.equal(everyone.n_annotators, 3);

    assert.equal(cli(root, 'export', 'wqt.assess', '--labels', 'labels.csv').status, 0);
    const fromFile = agreeJson(root, 'labels.csv');
    // The file knows no scale: the labels seen are 0 1 2, the same categories as the study's scale here.
    for (const key of ['n_units', 'n_annotators', 'percent_agreement', 'krippendorff', 'fleiss', 'cohen']) {
      assert.deepEqual(fromFile[key], study[key], key);
    }
  });

for (const kind of storeKinds)
  test(`export --labels writes each current label once (a change of mind, an adjudication with its source); agree reads it as the study (${kind})`, async () => {
    const root = studyWorkspace(await cliStore(kind));
    assert.equal(cli(root, 'import', 'wqt.assess').status, 0);
    // Alice changes her mind about q1/d2 and judy adjudicates it, both after the qrels were imported.
    writeFileSync(
      join(root, 'more.csv'),
      'query_id,doc_id,annotator,label,created_at,source\n' +
        'q1,d2,alice,1,2030-01-01T00:00:00Z,manual\nq1,d2,judy,1,2030-01-02T00:00:00Z,adjudicated\n',
    );
    const merged = cli(root, 'import', 'wqt.assess', '--labels', 'more.csv');
    assert.equal(merged.status, 0, merged.stderr);
    const study = agreeJson(root, 'wqt.assess');
    assert.deepEqual(
      study.all_annotators.map((a: { name: string }) => a.name).sort(),
      ['alice', 'bob', 'llm:gpt-4.1-mini'],
      'the adjudicator is no annotator to agree with',
    );
    assert.equal(study.cohen[0].percent_agreement, 0.75, 'alice now agrees with bob on q1/d2');

    assert.equal(cli(root, 'export', 'wqt.assess', '--labels', 'labels.csv', '--jsonl', 'all.jsonl').status, 0);
    // Two qrels files from two sources in one run: each --from goes with its --qrels.
    const two = cli(
      root,
      'export',
      'wqt.assess',
      ...['--qrels', 'maj.qrels', '--from', 'majority'],
      '--qrels',
      'adj.qrels',
      '--from',
      'adjudicated',
    );
    assert.equal(two.stdout, 'maj.qrels: 4 judgments (majority)\nadj.qrels: 1 judgments (adjudicated)\n', two.stderr);
    assert.equal(readFileSync(join(root, 'adj.qrels'), 'utf8'), 'q1 0 d2 1\n');
    const three = cli(
      root,
      'export',
      'wqt.assess',
      ...['--qrels', 'a', '--qrels', 'b', '--qrels', 'c'],
      '--from',
      'majority',
      '--from',
      'adjudicated',
    );
    assert.equal(three.status, 2);
    assert.match(three.stderr, /2 --from options for 3 --qrels outputs: give one --from for all, or one per --qrels/);
    const rows = readFileSync(join(root, 'labels.csv'), 'utf8').trim().split('\n').slice(1);
    assert.equal(rows.length, 13, '4 pairs × 3 annotators, and the adjudication');
    assert.deepEqual(
      rows.filter((row) => row.startsWith('q1,d2,')),
      [
        'q1,d2,alice,1,2030-01-01T00:00:00.000Z,manual,,,person',
        expectMatch(rows, /^q1,d2,bob,1,/),
        'q1,d2,judy,1,2030-01-02T00:00:00.000Z,adjudicated,,,person',
        expectMatch(rows, /^q1,d2,llm:gpt-4\.1-mini,0,/),
      ],
    );
    const history = readFileSync(join(root, 'all.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .filter((j) => j.doc_id === 'd2' && j.annotator === 'alice');
    assert.deepEqual(
      history.map((j) => [j.label, j.current]),
      [
        [0, false],
        [1, true],
      ],
      '--jsonl keeps the history',
    );
    const fromFile = agreeJson(root, 'labels.csv');
    for (const key of ['n_units', 'n_annotators', 'percent_agreement', 'krippendorff', 'fleiss', 'cohen']) {
      assert.deepEqual(fromFile[key], study[key], key);
    }
    // The label file merges back into a fresh study: the same current labels, the same numbers.
    const fresh = studyWorkspace(await cliStore(kind));
    writeFileSync(
      join(fresh, 'wqt.assess'),
      readFileSync(join(fresh, 'wqt.assess'), 'utf8').replace(/ {2}import .*\n/g, ''),
    );
    writeFileSync(join(fresh, 'labels.csv'), readFileSync(join(root, 'labels.csv')));
    const back = cli(fresh, 'import', 'wqt.assess', '--labels', 'labels.csv');
    assert.equal(back.status, 0, back.stderr);
    const again = agreeJson(fresh, 'wqt.assess');
    for (const key of ['n_units', 'n_annotators', 'percent_agreement', 'krippendorff', 'fleiss', 'cohen']) {
      assert.deepEqual(again[key], study[key], key);
    }
  });

/** The one row matching `pattern`. */
function expectMatch(rows: readonly string[], pattern: RegExp): string {
  const found = rows.filter((row) => pattern.test(row));
  assert.equal(found.length, 1, `one row matching ${pattern}`);
  return found[0]!;
}

test('--per-query: the same statistics over each query’s units', () => {
  const root = scratchDir();
  writeFileSync(
    join(root, 'labels.csv'),
    'query_id,doc_id,annotator,label\nq1,d1,a,1\nq1,d1,b,1\nq1,d2,a,0\nq1,d2,b,0\nq2,d3,a,1\nq2,d3,b,0\nq2,d4,a,0\nq2,d4,b,1\n',
  );
  const json = agreeJson(root, 'labels.csv', '--per-query');
  assert.deepEqual(
    json.per_query.map((q: { query_id: string; n_units: number; percent_agreement: number }) => [
      q.query_id,
      q.n_units,
      q.percent_agreement,
    ]),
    [
      ['q1', 2, 1],
      ['q2', 2, 0],
    ],
  );
  assert.equal(json.per_query[0].cohen[0].unweighted, 1);
  const text = cli(root, 'agree', 'labels.csv', '--per-query');
  assert.match(text.stdout, /\nq2\s+2\s+0\.0000/);
});

/** alice and bob on 4 pairs under a target; with `judge`, an LLM judge also on those and on 4 pairs no person labelled. */
function targetWorkspace(store: CliStore, judge: boolean): string {
  const root = scratchDir();
  workspaceStores.set(root, store);
  mkdirSync(join(root, 'data'));
  writeFileSync(
    join(root, 'data', 'queries.jsonl'),
    '{"qid": "q1", "query": "medal tables"}\n{"qid": "q2", "query": "rivers"}\n',
  );
  const docs = ['d1', 'd2', 'd3', 'd4', 'd5', 'd6', 'd7', 'd8'];
  writeFileSync(
    join(root, 'data', 'corpus.jsonl'),
    `${docs.map((id) => JSON.stringify({ _id: id, text: `text of ${id}` })).join('\n')}\n`,
  );
  writeFileSync(join(root, 'alice.qrels'), 'q1 0 d1 2\nq1 0 d2 0\nq1 0 d3 1\nq2 0 d4 2\n');
  writeFileSync(join(root, 'bob.qrels'), 'q1 0 d1 2\nq1 0 d2 0\nq1 0 d3 2\nq2 0 d4 2\n');
  writeFileSync(join(root, 'judge.qrels'), 'q1 0 d1 1\nq1 0 d5 0\nq1 0 d6 2\nq2 0 d4 2\nq2 0 d7 1\nq2 0 d8 0\n');
  store.writeStudy(
    join(root, 'wqt.assess'),
    `study "wqt" {
  queries "data/queries.jsonl" { id: qid  text: query }
  corpus  "data/corpus.jsonl"  { id: _id  body: text }
  scale ordinal { 0 "No" key "0"  1 "Partly" key "1"  2 "Yes" key "2" }
  agreement krippendorff ordinal target 0.5
  import qrels "alice.qrels" as alice
  import qrels "bob.qrels" as bob
${judge ? '  import qrels "judge.qrels" as "llm:gpt-4.1-mini"\n' : ''}}
`,
  );
  const imported = cli(root, 'import', 'wqt.assess');
  assert.equal(imported.status, 0, imported.stderr);
  return root;
}

for (const kind of storeKinds)
  test(`a study's target is met only when the interval's lower bound reaches it: 4 units are not yet (${kind})`, async () => {
    const root = targetWorkspace(await cliStore(kind), false);
    const json = agreeJson(root, 'wqt.assess');
    const [alpha] = json.targets;
    assert.equal(alpha.title, "Krippendorff's α (ordinal)");
    assert.ok(alpha.value >= 0.5, `the point estimate clears the target: ${alpha.value}`);
    assert.equal(alpha.verdict.state, 'not-yet');
    assert.equal(alpha.verdict.units, 4);
    assert.ok(alpha.verdict.interval[0] < 0.5, `lower bound ${alpha.verdict.interval[0]}`);
    const text = cli(root, 'agree', 'wqt.assess');
    assert.equal(text.status, 0, text.stderr);
    const [low, high] = alpha.verdict.interval.map((v: number) => v.toFixed(4));
    assert.ok(
      text.stdout.includes(
        `Krippendorff's α (ordinal)    ${alpha.value.toFixed(4)}  target 0.5000: not yet (n = 4, 95 % interval [${low}, ${high}])`,
      ),
      text.stdout,
    );
    assert.match(
      text.stdout,
      /targets \(met only when the 95 % interval's lower bound reaches the target; 1000 bootstrap samples, seed 1\)/,
    );
    assert.doesNotMatch(text.stdout, /meets target|: met /);
  });

for (const kind of storeKinds)
  test(`an LLM judge's labels on other units move neither the people's α nor its interval; --include-llm counts them (${kind})`, async () => {
    const people = agreeJson(
      targetWorkspace(await cliStore(kind), false),
      'wqt.assess',
      '--bootstrap',
      '300',
      '--seed',
      '3',
    );
    const judgedRoot = targetWorkspace(await cliStore(kind), true);
    const judged = agreeJson(judgedRoot, 'wqt.assess', '--bootstrap', '300', '--seed', '3');
    assert.ok(judged.all_annotators.some((a: { kind: string }) => a.kind === 'llm'));
    assert.deepEqual(judged.krippendorff, people.krippendorff);
    assert.deepEqual(judged.ci.krippendorff, people.ci.krippendorff);
    assert.deepEqual(judged.ci.percent_agreement, people.ci.percent_agreement);
    assert.equal(judged.n_units, people.n_units);
    assert.deepEqual(judged.targets, people.targets);
    const counted = agreeJson(judgedRoot, 'wqt.assess', '--bootstrap', '300', '--seed', '3', '--include-llm');
    assert.notDeepEqual(counted.ci.krippendorff, people.ci.krippendorff);
  });

test('agree --help states the conventions: pooled percent, weighted κ categories, the seed, undefined resamples', () => {
  const help = cli(scratchDir(), 'agree', '--help');
  assert.equal(help.status, 0, help.stderr);
  const text = help.stdout.replace(/\n\s*/g, ' ');
  assert.match(text, /Percent agreement is pooled over pairs of labels/);
  assert.match(text, /not a mean of per-unit agreement/);
  assert.match(text, /on the study's scale when there is one/);
  assert.match(text, /on the sorted labels the pair itself gave/);
  assert.match(text, /seed 1 unless --seed/);
  assert.match(
    text,
    /A resample on which a statistic is undefined .* is left out of that statistic's interval and the notes say how many were/,
  );
  assert.match(text, /met only when the interval's lower bound reaches T/);
});
