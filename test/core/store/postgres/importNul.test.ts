// A NUL character (U+0000) in imported text, on PostgreSQL (whose text cannot hold one): the import fails with the
// record's place (file:line:col) and the field it was found in, writes nothing (no query, document, pair, judgment or
// import log row, the earlier records of the same import included), leaves no connection held, and the same store
// then imports the file without the NUL. A NUL in a pooled run's ids is refused the same way, named by run and
// query. Metadata keeps a NUL (it is stored as JSON, written \u0000).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseStudyFile, resolveStudies } from '../../../../core/dsl/index.ts';
import { readImport } from '../../../../core/importers/registry.ts';
import type { ImportTarget } from '../../../../core/importers/types.ts';
import { type PoolInput, StoreError } from '../../../../core/store/studyDatabase.ts';
import { scratchDir } from '../../../helpers.ts';
import { openTestStore } from '../../../storeKinds.ts';
import { studyText } from '../../labelling/labellingStudy.ts';

const queries = `${JSON.stringify({ qid: 'q1', query: 'first' })}\n${JSON.stringify({ qid: 'q2', query: 'second' })}\n`;
const corpus = (nul: string) =>
  `${[
    { docid: 'd1', text: 'one' },
    { docid: 'd2', text: 'two', metadata: { note: 'a \u0000 in metadata is kept' } },
    { docid: 'd3', text: `three${nul}` },
  ]
    .map((d) => JSON.stringify(d))
    .join('\n')}\n`;

test('a NUL character in imported text is a positioned error on PostgreSQL and writes nothing', async () => {
  const folder = scratchDir('qrels-studio-pg-nul-');
  const studyFile = join(folder, 's.assess');
  const text = studyText({ extra: '  annotators alice' });
  writeFileSync(studyFile, text);
  const store = await openTestStore('postgres');
  try {
    await store.studies.sync(resolveStudies(parseStudyFile(text), studyFile));
    const importFiles = (
      files: { name: string; target: ImportTarget; content: string; format: string }[],
      pools: PoolInput[] = [],
    ) => {
      for (const file of files) writeFileSync(join(folder, file.name), file.content);
      return store.imports.importBatch(
        's',
        files.map((file) => ({
          records: readImport(join(folder, file.name), {
            target: file.target,
            name: file.name,
            idsCheckedByCaller: true,
            format: file.format,
          }),
          origin: { file: file.name, target: file.target, format: 'auto' },
        })),
        pools,
      );
    };
    const counts = async () =>
      (
        await store.pool.query(
          `SELECT (SELECT count(*) FROM query)::integer AS queries, (SELECT count(*) FROM document)::integer AS documents,
             (SELECT count(*) FROM pair)::integer AS pairs, (SELECT count(*) FROM judgment)::integer AS judgments,
             (SELECT count(*) FROM import_log)::integer AS imports, (SELECT count(*) FROM run)::integer AS runs`,
        )
      ).rows[0];
    const before = await counts();
    const queriesFile = { name: 'queries.jsonl', target: 'queries' as const, content: queries, format: 'jsonl' };
    const cases = [
      {
        files: [
          queriesFile,
          { name: 'corpus.jsonl', target: 'corpus' as const, content: corpus('\u0000'), format: 'jsonl' },
        ],
        message:
          /^corpus\.jsonl:3:\d+: expected text without NUL characters \(PostgreSQL cannot store U\+0000\), found one in the document's body$/,
      },
      {
        files: [
          {
            name: 'queries.jsonl',
            target: 'queries' as const,
            content: `${queries}${JSON.stringify({ qid: 'q\u00003', query: 'third' })}\n`,
            format: 'jsonl',
          },
        ],
        message: /^queries\.jsonl:3:\d+: expected text without NUL .*, found one in the query's query id$/,
      },
      {
        files: [
          queriesFile,
          {
            name: 'labels.csv',
            target: 'labels' as const,
            content: 'query_id,doc_id,annotator,label,rationale\nq1,d1,alice,1,fine\nq2,d1,alice,0,"no\u0000pe"\n',
            format: 'labels',
          },
        ],
        message: /^labels\.csv:3(:\d+)?: expected text without NUL .*, found one in the judgment's rationale$/,
      },
    ];
    // A pooled run's ids (a pool has no lines: the run and the query say where).
    const run = { path: 'run.trec', tag: 'run', depth: 3 };
    const pool = (docid: string): PoolInput => ({
      run,
      queries: new Map([
        ['q1', [{ docid: 'd1', rank: 1 }]],
        ['q2', [{ docid, rank: 1 }]],
      ]),
    });
    for (const { files, pools, message } of [
      ...cases.map((c) => ({ ...c, pools: [] })),
      {
        files: [queriesFile],
        pools: [pool('d\u00002')],
        message:
          /^run\.trec: expected ids without NUL characters \(PostgreSQL cannot store U\+0000\), found one in a document id of query 'q2'$/,
      },
    ]) {
      await assert.rejects(importFiles(files, pools), (error: unknown) => {
        assert.ok(error instanceof StoreError, String(error));
        assert.match(error.message, message);
        return true;
      });
      assert.deepEqual(await counts(), before, 'nothing written');
      assert.equal(store.pool.totalCount - store.pool.idleCount, 0, 'no connection left held');
    }
    // The same files without the NUL go in; a NUL in metadata is kept.
    const report = await importFiles(
      [queriesFile, { name: 'corpus.jsonl', target: 'corpus', content: corpus(''), format: 'jsonl' }],
      [pool('d2')],
    );
    assert.equal(report.documents.added, 3);
    assert.equal(report.pools[0]?.added, 2);
    const metadata = (await store.pool.query(`SELECT metadata FROM document WHERE docid = 'd2'`)).rows[0].metadata;
    assert.match(metadata, /a \\u0000 in metadata is kept/);
  } finally {
    await store.close();
  }
});
