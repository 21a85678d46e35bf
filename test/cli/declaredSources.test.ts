// Sources declared where they live (issue 19, item 10), through the CLI on real files: a study naming a Hugging
// Face dataset-viewer copy (`from hf-viewer`, no id: the copy has none) and a Parquet corpus lints clean and
// imports; a misspelt field of either is found in its columns. Each import is into a study of either store kind
// (cliStore.ts).
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { runCliProcess, scratchDir } from '../helpers.ts';
import { storeKinds } from '../storeKinds.ts';
import { type CliStore, cliStore } from './cliStore.ts';

/** Lines in the shape of test/fixtures/seeds/hf-viewer-arxiv-chunks.txt: name/type pairs, a line per column. */
const viewerCopy = [
  'text',
  'string',
  'source',
  'string',
  'must have wings (Step 6), and it must be a bird (Step 4)',
  'https://arxiv.org/abs/2505.15817v1',
  'then it has wings. if pet.can_fly is True',
  'https://arxiv.org/abs/2505.15817v1',
  '',
].join('\n');

/** The store of each workspace that has one (its study file's record); SQLite for the others. */
const workspaceStores = new Map<string, CliStore>();

function workspace(corpus: string, store?: CliStore): string {
  const root = scratchDir();
  if (store !== undefined) workspaceStores.set(root, store);
  mkdirSync(join(root, 'data'));
  writeFileSync(join(root, 'data', 'q.jsonl'), '{"qid": "q1", "query": "birds that fly", "split": "test"}\n');
  writeFileSync(join(root, 'data', 'chunks.txt'), viewerCopy);
  writeFileSync(
    join(root, 'data', 'tables.parquet'),
    new Uint8Array(
      parquetWriteBuffer({
        columnData: [
          { name: 'tid', data: ['t1', 't2'], type: 'STRING' },
          { name: 'table', data: ['| a |\n|---|\n| 1 |', '<table><tr><td>2</td></tr></table>'], type: 'STRING' },
          { name: 'kind', data: ['markdown', 'html'], type: 'STRING' },
        ],
      }),
    ),
  );
  const study = `study "s" {
  queries "data/q.jsonl" { id: qid  text: query  split: split }
  ${corpus}
  scale binary { 0 "No" key "0"  1 "Yes" key "1" }
}
`;
  writeFileSync(join(root, 's.assess'), store === undefined ? study : store.study(study));
  return root;
}

const cli = (cwd: string, ...args: string[]) => runCliProcess(args, { cwd, env: workspaceStores.get(cwd)?.env ?? {} });

for (const kind of storeKinds)
  test(`a viewer copy declared \`from hf-viewer\` needs no id: the study lints clean and imports its chunks (${kind})`, async () => {
    const root = workspace('corpus "data/chunks.txt" from hf-viewer { body: text }', await cliStore(kind));
    const lint = cli(root, 'lint', 's.assess');
    assert.equal(lint.status, 0, lint.stdout + lint.stderr);
    const imported = cli(root, 'import', 's.assess');
    assert.equal(imported.status, 0, imported.stderr);
    assert.match(imported.stdout, /chunks\.txt.*hf-viewer/);
    assert.match(imported.stdout, /2 documents|documents: 2|2 added/);
  });

test('the copy’s columns are its fields: a misspelt one is an unknown field with the columns offered', () => {
  const root = workspace('corpus "data/chunks.txt" from hf-viewer { body: txt }');
  const lint = cli(root, 'lint', 's.assess');
  assert.equal(lint.status, 1);
  assert.match(
    lint.stdout + lint.stderr,
    /s\.assess:3:51: error \[unknown-field\] field 'txt' is not in data\/chunks\.txt \(its fields: text, source\); did you mean 'text'\?/,
  );
});

for (const kind of storeKinds)
  test(`a Parquet corpus with per-record formats lints clean (its columns are its fields) and imports (${kind})`, async () => {
    const root = workspace('corpus "data/tables.parquet" { id: tid  body: table  format: kind }', await cliStore(kind));
    const lint = cli(root, 'lint', 's.assess');
    assert.equal(lint.status, 0, lint.stdout + lint.stderr);
    const imported = cli(root, 'import', 's.assess');
    assert.equal(imported.status, 0, imported.stderr);
    assert.match(imported.stdout, /tables\.parquet.*parquet/);
    const misspelt = workspace('corpus "data/tables.parquet" { id: tid  body: tabel }');
    const bad = cli(misspelt, 'lint', 's.assess');
    assert.equal(bad.status, 1);
    assert.match(
      bad.stdout + bad.stderr,
      /\[unknown-field\] field 'tabel' is not in data\/tables\.parquet \(its fields: tid, table, kind\); did you mean 'table'\?/,
    );
  });

test('lint names a viewer copy for what it is (a warning, exit 0), not "1 column, unknown"', () => {
  const root = workspace('corpus "data/chunks.txt" from hf-viewer { body: text }');
  const lint = cli(root, 'lint', 'data/chunks.txt');
  assert.equal(lint.status, 0, lint.stdout + lint.stderr);
  assert.match(
    lint.stdout + lint.stderr,
    /data\/chunks\.txt:1:1: warning \[unsupported-format\] this is a Hugging Face dataset-viewer copy \(columns text, source\), a corpus or queries file/,
  );
});

for (const kind of storeKinds)
  test(`pool warns about pooled documents the corpus lacks; judged about a run whose query ids match no study query (${kind})`, async () => {
    const root = workspace('corpus "data/corpus.jsonl" { id: did  body: text }', await cliStore(kind));
    writeFileSync(join(root, 'data', 'corpus.jsonl'), '{"did": "d1", "text": "one"}\n{"did": "d2", "text": "two"}\n');
    assert.equal(cli(root, 'import', 's.assess').status, 0);
    // A run over chunk ids (d1:0) where the corpus holds documents (d1): 3 of its 4 pooled documents are unknown.
    writeFileSync(
      join(root, 'run.trec'),
      'q1 Q0 d1 1 9 bm25\nq1 Q0 d1:0 2 8 bm25\nq1 Q0 d1:1 3 7 bm25\nq1 Q0 d2:0 4 6 bm25\n',
    );
    const pool = cli(root, 'pool', 's.assess', '--run', 'run.trec', '--depth', '10');
    assert.equal(pool.status, 0, pool.stderr);
    assert.equal(
      pool.stderr,
      "warning: run.trec: 3 pooled documents are not in the corpus ('d1:0', 'd1:1', 'd2:0'): they are pooled but " +
        'cannot be shown to annotators; is the run over another corpus, or are its ids in another form?\n',
    );
    // Query ids numbered 1, 2 against a study whose query is q1: judged@k is over queries the study lacks.
    writeFileSync(join(root, 'numbered.trec'), '1 Q0 d1 1 9 e5\n2 Q0 d2 1 9 e5\n');
    const judged = cli(root, 'judged', 's.assess', '--run', 'numbered.trec', '--k', '1');
    assert.equal(judged.status, 0, judged.stderr);
    assert.match(
      judged.stderr,
      /^warning: numbered\.trec: none of its 2 query ids \('1', '2'\) is a query of the study \('q1'\)/,
    );
    const matching = cli(root, 'judged', 's.assess', '--run', 'run.trec', '--k', '1');
    assert.equal(matching.stderr, '');
  });
