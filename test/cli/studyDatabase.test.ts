// The task-database commands as users run them (real processes, real records of either store kind: cliStore.ts):
// import what a study file declares, pool runs, export qrels / judgments / label files, judged@k — and the round
// trips between them.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCliProcess, scratchDir } from '../helpers.ts';
import { storeKinds } from '../storeKinds.ts';
import { type CliStore, cliStore } from './cliStore.ts';

/** The store of each workspace (its study file's record). */
const workspaceStores = new Map<string, CliStore>();

function workspace(store: CliStore, extra = ''): string {
  const root = scratchDir();
  workspaceStores.set(root, store);
  mkdirSync(join(root, 'data'));
  mkdirSync(join(root, 'runs'));
  store.writeStudy(
    join(root, 'wqt.assess'),
    `study "wqt" {
  queries "data/queries.jsonl" { id: qid  text: query  instruction: instruction }
  corpus  "data/corpus.jsonl"  { id: _id  body: text  title: title }
  pool    "runs/bm25.trec" depth 2
  scale ordinal { 0 "No" key "0"  1 "Partly" key "1"  2 "Yes" key "2" }
${extra}}
`,
  );
  writeFileSync(
    join(root, 'data', 'queries.jsonl'),
    '{"qid": "q1", "query": "medal tables", "instruction": "after 2000"}\n{"qid": "q2", "query": "rivers", "instruction": "in km"}\n',
  );
  writeFileSync(
    join(root, 'data', 'corpus.jsonl'),
    `${['d1', 'd2', 'd3', 'd4'].map((id) => JSON.stringify({ _id: id, title: `T ${id}`, text: `text of ${id}` })).join('\n')}\n`,
  );
  writeFileSync(
    join(root, 'runs', 'bm25.trec'),
    'q1 Q0 d1 1 9.0 bm25\nq1 Q0 d2 2 8.0 bm25\nq1 Q0 d3 3 7.0 bm25\nq2 Q0 d4 1 5.0 bm25\nq2 Q0 d1 2 4.0 bm25\n',
  );
  return root;
}

function cli(cwd: string, ...args: string[]) {
  const result = runCliProcess(args, { cwd, env: workspaceStores.get(cwd)?.env ?? {} });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

for (const kind of storeKinds)
  test(`import loads the declared queries, corpus and pools; run twice, it adds nothing (${kind})`, async () => {
    const root = workspace(await cliStore(kind));
    const first = cli(root, 'import', 'wqt.assess');
    assert.equal(first.status, 0, first.stderr);
    assert.match(first.stdout, /queries: 2 added, 0 updated, 0 unchanged/);
    assert.match(first.stdout, /documents: 4 added, 0 updated, 0 unchanged/);
    assert.match(first.stdout, /runs\/bm25\.trec: 4 pairs at depth 2 over 2 queries, 4 new/);
    // The record is where the study file says: the SQLite file next to it, or (store postgres) no file at all.
    assert.equal(existsSync(join(root, '.qrels-studio', 'wqt.sqlite')), kind === 'sqlite');
    const again = cli(root, 'import', 'wqt.assess');
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, /queries: 0 added, 0 updated, 2 unchanged/);
    assert.match(again.stdout, /documents: 0 added, 0 updated, 4 unchanged/);
    assert.match(again.stdout, /runs\/bm25\.trec: 4 pairs at depth 2 over 2 queries, 0 new/);
  });

for (const kind of storeKinds)
  test(`a malformed record fails the whole import with its position, and the database is as before (${kind})`, async () => {
    const root = workspace(await cliStore(kind));
    assert.equal(cli(root, 'import', 'wqt.assess').status, 0);
    writeFileSync(join(root, 'extra.jsonl'), '{"qid": "q3", "query": "ok"}\n{"qid": "q4" "query": "broken"}\n');
    const failed = cli(root, 'import', 'wqt.assess', '--queries', 'extra.jsonl', '--map', 'id=qid,text=query');
    assert.equal(failed.status, 1);
    assert.match(failed.stderr, /^extra\.jsonl:2:\d+: expected .+, found .+\n$/);
    const after = cli(root, 'export', 'wqt.assess', '--labels', 'labels.csv');
    assert.equal(after.status, 0, after.stderr);
    const again = cli(root, 'import', 'wqt.assess', '--no-pools');
    assert.match(again.stdout, /queries: 0 added, 0 updated, 2 unchanged/, 'q3 was not imported');
  });

for (const kind of storeKinds)
  test(`round trips: export qrels → import as an annotator → export is identical; a label file into a fresh study (${kind})`, async () => {
    const root = workspace(await cliStore(kind));
    writeFileSync(join(root, 'nist.qrels'), 'q1 0 d1 2\nq1 0 d2 0\nq2 0 d4 1\n');
    const imported = cli(root, 'import', 'wqt.assess', '--qrels', 'nist.qrels', '--annotator', 'nist');
    assert.equal(imported.status, 0, imported.stderr);
    assert.match(imported.stdout, /judgments: 3 added, 0 already there/);
    assert.equal(cli(root, 'export', 'wqt.assess', '--qrels', 'out.qrels', '--from', 'annotator:nist').status, 0);
    assert.equal(readFileSync(join(root, 'out.qrels'), 'utf8'), 'q1 0 d1 2\nq1 0 d2 0\nq2 0 d4 1\n');
    const back = cli(root, 'import', 'wqt.assess', '--qrels', 'out.qrels', '--annotator', 'nist');
    assert.match(back.stdout, /judgments: 0 added, 3 already there/);

    // The label file carries every judgment with its time: a fresh study that imports it has the same judgments.
    assert.equal(cli(root, 'export', 'wqt.assess', '--labels', 'labels.csv', '--jsonl', 'all.jsonl').status, 0);
    const labels = readFileSync(join(root, 'labels.csv'), 'utf8');
    assert.match(
      labels,
      /^query_id,doc_id,annotator,label,created_at,source,rationale,shown_label,kind\nq1,d1,nist,2,\d{4}-/,
    );
    const fresh = workspace(await cliStore(kind));
    writeFileSync(join(fresh, 'labels.csv'), labels);
    const merged = cli(fresh, 'import', 'wqt.assess', '--labels', 'labels.csv');
    assert.equal(merged.status, 0, merged.stderr);
    assert.equal(cli(fresh, 'export', 'wqt.assess', '--labels', 'again.csv').status, 0);
    assert.equal(readFileSync(join(fresh, 'again.csv'), 'utf8'), labels);
    const twice = cli(fresh, 'import', 'wqt.assess', '--labels', 'labels.csv');
    assert.match(twice.stdout, /judgments: 0 added, 3 already there/, 'merging a label file again adds nothing');
    const jsonl = readFileSync(join(root, 'all.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.deepEqual(Object.keys(jsonl[0]), [
      'query_id',
      'doc_id',
      'annotator',
      'kind',
      'label',
      'created_at',
      'source',
      'rationale',
      'shown_label',
      'current',
    ]);
    assert.equal(jsonl[0].source, 'imported');
  });

for (const kind of storeKinds)
  test(`majority with ties to the lower label; judged@k of a run against the study (${kind})`, async () => {
    const root = workspace(await cliStore(kind));
    writeFileSync(join(root, 'alice.qrels'), 'q1 0 d1 2\nq1 0 d2 1\n');
    writeFileSync(join(root, 'bob.qrels'), 'q1 0 d1 2\nq1 0 d2 2\n');
    assert.equal(
      cli(
        root,
        'import',
        'wqt.assess',
        '--qrels',
        'alice.qrels',
        '--annotator',
        'alice',
        '--qrels',
        'bob.qrels',
        '--annotator',
        'bob',
      ).status,
      0,
    );
    assert.equal(cli(root, 'export', 'wqt.assess', '--qrels', 'majority.qrels', '--from', 'majority').status, 0);
    assert.equal(readFileSync(join(root, 'majority.qrels'), 'utf8'), 'q1 0 d1 2\nq1 0 d2 1\n');
    const judged = cli(root, 'judged', 'wqt.assess', '--run', 'runs/bm25.trec', '--k', '2', '-q');
    assert.equal(judged.status, 0, judged.stderr);
    assert.equal(
      judged.stdout,
      'judged@2              \tq1\t1.0000\njudged@2              \tq2\t0.0000\njudged@2              \tall\t0.5000\n',
    );
  });

for (const kind of storeKinds)
  test(`errors: a study with errors, an unknown label source, a label off the scale, a qrels without annotator (${kind})`, async () => {
    const root = workspace(await cliStore(kind));
    writeFileSync(join(root, 'off.qrels'), 'q1 0 d1 1\nq1 0 d2 5\n');
    const off = cli(root, 'import', 'wqt.assess', '--qrels', 'off.qrels', '--annotator', 'nist');
    assert.equal(off.status, 1);
    assert.equal(off.stderr, "off.qrels:2:1: label 5 is not on the scale of study 'wqt' (0, 1, 2)\n");
    const noAnnotator = cli(root, 'import', 'wqt.assess', '--qrels', 'off.qrels');
    assert.equal(noAnnotator.status, 2);
    assert.match(noAnnotator.stderr, /--qrels off\.qrels needs --annotator NAME/);
    const source = cli(root, 'export', 'wqt.assess', '--qrels', 'x.qrels', '--from', 'vote');
    assert.equal(source.status, 1);
    assert.match(
      source.stderr,
      /unknown label source 'vote' \(expected one of: annotator:NAME, llm:NAME, majority, adjudicated, adjudicated-else-majority, mean>T, human-else-llm\)/,
    );
    writeFileSync(join(root, 'bad.assess'), 'study "b" {\n  queries "missing.jsonl" { id: qid text: q }\n}\n');
    const bad = cli(root, 'import', 'bad.assess');
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /bad\.assess:2:11: error \[file-not-found\]/);
    assert.match(bad.stderr, /bad\.assess has errors: fix them first/);
  });

for (const kind of storeKinds)
  test(`re-importing a declared qrels file does not undo a later relabel; times are compared as instants (${kind})`, async () => {
    const root = workspace(await cliStore(kind), '  import qrels "crowd.qrels" as alice\n');
    writeFileSync(join(root, 'crowd.qrels'), 'q1 0 d1 1\n');
    assert.equal(cli(root, 'import', 'wqt.assess').status, 0);
    // Alice relabels (a label file from her machine): 2 at a time written with an offset, later than the import.
    const later = new Date(Date.now() + 3_600_000);
    const offset = new Date(later.getTime() + 2 * 3_600_000).toISOString().replace('Z', '+02:00');
    writeFileSync(
      join(root, 'alice.csv'),
      `query_id,doc_id,annotator,label,created_at,source,rationale,shown_label\nq1,d1,alice,2,${offset},manual,looked again,1\n`,
    );
    const relabel = cli(root, 'import', 'wqt.assess', '--labels', 'alice.csv');
    assert.equal(relabel.status, 0, relabel.stderr);
    const again = cli(root, 'import', 'wqt.assess');
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, /judgments: 0 added, 1 already there/);
    assert.equal(cli(root, 'export', 'wqt.assess', '--qrels', 'alice.qrels', '--from', 'annotator:alice').status, 0);
    assert.equal(readFileSync(join(root, 'alice.qrels'), 'utf8'), 'q1 0 d1 2\n');
    // The label file round trip keeps the shown label and writes the time in UTC.
    assert.equal(cli(root, 'export', 'wqt.assess', '--labels', 'out.csv').status, 0);
    assert.match(
      readFileSync(join(root, 'out.csv'), 'utf8'),
      new RegExp(`q1,d1,alice,2,${later.toISOString()},manual,looked again,1,person\\n`),
    );
  });

for (const kind of storeKinds)
  test(`label files: a conflicting judgment at the same time, or an unknown source, is an error at its line (${kind})`, async () => {
    const root = workspace(await cliStore(kind));
    const header = 'query_id,doc_id,annotator,label,created_at,source\n';
    writeFileSync(
      join(root, 'twice.csv'),
      `${header}q1,d1,bob,1,2026-01-01T00:00:00Z,manual\nq1,d1,bob,2,2026-01-01T00:00:00.000Z,manual\n`,
    );
    const twice = cli(root, 'import', 'wqt.assess', '--labels', 'twice.csv');
    assert.equal(twice.status, 1);
    assert.match(
      twice.stderr,
      /^twice\.csv:3:1: expected one judgment of document 'd1' for query 'q1' by bob at 2026-01-01T00:00:00\.000Z, found a second \(first at twice\.csv:2:1\)\n$/,
    );
    writeFileSync(join(root, 'source.csv'), `${header}q1,d1,bob,1,2026-01-01T00:00:00Z,llm\n`);
    const source = cli(root, 'import', 'wqt.assess', '--labels', 'source.csv');
    assert.equal(source.status, 1);
    assert.equal(
      source.stderr,
      "source.csv:2:1: expected a source of manual, suggestion, adjudicated, imported, found 'llm'\n",
    );
  });

for (const kind of storeKinds)
  test(`what cannot be written or read is a clear error: ids a qrels file cannot hold, a missing folder, a file named twice, a corrupt database, a renamed study (${kind})`, async () => {
    const root = workspace(await cliStore(kind));
    writeFileSync(
      join(root, 'spaced.csv'),
      'query_id,doc_id,annotator,label,created_at\nq 1,d1,bob,1,2026-01-01T00:00:00Z\n',
    );
    assert.equal(cli(root, 'import', 'wqt.assess', '--labels', 'spaced.csv').status, 0);
    const spaced = cli(root, 'export', 'wqt.assess', '--qrels', 'x.qrels', '--from', 'annotator:bob');
    assert.equal(spaced.status, 1);
    assert.match(
      spaced.stderr,
      /query id 'q 1' \(pair q 1 \/ d1\) is empty or holds whitespace, which a qrels file cannot hold/,
    );
    assert.ok(!existsSync(join(root, 'x.qrels')));
    const folder = cli(root, 'export', 'wqt.assess', '--labels', 'missing/labels.csv');
    assert.equal(folder.status, 1);
    assert.match(folder.stderr, /cannot write .*missing\/labels\.csv: no such folder/);
    const twice = cli(root, 'import', 'wqt.assess', '--corpus', 'data/corpus.jsonl', '--corpus', 'data/corpus.jsonl');
    assert.equal(twice.status, 2);
    assert.match(twice.stderr, /data\/corpus\.jsonl is named twice/);

    writeFileSync(
      join(root, 'wqt.assess'),
      readFileSync(join(root, 'wqt.assess'), 'utf8').replace('"wqt"', '"wqt-v2"'),
    );
    const renamed = cli(root, 'import', 'wqt.assess');
    assert.equal(renamed.status, 1);
    assert.match(renamed.stderr, /study 'wqt' is no longer in the study file but has 1 judgment in its database/);

    // A corrupt SQLite file is SQLite's own failure: a study on PostgreSQL has no file to corrupt.
    if (kind !== 'sqlite') return;
    const other = workspace(await cliStore(kind));
    mkdirSync(join(other, '.qrels-studio'));
    writeFileSync(
      join(other, '.qrels-studio', 'wqt.sqlite'),
      'not a database at all, just text that is long enough '.repeat(200),
    );
    const corrupt = cli(other, 'import', 'wqt.assess');
    assert.equal(corrupt.status, 1);
    assert.match(corrupt.stderr, /wqt\.sqlite is not a Qrels Studio database \(not SQLite\)/);
  });
