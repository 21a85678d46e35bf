// A label source's kind (issue 19 item 4): `import qrels "…" as NAME kind person|crowd|gold|llm` in a study file and
// `import --kind` on the CLI. Agreement counts people (persons and crowd workers); an imported LLM's labels join only
// with --include-llm; a gold file never joins the headline statistics. Exports carry the kind. On a study of each store
// kind (cliStore.ts).
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCliProcess, scratchDir } from '../helpers.ts';
import { storeKinds } from '../storeKinds.ts';
import { type CliStore, cliStore } from './cliStore.ts';

/** The store of each workspace (its study file's record). */
const workspaceStores = new Map<string, CliStore>();

function cli(cwd: string, ...args: string[]) {
  const result = runCliProcess(args, { cwd, env: workspaceStores.get(cwd)?.env ?? {} });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function agreeJson(cwd: string, ...args: string[]) {
  const result = cli(cwd, 'agree', ...args, '--json');
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout);
}

/**
 * alice and bob label q1's d1–d4 (binary); gold.qrels lists only the positives (d1, d3), as a positives-only gold
 * file does; gpt.qrels is an LLM's labels imported from a file.
 */
function workspace(store: CliStore, kinds: { gold?: string; gpt?: string }): string {
  const root = scratchDir();
  workspaceStores.set(root, store);
  mkdirSync(join(root, 'data'));
  writeFileSync(join(root, 'data', 'queries.jsonl'), '{"qid": "q1", "query": "medal tables"}\n');
  writeFileSync(
    join(root, 'data', 'corpus.jsonl'),
    `${['d1', 'd2', 'd3', 'd4'].map((id) => JSON.stringify({ _id: id, text: `text of ${id}` })).join('\n')}\n`,
  );
  writeFileSync(join(root, 'alice.qrels'), 'q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 1\nq1 0 d4 0\n');
  writeFileSync(join(root, 'bob.qrels'), 'q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 0\nq1 0 d4 0\n');
  writeFileSync(join(root, 'gold.qrels'), 'q1 0 d1 1\nq1 0 d3 1\n');
  writeFileSync(join(root, 'gpt.qrels'), 'q1 0 d1 1\nq1 0 d2 1\nq1 0 d3 1\nq1 0 d4 0\n');
  store.writeStudy(
    join(root, 'wqt.assess'),
    `study "wqt" {
  queries "data/queries.jsonl" { id: qid  text: query }
  corpus  "data/corpus.jsonl"  { id: _id  body: text }
  scale binary { 0 "No" key "0"  1 "Yes" key "1" }
  import qrels "alice.qrels" as alice
  import qrels "bob.qrels" as bob kind person
  import qrels "gold.qrels" as gold${kinds.gold ? ` kind ${kinds.gold}` : ''}
  import qrels "gpt.qrels" as gpt52${kinds.gpt ? ` kind ${kinds.gpt}` : ''}
}
`,
  );
  return root;
}

for (const kind of storeKinds)
  test(`a positives-only gold file declared \`kind gold\` stays out of agreement; an imported LLM joins only with --include-llm (${kind})`, async () => {
    const root = workspace(await cliStore(kind), { gold: 'gold', gpt: 'llm' });
    const imported = cli(root, 'import', 'wqt.assess');
    assert.equal(imported.status, 0, imported.stderr);
    const study = agreeJson(root, 'wqt.assess');
    // alice and bob: d1 (1,1) d2 (0,0) d3 (1,0) d4 (0,0). Fleiss: P̄ = 3/4; p1 = 3/8, p0 = 5/8,
    // Pe = 9/64 + 25/64 = 34/64; κ = (48/64 − 34/64) / (30/64) = 14/30 = 7/15.
    assert.equal(study.n_annotators, 2);
    assert.ok(Math.abs(study.fleiss.kappa - 7 / 15) < 1e-12, String(study.fleiss.kappa));
    assert.equal(study.percent_agreement, 0.75);
    assert.ok(!study.all_annotators.some((a: { name: string }) => a.name === 'gold'), 'gold is no annotator');
    // With the LLM (gpt52: 1 1 1 0), over d1–d4 by all three: d1 (1,1,1) d2 (0,0,1) d3 (1,0,1) d4 (0,0,0).
    // P_i: 1, 1/3, 1/3, 1 → P̄ = 2/3; p1 = 6/12 = 1/2, Pe = 1/2; κ = (2/3 − 1/2)/(1/2) = 1/3. Gold still out.
    const withLlm = agreeJson(root, 'wqt.assess', '--include-llm');
    assert.equal(withLlm.n_annotators, 3);
    assert.ok(Math.abs(withLlm.fleiss.kappa - 1 / 3) < 1e-12, String(withLlm.fleiss.kappa));

    // The label file carries each annotator's kind.
    assert.equal(cli(root, 'export', 'wqt.assess', '--labels', 'labels.csv').status, 0);
    const rows = readFileSync(join(root, 'labels.csv'), 'utf8').trim().split('\n');
    const header = rows[0]!.split(',');
    const kindAt = header.indexOf('kind');
    const annotatorAt = header.indexOf('annotator');
    assert.ok(kindAt >= 0, rows[0]);
    const kindOf = new Map(rows.slice(1).map((r) => [r.split(',')[annotatorAt], r.split(',')[kindAt]]));
    assert.deepEqual(Object.fromEntries(kindOf), { alice: 'person', bob: 'person', gold: 'gold', gpt52: 'llm' });
    // agree on the exported label file reads the kinds back: the same people, the same numbers.
    const fromFile = agreeJson(root, 'labels.csv');
    assert.equal(fromFile.n_annotators, 2);
    assert.ok(Math.abs(fromFile.fleiss.kappa - 7 / 15) < 1e-12, String(fromFile.fleiss.kappa));
    assert.ok(!fromFile.all_annotators.some((a: { name: string }) => a.name === 'gold'), 'gold is no annotator');
    assert.ok(Math.abs(agreeJson(root, 'labels.csv', '--include-llm').fleiss.kappa - 1 / 3) < 1e-12);
    const jsonl = cli(root, 'export', 'wqt.assess', '--jsonl', 'labels.jsonl');
    assert.equal(jsonl.status, 0, jsonl.stderr);
    const records = readFileSync(join(root, 'labels.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.ok(records.length > 0);
    for (const r of records) assert.equal(r.kind, kindOf.get(r.annotator), JSON.stringify(r));
  });

for (const kind of storeKinds)
  test(`without kinds, the gold file counts as a third annotator: the κ the issue reports (${kind})`, async () => {
    const root = workspace(await cliStore(kind), {});
    assert.equal(cli(root, 'import', 'wqt.assess').status, 0);
    const study = agreeJson(root, 'wqt.assess');
    // alice, bob, gold, gpt52 all people: Fleiss over the units all four labelled, d1 (1,1,1,1) d3 (1,0,1,1):
    // P_i = 1 and (9 + 1 − 4)/12 = 1/2 → P̄ = 3/4; p1 = 7/8, Pe = 49/64 + 1/64 = 50/64; κ = (48 − 50)/(64 − 50) = −1/7.
    assert.equal(study.n_annotators, 4);
    assert.ok(Math.abs(study.fleiss.kappa + 1 / 7) < 1e-12, String(study.fleiss.kappa));
  });

for (const kind of storeKinds)
  test(`import --kind on the CLI; an unknown kind is a positioned error with a did-you-mean (${kind})`, async () => {
    const root = workspace(await cliStore(kind), { gpt: 'llm' });
    // gold.qrels is declared without a kind; the CLI names it gold.
    const imported = cli(root, 'import', 'wqt.assess');
    assert.equal(imported.status, 0, imported.stderr);
    const named = cli(root, 'import', 'wqt.assess', '--qrels', 'gold.qrels', '--annotator', 'gold', '--kind', 'gold');
    assert.equal(named.status, 0, named.stderr);
    assert.equal(agreeJson(root, 'wqt.assess').n_annotators, 2);
    const wrong = cli(root, 'import', 'wqt.assess', '--qrels', 'gold.qrels', '--annotator', 'gold', '--kind', 'gild');
    assert.equal(wrong.status, 2);
    assert.match(wrong.stderr, /kind.*gild.*gold/);

    writeFileSync(
      join(root, 'bad.assess'),
      readFileSync(join(root, 'wqt.assess'), 'utf8').replace('kind llm', 'kind lmm'),
    );
    const lint = cli(root, 'lint', 'bad.assess');
    assert.notEqual(lint.status, 0);
    assert.match(lint.stdout + lint.stderr, /bad\.assess:8:42: .*found `lmm`; did you mean `llm`/);
  });
