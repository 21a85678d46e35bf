// Every decision a person makes in VS Code, made from a file instead (real processes, real records of either store
// kind: cliStore.ts): labels
// (`import --labels` as JSON Lines or TREC qrels lines, under a named annotator) and a review's verdicts
// (`import --verdicts`), each file checked whole before anything is written; and `export STUDY` with no output named
// writing the study's declared `export` files.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { labelFileColumns } from '../../core/store/studyExports.ts';
import { runCliProcess, scratchDir } from '../helpers.ts';
import { storeKinds } from '../storeKinds.ts';
import { type CliStore, cliStore } from './cliStore.ts';

/** The store of each workspace (its study file's record). */
const workspaceStores = new Map<string, CliStore>();

function studyWorkspace(store: CliStore, exports = ''): string {
  const root = scratchDir();
  workspaceStores.set(root, store);
  mkdirSync(join(root, 'data'));
  store.writeStudy(
    join(root, 'wqt.assess'),
    `study "wqt" {
  queries "data/queries.jsonl" { id: qid  text: query }
  corpus  "data/corpus.jsonl"  { id: _id  body: text }
  scale ordinal { 0 "No" key "0"  1 "Partly" key "1"  2 "Yes" key "2" }
${exports}}
`,
  );
  writeFileSync(
    join(root, 'data', 'queries.jsonl'),
    '{"qid": "q1", "query": "medal tables"}\n{"qid": "q2", "query": "rivers"}\n',
  );
  writeFileSync(
    join(root, 'data', 'corpus.jsonl'),
    `${['d1', 'd2', 'd3', 'd4', 'd5'].map((id) => JSON.stringify({ _id: id, text: `text of ${id}` })).join('\n')}\n`,
  );
  return root;
}

function cli(cwd: string, ...args: string[]) {
  const result = runCliProcess(args, { cwd, env: workspaceStores.get(cwd)?.env ?? {} });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Every judgment in the study's database, as `export --jsonl` writes them (times left out). */
function judgments(root: string): string[] {
  const out = cli(root, 'export', 'wqt.assess', '--jsonl', 'all.jsonl');
  assert.equal(out.status, 0, out.stderr);
  return readFileSync(join(root, 'all.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const { query_id, doc_id, annotator, label, rationale, source } = JSON.parse(l);
      return `${query_id} ${doc_id} ${annotator} ${label} ${source} ${rationale ?? '-'}`;
    });
}

for (const kind of storeKinds)
  test(`import --labels: JSON Lines (qid, docid, label, annotator, note) and TREC qrels lines under --annotator (${kind})`, async () => {
    const root = studyWorkspace(await cliStore(kind));
    assert.equal(cli(root, 'import', 'wqt.assess').status, 0);
    writeFileSync(
      join(root, 'team.jsonl'),
      '{"qid": "q1", "docid": "d1", "label": 2, "annotator": "alice", "note": "lists medals per country"}\n' +
        '{"qid": "q1", "docid": "d2", "label": 0, "annotator": "bob"}\n' +
        '{"qid": "q2", "docid": "d3", "label": 1}\n',
    );
    // The third line names no annotator: without --annotator that is an error at its line.
    const unnamed = cli(root, 'import', 'wqt.assess', '--labels', 'team.jsonl');
    assert.equal(unnamed.status, 1);
    assert.match(unnamed.stderr, /^team\.jsonl:3:1: expected a field 'annotator'/);
    const imported = cli(root, 'import', 'wqt.assess', '--labels', 'team.jsonl', '--annotator', 'carol');
    assert.equal(imported.status, 0, imported.stderr);
    assert.match(imported.stdout, /judgments: 3 added, 0 already there/);
    writeFileSync(join(root, 'dave.qrels'), 'q1 0 d1 1\nq2 0 d3 1\n');
    const noName = cli(root, 'import', 'wqt.assess', '--labels', 'dave.qrels');
    assert.equal(noName.status, 1);
    assert.match(noName.stderr, /^dave\.qrels:1:1: expected an annotator for these judgments \(--annotator NAME\)/);
    const qrels = cli(root, 'import', 'wqt.assess', '--labels', 'dave.qrels', '--annotator', 'dave');
    assert.equal(qrels.status, 0, qrels.stderr);
    assert.match(qrels.stdout, /dave\.qrels: 2 labels records \(trec-qrels\)/);
    assert.deepEqual(judgments(root), [
      'q1 d1 alice 2 imported lists medals per country',
      'q1 d1 dave 1 imported -',
      'q1 d2 bob 0 imported -',
      'q2 d3 carol 1 imported -',
      'q2 d3 dave 1 imported -',
    ]);
    // Importing the same files again records nothing new.
    const again = cli(root, 'import', 'wqt.assess', '--labels', 'team.jsonl', '--annotator', 'carol');
    assert.match(again.stdout, /judgments: 0 added, 3 already there/);
    // The adjudicator's decision, from a file too: `export --from adjudicated` reads it.
    writeFileSync(
      join(root, 'adjudication.jsonl'),
      '{"qid": "q1", "docid": "d1", "label": 1, "annotator": "erin", "source": "adjudicated", "note": "partly"}\n',
    );
    assert.equal(cli(root, 'import', 'wqt.assess', '--labels', 'adjudication.jsonl').status, 0);
    assert.equal(cli(root, 'export', 'wqt.assess', '--qrels', 'adj.qrels', '--from', 'adjudicated').status, 0);
    assert.equal(readFileSync(join(root, 'adj.qrels'), 'utf8'), 'q1 0 d1 1\n');
  });

for (const kind of storeKinds)
  test(`import --labels is all or nothing: a bad line 7 leaves the database as it was and says file:line:col (${kind})`, async () => {
    const root = studyWorkspace(await cliStore(kind));
    assert.equal(cli(root, 'import', 'wqt.assess').status, 0);
    writeFileSync(join(root, 'first.qrels'), 'q1 0 d1 2\n');
    assert.equal(cli(root, 'import', 'wqt.assess', '--labels', 'first.qrels', '--annotator', 'alice').status, 0);
    const before = judgments(root);
    const lines = ['d1', 'd2', 'd3', 'd4', 'd5', 'd1'].map(
      (d, i) => `${JSON.stringify({ qid: i < 5 ? 'q1' : 'q2', docid: d, label: i % 3, annotator: 'bob' })}\n`,
    );
    // Line 7: a label the study's scale (0, 1, 2) does not have.
    lines.push('{"qid": "q2", "docid": "d2", "label": 7, "annotator": "bob"}\n');
    lines.push('{"qid": "q2", "docid": "d3", "label": 1, "annotator": "bob"}\n');
    writeFileSync(join(root, 'bob.jsonl'), lines.join(''));
    const failed = cli(root, 'import', 'wqt.assess', '--labels', 'bob.jsonl');
    assert.equal(failed.status, 1);
    assert.match(failed.stderr, /^bob\.jsonl:7:\d+: .*label 7 .*\(0, 1, 2\)/);
    assert.deepEqual(judgments(root), before, 'nothing of bob.jsonl was written');
    // A line that is not JSON: also positioned, also nothing written.
    lines[6] = '{"qid": "q2", "docid": "d2", "label": 1, "annotator": "bob"\n';
    writeFileSync(join(root, 'bob.jsonl'), lines.join(''));
    const broken = cli(root, 'import', 'wqt.assess', '--labels', 'bob.jsonl');
    assert.equal(broken.status, 1);
    assert.match(broken.stderr, /^bob\.jsonl:7:\d+: expected /);
    assert.deepEqual(judgments(root), before);
  });

function reviewWorkspace(store: CliStore): string {
  const root = scratchDir();
  workspaceStores.set(root, store);
  writeFileSync(
    join(root, 'items.jsonl'),
    ['Find medal tables.', 'Find rivers.', 'Find tall buildings.']
      .map((text, i) => `${JSON.stringify({ iid: `i${i + 1}`, text, type: i === 0 ? 'C1' : 'S1' })}\n`)
      .join(''),
  );
  store.writeStudy(
    join(root, 'gen.assess'),
    'review "gen" {\n  items "items.jsonl" { id: iid  text: text  type: type }\n  annotators alice bob\n' +
      '  export verdicts "out/accepted.jsonl"\n}\n',
  );
  return root;
}

for (const kind of storeKinds)
  test(`import --verdicts records a review decided elsewhere; the summary and the export read it as the view’s (${kind})`, async () => {
    const root = reviewWorkspace(await cliStore(kind));
    writeFileSync(
      join(root, 'verdicts.jsonl'),
      '{"item_id": "i1", "verdict": "accept", "reviewer": "alice"}\n' +
        '{"item_id": "i1", "verdict": "edit", "reason": "clearer", "reviewer": "bob", "text": "Find Olympic medal tables."}\n' +
        '{"item_id": "i2", "verdict": "accept", "reviewer": "alice"}\n' +
        '{"item_id": "i2", "verdict": "accept", "reviewer": "bob"}\n' +
        '{"item_id": "i3", "verdict": "reject", "reason": "vague"}\n',
    );
    const unnamed = cli(root, 'import', 'gen.assess', '--verdicts', 'verdicts.jsonl');
    assert.equal(unnamed.status, 1);
    assert.match(unnamed.stderr, /^verdicts\.jsonl:5:1: expected a person's name in 'reviewer'/);
    const imported = cli(root, 'import', 'gen.assess', '--verdicts', 'verdicts.jsonl', '--annotator', 'bob');
    assert.equal(imported.status, 0, imported.stderr);
    assert.equal(imported.stdout, 'verdicts.jsonl: 5 verdicts recorded, 0 already there\n');
    const again = cli(root, 'import', 'gen.assess', '--verdicts', 'verdicts.jsonl', '--annotator', 'bob');
    assert.equal(again.stdout, 'verdicts.jsonl: 0 verdicts recorded, 5 already there\n');
    // alice settles i1 by accepting bob's edit.
    writeFileSync(
      join(root, 'alice.jsonl'),
      '{"item_id": "i1", "verdict": "edit", "reason": "agree with bob", "text": "Find Olympic medal tables."}\n',
    );
    assert.equal(cli(root, 'import', 'gen.assess', '--verdicts', 'alice.jsonl', '--annotator', 'alice').status, 0);
    const summary = cli(root, 'export', 'gen.assess', '--summary');
    assert.equal(summary.status, 0, summary.stderr);
    assert.match(summary.stdout, /review 'gen': 3 items\n {2}C1 {9}edit 1\n {2}S1 {9}accept 1, pending 1\n/);
    const exported = cli(root, 'export', 'gen.assess');
    assert.equal(exported.status, 0, exported.stderr);
    const accepted = readFileSync(join(root, 'out', 'accepted.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      accepted.map((a) => [a.item_id, a.final_verdict, a.text]),
      [
        ['i1', 'edit', 'Find Olympic medal tables.'],
        ['i2', 'accept', 'Find rivers.'],
      ],
    );
  });

for (const kind of storeKinds)
  test(`import --verdicts is all or nothing: a bad line 7 records none of the file and says file:line:col (${kind})`, async () => {
    const root = reviewWorkspace(await cliStore(kind));
    const lines = [1, 2, 3].flatMap((i) =>
      ['alice', 'bob'].map((reviewer) => `${JSON.stringify({ item_id: `i${i}`, verdict: 'accept', reviewer })}\n`),
    );
    // Line 7: a reviewer the review does not name.
    lines.push('{"item_id": "i1", "verdict": "reject", "reason": "off", "reviewer": "carl"}\n');
    writeFileSync(join(root, 'verdicts.jsonl'), lines.join(''));
    const failed = cli(root, 'import', 'gen.assess', '--verdicts', 'verdicts.jsonl');
    assert.equal(failed.status, 1);
    assert.equal(failed.stderr, "verdicts.jsonl:7:69: expected a reviewer of 'gen' (alice, bob), found 'carl'\n");
    const summary = cli(root, 'export', 'gen.assess', '--summary');
    assert.match(summary.stdout, /C1 {9}unreviewed 1\n {2}S1 {9}unreviewed 2\n/, 'no verdict was recorded');
    // Each rule of the Review view, at its line and column.
    for (const [line, expected] of [
      ['{"item_id": "i9", "verdict": "accept", "reviewer": "alice"}', /:1:13: expected an item of review 'gen'/],
      [
        '{"item_id": "i1", "verdict": "maybe", "reviewer": "alice"}',
        /:1:30: expected a verdict of the review \(accept, edit, reject\)/,
      ],
      [
        '{"item_id": "i1", "verdict": "reject", "reviewer": "alice"}',
        /:1:1: expected a reason for the verdict 'reject'/,
      ],
      [
        '{"item_id": "i1", "verdict": "edit", "reason": "x", "reviewer": "alice"}',
        /:1:1: expected the edited text in 'text'/,
      ],
      ['{"item_id": "i1", "verdict": "accept", "reviewer": "alice", "score": 3}', /:1:61: expected a field among/],
    ] as const) {
      writeFileSync(join(root, 'one.jsonl'), `${line}\n`);
      const result = cli(root, 'import', 'gen.assess', '--verdicts', 'one.jsonl');
      assert.equal(result.status, 1, line);
      assert.match(result.stderr, new RegExp(`^one\\.jsonl${expected.source}`), line);
    }
  });

for (const kind of storeKinds)
  test(`export STUDY with no output named writes the declared \`export qrels\` and \`export labels\` files (${kind})`, async () => {
    const root = studyWorkspace(
      await cliStore(kind),
      '  export qrels "out/majority.qrels" from majority\n  export labels "out/labels.csv" from all\n',
    );
    assert.equal(cli(root, 'import', 'wqt.assess').status, 0);
    writeFileSync(join(root, 'a.qrels'), 'q1 0 d1 2\nq1 0 d2 0\n');
    writeFileSync(join(root, 'b.qrels'), 'q1 0 d1 2\nq1 0 d2 1\n');
    writeFileSync(join(root, 'c.qrels'), 'q1 0 d1 1\nq1 0 d2 1\n');
    for (const name of ['a', 'b', 'c']) {
      assert.equal(cli(root, 'import', 'wqt.assess', '--labels', `${name}.qrels`, '--annotator', name).status, 0);
    }
    const exported = cli(root, 'export', 'wqt.assess');
    assert.equal(exported.status, 0, exported.stderr);
    assert.equal(
      exported.stdout,
      'out/majority.qrels: 2 judgments (majority)\nout/labels.csv: 6 judgments (label file)\n',
    );
    // d1: 2, 2, 1 → 2; d2: 0, 1, 1 → 1.
    assert.equal(readFileSync(join(root, 'out', 'majority.qrels'), 'utf8'), 'q1 0 d1 2\nq1 0 d2 1\n');
    // The label file as `export --labels` writes it: its header, then one row per annotator and pair.
    const labelRows = readFileSync(join(root, 'out', 'labels.csv'), 'utf8')
      .trim()
      .split('\n');
    assert.equal(labelRows[0], labelFileColumns.join(','));
    assert.deepEqual(
      labelRows.slice(1).map((row) => row.split(',').slice(0, 4).join(' ')),
      ['q1 d1 a 2', 'q1 d1 b 2', 'q1 d1 c 1', 'q1 d2 a 0', 'q1 d2 b 1', 'q1 d2 c 1'],
    );
    // A study that declares no export says what to do instead.
    const bare = studyWorkspace(await cliStore(kind));
    const nothing = cli(bare, 'export', 'wqt.assess');
    assert.equal(nothing.status, 2);
    assert.match(nothing.stderr, /nothing to export: study 'wqt' declares no `export qrels "FILE"`/);
    assert.equal(existsSync(join(bare, 'out')), false);
  });
