// Sources declared where they live (issue 19, item 10), imported from the study file on real SQLite files: a corpus
// whose records carry their own format (`format: kind`) keeps each record's format on every re-import, queries keep
// their `split`, and a Hugging Face dataset-viewer copy named as the corpus is read as one (by its content).
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseStudyFile, resolveStudies } from '../../../../core/dsl/index.ts';
import { importDeclaredSources } from '../../../../core/store/declaredImport.ts';
import { SqliteStudyStore } from '../../../../core/store/sqlite/sqliteStudyStore.ts';
import { locateNativeBinding, openDatabase } from '../../../../core/store/sqliteDatabase.ts';
import { studyDatabasePath } from '../../../../core/store/studyDatabase.ts';
import { nativeDir, scratchDir } from '../../../helpers.ts';

const nativeBinding = locateNativeBinding(nativeDir);

/**
 * A study folder with `files` written under data/ and the study file `body`; its store synced, and a second
 * connection to its database (`db`) for the rows the tests look at.
 */
async function workspace(body: string, files: Record<string, string>) {
  const folder = scratchDir();
  mkdirSync(join(folder, 'data'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, 'data', name), text);
  const studyFile = join(folder, 's.assess');
  writeFileSync(studyFile, body);
  const parsed = parseStudyFile(body);
  assert.deepEqual(parsed.diagnostics, []);
  const model = resolveStudies(parsed, studyFile);
  const store = await SqliteStudyStore.open(studyDatabasePath(studyFile), { nativeBinding });
  await store.studies.sync(model);
  const db = openDatabase(studyDatabasePath(studyFile), { nativeBinding });
  const close = async () => {
    db.close();
    await store.close();
  };
  return { folder, study: model.studies[0]!, store, db, close };
}

const jsonl = (records: object[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;

test('a corpus whose records carry their own format keeps each one on a re-import; queries keep their split', async () => {
  const { folder, study, store, db, close } = await workspace(
    `study "target" {
  queries "data/q.jsonl" { id: qid  text: question  split: split }
  corpus  "data/tables.jsonl" { id: tid  body: table  format: kind }
  scale binary { 0 "No" key "0"  1 "Yes" key "1" }
}
`,
    {
      'q.jsonl': jsonl([
        { qid: 'q1', question: 'Which county has the most stations?', split: 'test' },
        { qid: 'q2', question: 'Who won in 2008?', split: 'validation' },
      ]),
      'tables.jsonl': jsonl([
        { tid: 't1', table: '| county | stations |\n|---|---|\n| Kent | 4 |', kind: 'markdown' },
        { tid: 't2', table: '<table><tr><td>2008</td><td>Beijing</td></tr></table>', kind: 'html' },
        {
          tid: 't3',
          table: [
            ['year', 'city'],
            ['2008', 'Beijing'],
          ],
          kind: 'json',
        },
      ]),
    },
  );
  const formats = () => db.prepare('SELECT docid, format FROM document ORDER BY docid').raw().all();
  const expected = [
    ['t1', 'markdown'],
    ['t2', 'html'],
    ['t3', 'table-json'],
  ];
  await importDeclaredSources(store, study, folder);
  assert.deepEqual(formats(), expected);
  const again = await importDeclaredSources(store, study, folder);
  assert.deepEqual(again.documents, { added: 0, updated: 0, unchanged: 3 });
  assert.deepEqual(formats(), expected);
  assert.deepEqual(db.prepare('SELECT qid, split FROM query ORDER BY qid').raw().all(), [
    ['q1', 'test'],
    ['q2', 'validation'],
  ]);
  await close();
});

test('a Hugging Face dataset-viewer copy named as the corpus is read as one: ids <source>#<ordinal>', async () => {
  // The copy's shape (test/fixtures/seeds/hf-viewer-arxiv-chunks.txt): name/type line pairs, then a line per column.
  const copy = [
    'text',
    'string',
    'source',
    'string',
    'must have wings (Step 6), and it must be a bird (Step 4)',
    'https://arxiv.org/abs/2505.15817v1',
    'then it has wings. if pet.can_fly is True',
    'https://arxiv.org/abs/2505.15817v1',
    'Table retrieval for generative tasks',
    'https://arxiv.org/abs/2501.00001v1',
    '',
  ].join('\n');
  const { folder, study, store, db, close } = await workspace(
    `study "chunks" {
  queries "data/q.jsonl" { id: qid  text: query }
  corpus  "data/chunks.txt" { body: text }
  scale binary { 0 "No" key "0"  1 "Yes" key "1" }
}
`,
    { 'q.jsonl': jsonl([{ qid: 'q1', query: 'birds that fly' }]), 'chunks.txt': copy },
  );
  const report = await importDeclaredSources(store, study, folder);
  assert.deepEqual(
    report.files.map((f) => [f.file, f.format, f.records]),
    [
      ['data/q.jsonl', 'jsonl', 1],
      ['data/chunks.txt', 'hf-viewer', 3],
    ],
  );
  assert.deepEqual(db.prepare('SELECT docid FROM document ORDER BY docid').pluck().all(), [
    'https://arxiv.org/abs/2501.00001v1#0',
    'https://arxiv.org/abs/2505.15817v1#0',
    'https://arxiv.org/abs/2505.15817v1#1',
  ]);
  await close();
});

test('gold ids listed in the queries file (TARGET) are judgments by gold, of kind gold, at the top of the scale', async () => {
  const { folder, study, store, db, close } = await workspace(
    `study "target" {
  queries "data/q.jsonl" { id: qid  text: question  gold: table_ids }
  corpus  "data/tables.jsonl" { id: tid  body: table  format: json }
  scale ordinal { 0 "No" key "0"  1 "Partly" key "1"  2 "Yes" key "2" }
}
`,
    {
      // q1 needs two tables (a join), q2 one given as a number, q3 none listed.
      'q.jsonl': jsonl([
        { qid: 'q1', question: 'Which singers are older than 40 and in a concert?', table_ids: ['singer', 'concert'] },
        { qid: 'q2', question: 'How many stations are in Kent?', table_ids: [7] },
        { qid: 'q3', question: 'An open question', table_ids: [] },
      ]),
      'tables.jsonl': jsonl([
        { tid: 'singer', table: [['name', 'age']] },
        { tid: 'concert', table: [['id', 'year']] },
        { tid: '7', table: [['county', 'stations']] },
      ]),
    },
  );
  const gold = () =>
    db
      .prepare(
        `SELECT p.qid, p.docid, j.label, a.name, a.label_kind FROM judgment AS j
         JOIN pair AS p ON p.id = j.pair_id JOIN annotator AS a ON a.id = j.annotator_id ORDER BY p.qid, p.docid`,
      )
      .raw()
      .all();
  const expected = [
    ['q1', 'concert', 2, 'gold', 'gold'],
    ['q1', 'singer', 2, 'gold', 'gold'],
    ['q2', '7', 2, 'gold', 'gold'],
  ];
  const first = await importDeclaredSources(store, study, folder);
  assert.equal(first.judgments.added, 3);
  assert.deepEqual(gold(), expected);
  // The gold field is the judgments', not the queries' metadata.
  assert.deepEqual(db.prepare("SELECT metadata FROM query WHERE qid = 'q1'").pluck().get(), null);
  // Importing the study again adds nothing.
  const again = await importDeclaredSources(store, study, folder);
  assert.deepEqual([again.judgments.added, again.judgments.unchanged], [0, 3]);
  assert.deepEqual(gold(), expected);
  await close();
});
