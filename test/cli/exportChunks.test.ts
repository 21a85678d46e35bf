// `qrels-studio export --per document|chunk` on a small chunked study, as users run it (real process, a real record
// of either store kind: cliStore.ts): chunk labels roll up to their documents through the corpus's declared `parent`
// (max, any), and document labels spread to each of their chunks (CRUMB: all chunks of a relevant document are
// relevant).
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCliProcess, scratchDir } from '../helpers.ts';
import { storeKinds } from '../storeKinds.ts';
import { type CliStore, cliStore } from './cliStore.ts';

/** The store of each workspace (its study file's record). */
const workspaceStores = new Map<string, CliStore>();

/**
 * Two documents cut into chunks (`heatpump#1..3`, `pv#1..2`) and one that is not (`wind`, parent null).
 * alice labels chunks: q1 heatpump#1 0, heatpump#2 2 (heatpump#3 unlabelled), pv#1 0, wind 1; q2 pv#2 1.
 * bob labels documents: q1 heatpump 1, pv 0; q2 pv 2.
 */
function chunkedStudy(store: CliStore, extra = ''): string {
  const root = scratchDir();
  workspaceStores.set(root, store);
  mkdirSync(join(root, 'data'));
  store.writeStudy(
    join(root, 'energy.assess'),
    `study "energy" {
  queries "data/queries.jsonl" { id: qid  text: query }
  corpus  "data/corpus.jsonl"  { id: doc_id  body: text  parent: parent }
  scale ordinal { 0 "No" key "0"  1 "Partly" key "1"  2 "Yes" key "2" }
  import qrels "alice.qrels" as alice
  import qrels "bob.qrels" as bob
${extra}}
`,
  );
  writeFileSync(
    join(root, 'data', 'queries.jsonl'),
    '{"qid": "q1", "query": "heat pumps in the cold"}\n{"qid": "q2", "query": "perovskite stability"}\n',
  );
  const chunks: [string, string | undefined][] = [
    ['heatpump#1', 'heatpump'],
    ['heatpump#2', 'heatpump'],
    ['heatpump#3', 'heatpump'],
    ['pv#1', 'pv'],
    ['pv#2', 'pv'],
    ['wind', undefined],
  ];
  writeFileSync(
    join(root, 'data', 'corpus.jsonl'),
    chunks
      .map(([id, parent]) => `${JSON.stringify({ doc_id: id, text: `text of ${id}`, parent: parent ?? null })}\n`)
      .join(''),
  );
  writeFileSync(
    join(root, 'alice.qrels'),
    'q1 0 heatpump#1 0\nq1 0 heatpump#2 2\nq1 0 pv#1 0\nq1 0 wind 1\nq2 0 pv#2 1\n',
  );
  writeFileSync(join(root, 'bob.qrels'), 'q1 0 heatpump 1\nq1 0 pv 0\nq2 0 pv 2\n');
  const imported = store.cli(['import', 'energy.assess'], { cwd: root });
  assert.equal(imported.status, 0, imported.stderr);
  return root;
}

function cli(cwd: string, ...args: string[]) {
  const result = runCliProcess(args, { cwd, env: workspaceStores.get(cwd)?.env ?? {} });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

for (const kind of storeKinds)
  test(`export --per document rolls chunk labels up to their documents: by max, or by any (${kind})`, async () => {
    const root = chunkedStudy(await cliStore(kind));
    // max: heatpump = max(0, 2) = 2 (heatpump#3 has no label and counts for nothing); pv = 0; wind (no chunks) 1;
    // q2: pv = 1.
    const max = cli(
      root,
      'export',
      'energy.assess',
      '--qrels',
      'max.qrels',
      '--from',
      'annotator:alice',
      '--per',
      'document',
    );
    assert.equal(max.status, 0, max.stderr);
    assert.equal(max.stdout, 'max.qrels: 4 judgments (annotator:alice, per document by max)\n');
    assert.equal(readFileSync(join(root, 'max.qrels'), 'utf8'), 'q1 0 heatpump 2\nq1 0 pv 0\nq1 0 wind 1\nq2 0 pv 1\n');
    // any, binary: heatpump has a chunk ≥ 1 → 1; pv's only chunk is 0 → 0; wind 1; q2 pv 1. Two outputs pair with
    // their --per and --rollup in order; the second is as labelled.
    const any = cli(
      root,
      'export',
      'energy.assess',
      '--from',
      'annotator:alice',
      '--qrels',
      'any.qrels',
      '--per',
      'document',
      '--rollup',
      'any',
      '--qrels',
      'pairs.qrels',
      '--per',
      'pair',
    );
    assert.equal(any.status, 0, any.stderr);
    assert.equal(readFileSync(join(root, 'any.qrels'), 'utf8'), 'q1 0 heatpump 1\nq1 0 pv 0\nq1 0 wind 1\nq2 0 pv 1\n');
    assert.equal(
      readFileSync(join(root, 'pairs.qrels'), 'utf8'),
      'q1 0 heatpump#1 0\nq1 0 heatpump#2 2\nq1 0 pv#1 0\nq1 0 wind 1\nq2 0 pv#2 1\n',
    );
  });

for (const kind of storeKinds)
  test(`export --per chunk gives each document label to every chunk of the document (${kind})`, async () => {
    const root = chunkedStudy(await cliStore(kind));
    // q1 heatpump 1 → heatpump#1, #2, #3 1; q1 pv 0 → pv#1, pv#2 0; q2 pv 2 → pv#1, pv#2 2.
    const chunk = cli(
      root,
      'export',
      'energy.assess',
      '--qrels',
      'chunk.qrels',
      '--from',
      'annotator:bob',
      '--per',
      'chunk',
    );
    assert.equal(chunk.status, 0, chunk.stderr);
    assert.equal(chunk.stdout, 'chunk.qrels: 7 judgments (annotator:bob, per chunk from document labels)\n');
    assert.equal(
      readFileSync(join(root, 'chunk.qrels'), 'utf8'),
      'q1 0 heatpump#1 1\nq1 0 heatpump#2 1\nq1 0 heatpump#3 1\nq1 0 pv#1 0\nq1 0 pv#2 0\nq2 0 pv#1 2\nq2 0 pv#2 2\n',
    );
  });

for (const kind of storeKinds)
  test(`--per and --rollup: an unknown value, --rollup without --per document, or without --qrels are usage errors (${kind})`, async () => {
    const root = chunkedStudy(await cliStore(kind));
    const base = ['export', 'energy.assess', '--qrels', 'x.qrels', '--from', 'annotator:alice'];
    const unknown = cli(root, ...base, '--per', 'paragraph');
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /--per takes pair, document, chunk, not 'paragraph'/);
    const rule = cli(root, ...base, '--per', 'document', '--rollup', 'mean');
    assert.equal(rule.status, 2);
    assert.match(rule.stderr, /--rollup takes max, any, not 'mean'/);
    const alone = cli(root, ...base, '--rollup', 'any');
    assert.equal(alone.status, 2);
    assert.match(alone.stderr, /--rollup says how chunk labels make a document label: it needs --per document/);
    const noQrels = cli(root, 'export', 'energy.assess', '--labels', 'l.csv', '--per', 'document');
    assert.equal(noQrels.status, 2);
    assert.match(noQrels.stderr, /--per applies to --qrels outputs/);
  });

for (const kind of storeKinds)
  test(`the study's own \`export qrels … per document\` is written by max when export names no output (${kind})`, async () => {
    const root = chunkedStudy(await cliStore(kind), '  export qrels "qrels/doc.qrels" from majority per document\n');
    // majority per pair is each pair's one label (alice labelled chunks, bob documents); per document by max, a
    // document's own label counting with its chunks': q1 heatpump max(0, 2, bob's 1) = 2; pv max(0, bob's 0) = 0;
    // wind 1; q2 pv max(alice's pv#2 1, bob's 2) = 2.
    const declared = cli(root, 'export', 'energy.assess');
    assert.equal(declared.status, 0, declared.stderr);
    assert.match(declared.stdout, /^qrels\/doc\.qrels: 4 judgments \(majority, per document by max\)$/m);
    assert.equal(
      readFileSync(join(root, 'qrels', 'doc.qrels'), 'utf8'),
      'q1 0 heatpump 2\nq1 0 pv 0\nq1 0 wind 1\nq2 0 pv 2\n',
    );
  });

for (const kind of storeKinds)
  test(`the study's own \`export qrels … per document by any\` and \`… per chunk\` are written when export names no output (${kind})`, async () => {
    const root = chunkedStudy(
      await cliStore(kind),
      '  export qrels "qrels/any.qrels" from majority per document by any\n' +
        '  export qrels "qrels/chunk.qrels" from majority per chunk\n',
    );
    const declared = cli(root, 'export', 'energy.assess');
    assert.equal(declared.status, 0, declared.stderr);
    // by any: q1 heatpump has chunk #2 at 2 (and bob's own 1) → 1; pv: pv#1 0 and bob's 0 → 0; wind 1; q2 pv: pv#2 1
    // and bob's 2 → 1.
    assert.match(declared.stdout, /^qrels\/any\.qrels: 4 judgments \(majority, per document by any\)$/m);
    assert.equal(
      readFileSync(join(root, 'qrels', 'any.qrels'), 'utf8'),
      'q1 0 heatpump 1\nq1 0 pv 0\nq1 0 wind 1\nq2 0 pv 1\n',
    );
    // per chunk: a document's label goes to its chunks that have none of their own — q1 heatpump 1 → heatpump#3;
    // q1 pv 0 → pv#2; q2 pv 2 → pv#1 — and the chunks' own labels and wind (no chunks) stay.
    assert.match(declared.stdout, /^qrels\/chunk\.qrels: 8 judgments \(majority, per chunk from document labels\)$/m);
    assert.equal(
      readFileSync(join(root, 'qrels', 'chunk.qrels'), 'utf8'),
      'q1 0 heatpump#1 0\nq1 0 heatpump#2 2\nq1 0 heatpump#3 1\nq1 0 pv#1 0\nq1 0 pv#2 0\nq1 0 wind 1\n' +
        'q2 0 pv#1 2\nq2 0 pv#2 1\n',
    );
  });
