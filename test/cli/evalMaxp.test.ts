// `qrels-studio eval` with MaxP by the corpus's declared parent (--parents, --parent-field) rather than an id
// pattern, and for some queries only (--maxp-queries, --maxp-type with --queries): a run mixing a chunked task
// (CRUMB's legal documents cut into `<doc>#<n>` chunks) with a table task (TARGET's tables, whose parent is their
// database) is evaluated per query at the unit its qrels judge.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCliProcess, scratchDir } from '../helpers.ts';
import { storeKinds } from '../storeKinds.ts';
import { cliStore } from './cliStore.ts';

function mixedTasks(): string {
  const dir = scratchDir();
  writeFileSync(
    join(dir, 'corpus.jsonl'),
    [
      { _id: 'doc7#0', text: 'first chunk', parent: 'doc7' },
      { _id: 'doc7#1', text: 'second chunk', parent: 'doc7' },
      { _id: 'doc9#0', text: 'only chunk', parent: 'doc9' },
      { _id: 't1', text: '| a |', parent: 'db1' },
      { _id: 't2', text: '| b |', parent: 'db1' },
      { _id: 't3', text: '| c |', parent: 'db2' },
    ]
      .map((r) => JSON.stringify(r))
      .join('\n'),
  );
  writeFileSync(
    join(dir, 'queries.jsonl'),
    '{"_id":"legal-1","text":"a lease","type":"legal"}\n{"_id":"table-1","text":"sales","type":"table"}\n',
  );
  writeFileSync(join(dir, 'maxp.txt'), '# the chunked task\nlegal-1\n');
  // legal-1 is judged per document, table-1 per table.
  writeFileSync(join(dir, 'qrels'), 'legal-1 0 doc7 1\nlegal-1 0 doc9 0\ntable-1 0 t2 1\n');
  writeFileSync(
    join(dir, 'run'),
    'legal-1 Q0 doc9#0 1 0.9 r\nlegal-1 Q0 doc7#1 2 0.8 r\nlegal-1 Q0 doc7#0 3 0.1 r\n' +
      'table-1 Q0 t1 1 0.7 r\ntable-1 Q0 t2 2 0.6 r\ntable-1 Q0 t3 3 0.5 r\n',
  );
  return dir;
}

const evalIn = (dir: string, ...args: string[]) => {
  const result = runCliProcess(['eval', '-q', '-m', 'map', ...args, 'qrels', 'run'], { cwd: dir });
  assert.equal(result.status, 0, result.stderr);
  return result.stdout;
};

// legal-1 rolled up: doc9 (0.9), doc7 (best chunk 0.8): its relevant doc7 at rank 2, AP = 1/2.
// table-1 as it is: t1, t2, t3: t2 at rank 2, AP = 1/2. MAP = 0.5.
const perTask =
  'map                   \tlegal-1\t0.5000\nmap                   \ttable-1\t0.5000\nmap                   \tall\t0.5000\n';

test("MaxP for the chunked task only, chosen by the queries' type or by a list of query ids", () => {
  const dir = mixedTasks();
  assert.equal(evalIn(dir, '--parents', 'corpus.jsonl', '--maxp-type', 'legal', '--queries', 'queries.jsonl'), perTask);
  assert.equal(evalIn(dir, '--parents', 'corpus.jsonl', '--maxp-queries', 'maxp.txt'), perTask);
  // MaxP for every query rolls table-1's tables up to db1 (0.7) and db2 (0.5): t2 is not there, AP 0; MAP 0.25.
  assert.equal(
    evalIn(dir, '--parents', 'corpus.jsonl'),
    'map                   \tlegal-1\t0.5000\nmap                   \ttable-1\t0.0000\nmap                   \tall\t0.2500\n',
  );
  // The id pattern <doc>:<n> does not know 'doc9#0'.
  const pattern = runCliProcess(['eval', '--maxp', '-m', 'map', 'qrels', 'run'], { cwd: dir });
  assert.equal(pattern.status, 1);
  assert.match(pattern.stderr, /run:1:12: error: expected a passage id '<docid>:<n>' \(--maxp\), found 'doc9#0'/);
});

test("a table's database through --parent-field; the instruction measures read the same rule", () => {
  const dir = mixedTasks();
  writeFileSync(
    join(dir, 'tables.jsonl'),
    '{"id":"t1","text":"| a |","database":"db1"}\n{"id":"t2","text":"| b |","database":"db1"}\n' +
      '{"id":"t3","text":"| c |","database":"db2"}\n',
  );
  writeFileSync(join(dir, 'db.qrels'), 'table-1 0 db2 1\n');
  writeFileSync(join(dir, 'tables.run'), 'table-1 Q0 t1 1 0.7 r\ntable-1 Q0 t2 2 0.6 r\ntable-1 Q0 t3 3 0.5 r\n');
  // Databases: db1 (0.7), db2 (0.5): the relevant db2 at rank 2, recip_rank 1/2; capped R@1 = 0 / min(1, 1) = 0,
  // capped R@2 = 1 / min(2, 1) = 1.
  const args = ['--parents', 'tables.jsonl', '--parent-field', 'database', 'db.qrels', 'tables.run'];
  const result = runCliProcess(['eval', '-m', 'recip_rank', '-m', 'capped_recall.1,2', ...args], { cwd: dir });
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /^recip_rank\s+\tall\t0\.5000$/m);
  assert.match(result.stdout, /^capped_recall_1\s+\tall\t0\.0000$/m);
  assert.match(result.stdout, /^capped_recall_2\s+\tall\t1\.0000$/m);
  // The default field 'parent' is not in this corpus: an error, not a silent no-op.
  const noField = runCliProcess(['eval', '-m', 'map', '--parents', 'tables.jsonl', 'db.qrels', 'tables.run'], {
    cwd: dir,
  });
  assert.equal(noField.status, 1);
  assert.match(noField.stderr, /tables\.jsonl:1: expected records naming the document .* in the field 'parent'/);
  const noQueries = runCliProcess(['eval', '--parents', 'corpus.jsonl', '--maxp-type', 'legal', 'qrels', 'run'], {
    cwd: dir,
  });
  assert.equal(noQueries.status, 2);
  assert.match(noQueries.stderr, /--maxp-type selects queries by their type in --queries QUERIES/);
  const unknownType = runCliProcess(
    ['eval', '--parents', 'corpus.jsonl', '--maxp-type', 'clinical', '--queries', 'queries.jsonl', 'qrels', 'run'],
    { cwd: dir },
  );
  assert.equal(unknownType.status, 1);
  assert.match(
    unknownType.stderr,
    /expected queries of type 'clinical' \(--maxp-type\), found the types 'legal', 'table'/,
  );
});

for (const kind of storeKinds)
  test(`--study: the parents and the query types are the ones the study's corpus and queries declare (${kind})`, async () => {
    const kindStore = await cliStore(kind);
    const dir = mixedTasks();
    // The study names its own fields: the chunk's document is in `doc`, the query's task in `kind`.
    kindStore.writeStudy(
      join(dir, 'mixed.assess'),
      `study "mixed" {
  queries "q.jsonl" { id: qid  text: query  type: kind }
  corpus  "c.jsonl" { id: cid  body: text  parent: doc }
  scale ordinal { 0 "No" key "0"  1 "Yes" key "1" }
}
`,
    );
    writeFileSync(
      join(dir, 'q.jsonl'),
      '{"qid":"legal-1","query":"a lease","kind":"legal"}\n{"qid":"table-1","query":"sales","kind":"table"}\n',
    );
    const chunks = [
      ['doc7#0', 'doc7'],
      ['doc7#1', 'doc7'],
      ['doc9#0', 'doc9'],
      ['t1', 'db1'],
      ['t2', 'db1'],
      ['t3', 'db2'],
    ];
    writeFileSync(
      join(dir, 'c.jsonl'),
      chunks.map(([cid, doc]) => `${JSON.stringify({ cid, text: `text of ${cid}`, doc })}\n`).join(''),
    );
    // As with --parents and --queries: legal-1 rolled up (AP 1/2), table-1 as ranked (AP 1/2).
    const viaStudy = kindStore.cli(
      ['eval', '-q', '-m', 'map', '--study', 'mixed.assess', '--maxp-type', 'legal', 'qrels', 'run'],
      { cwd: dir },
    );
    assert.equal(viaStudy.status, 0, viaStudy.stderr);
    assert.equal(viaStudy.stdout, perTask);
    const unread = kindStore.cli(['eval', '--study', 'mixed.assess', 'qrels', 'run'], { cwd: dir });
    assert.equal(unread.status, 2);
    assert.match(unread.stderr, /--study is read for MaxP/);
  });
