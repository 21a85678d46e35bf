// Qrels per document and per chunk on a real task database of each kind (SQLite, PostgreSQL): chunk labels roll up to their document through the
// corpus's declared `parent` (max, any), document labels spread to every chunk, and a study without chunks says so.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseStudyFile, resolveStudies } from '../../../core/dsl/index.ts';
import type { ImportedRecord } from '../../../core/importers/types.ts';
import { StoreError } from '../../../core/store/studyDatabase.ts';
import { exportQrels } from '../../../core/store/studyExports.ts';
import { scratchDir } from '../../helpers.ts';
import { openTestStore, type StoreKind, storeKinds } from '../../storeKinds.ts';

async function* stream(records: ImportedRecord[]): AsyncIterable<ImportedRecord> {
  yield* records;
}

const at = { file: 'x', line: 1 };

/**
 * Corpus: docA#1..3 (parent docA), docB#1..2 (parent docB), docC#1 (parent docC), docD (no parent: unchunked).
 * alice labels chunks: q1 docA#1 0, docA#2 2 (docA#3 unlabelled), docB#1 1 (docB#2 unlabelled), docC#1 0, docD 1;
 * q2 docA#3 1, docB#2 0.
 * bob labels documents: q1 docA 2, docB 0, docB#2 1 (a chunk of docB labelled itself), docE 1 (in no corpus);
 * q2 docD 1.
 */
async function chunkedStudy(kind: StoreKind, parents = true) {
  const root = scratchDir();
  const store = await openTestStore(kind, { file: join(root, 'study.sqlite') });
  await store.studies.sync(
    resolveStudies(
      parseStudyFile(`study "s" {
  queries "q.jsonl" { id: qid  text: query }
  corpus  "c.jsonl" { id: docid  body: text${parents ? '  parent: doc' : ''} }
  scale ordinal { 0 "No" key "0"  1 "Partly" key "1"  2 "Yes" key "2" }
}
`),
    ),
  );
  const chunk = (docid: string, parent?: string): ImportedRecord => ({
    kind: 'document',
    docid,
    body: `text of ${docid}`,
    format: 'plain',
    ...(parents && parent !== undefined && { parent }),
    metadata: {},
    at,
  });
  await store.imports.importRecords(
    's',
    stream([
      chunk('docA#1', 'docA'),
      chunk('docA#2', 'docA'),
      chunk('docA#3', 'docA'),
      chunk('docB#1', 'docB'),
      chunk('docB#2', 'docB'),
      chunk('docC#1', 'docC'),
      chunk('docD'),
    ]),
    { file: 'c.jsonl', target: 'corpus', format: 'jsonl' },
  );
  const labels = (annotator: string, rows: [string, string, number][]) =>
    store.imports.importRecords(
      's',
      stream(rows.map(([qid, docid, label]) => ({ kind: 'judgment', qid, docid, label, at }) as ImportedRecord)),
      { file: `${annotator}.qrels`, target: 'qrels', format: 'trec-qrels', annotator },
    );
  await labels('alice', [
    ['q1', 'docA#1', 0],
    ['q1', 'docA#2', 2],
    ['q1', 'docB#1', 1],
    ['q1', 'docC#1', 0],
    ['q1', 'docD', 1],
    ['q2', 'docA#3', 1],
    ['q2', 'docB#2', 0],
  ]);
  await labels('bob', [
    ['q1', 'docA', 2],
    ['q1', 'docB', 0],
    ['q1', 'docB#2', 1],
    ['q1', 'docE', 1],
    ['q2', 'docD', 1],
  ]);
  return { store, root, studyId: await store.studies.studyId('s') };
}

for (const kind of storeKinds)
  test(`per document: chunk labels roll up by max (the best chunk) or any (1 when a chunk is ≥ 1) (${kind})`, async () => {
    const { store, root, studyId } = await chunkedStudy(kind);
    try {
      const file = join(root, 'doc.qrels');
      // max: docA = max(0, 2) = 2 (docA#3 unlabelled counts for nothing); docB = 1 (docB#2 unlabelled); docC = 0;
      // docD is no chunk and keeps its 1; q2: docA = 1, docB = 0.
      assert.equal(await exportQrels(store, studyId, 'annotator:alice', file, { per: 'document', rollup: 'max' }), 6);
      assert.equal(
        readFileSync(file, 'utf8'),
        'q1 0 docA 2\nq1 0 docB 1\nq1 0 docC 0\nq1 0 docD 1\nq2 0 docA 1\nq2 0 docB 0\n',
      );
      // any: docA has a chunk labelled 2 → 1; docB 1 → 1; docC only 0 → 0; docD 1; q2 docA 1 → 1, docB 0 → 0.
      assert.equal(await exportQrels(store, studyId, 'annotator:alice', file, { per: 'document', rollup: 'any' }), 6);
      assert.equal(
        readFileSync(file, 'utf8'),
        'q1 0 docA 1\nq1 0 docB 1\nq1 0 docC 0\nq1 0 docD 1\nq2 0 docA 1\nq2 0 docB 0\n',
      );
      // Per pair, as labelled: the 7 chunk labels unchanged.
      assert.equal(await exportQrels(store, studyId, 'annotator:alice', file), 7);
    } finally {
      await store.close();
    }
  });

for (const kind of storeKinds)
  test(`per chunk: a document label goes to each of its chunks; a chunk labelled itself keeps its own (${kind})`, async () => {
    const { store, root, studyId } = await chunkedStudy(kind);
    try {
      const file = join(root, 'chunk.qrels');
      // q1 docA 2 → docA#1..3 2; q1 docB 0 → docB#1 0, but docB#2 keeps bob's own 1; docE has no chunks and is
      // not in the corpus → as is; q2 docD is an unchunked document → as is.
      assert.equal(await exportQrels(store, studyId, 'annotator:bob', file, { per: 'chunk' }), 7);
      assert.equal(
        readFileSync(file, 'utf8'),
        'q1 0 docA#1 2\nq1 0 docA#2 2\nq1 0 docA#3 2\nq1 0 docB#1 0\nq1 0 docB#2 1\nq1 0 docE 1\nq2 0 docD 1\n',
      );
    } finally {
      await store.close();
    }
  });

for (const kind of storeKinds)
  test(`per document or per chunk on a corpus that names no parent is an error saying what to declare (${kind})`, async () => {
    const { store, root, studyId } = await chunkedStudy(kind, false);
    try {
      for (const unit of [{ per: 'document', rollup: 'max' }, { per: 'chunk' }] as const) {
        await assert.rejects(
          async () => exportQrels(store, studyId, 'annotator:alice', join(root, 'x.qrels'), unit),
          (error: unknown) =>
            error instanceof StoreError &&
            new RegExp(`^qrels per ${unit.per} need chunks: no document of the study's corpus names a parent`).test(
              error.message,
            ) &&
            /`parent: FIELD`/.test(error.message),
        );
      }
    } finally {
      await store.close();
    }
  });
