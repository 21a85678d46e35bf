// A child process for the crash and two-writer tests: opens a study database and writes to it, printing each write
// it has seen committed (synchronously, so a SIGKILL right after cannot lose the line). Not a test itself.
//   node storeWorker.ts DB judgments ANNOTATOR COUNT   — COUNT judgments, one transaction each
//   node storeWorker.ts DB import FILE                 — one import of the documents in FILE (JSONL, _id/text)
import { writeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { parseStudyFile, resolveStudies } from '../../../../core/dsl/index.ts';
import type { ImportedRecord } from '../../../../core/importers/types.ts';
import { SqliteStudyStore } from '../../../../core/store/sqlite/sqliteStudyStore.ts';

const [file, mode, ...rest] = process.argv.slice(2);
const nativeBinding = process.env.QRELS_STUDIO_NATIVE_BINDING!;
const study =
  'study "s" {\n  queries "q.jsonl" { id: qid text: q }\n  corpus "c.jsonl" { id: _id body: text }\n  scale ordinal { 0 "No" key "0"  1 "Yes" key "1"  2 "Very" key "2" }\n}\n';

const store = await SqliteStudyStore.open(file!, { nativeBinding });
await store.studies.sync(resolveStudies(parseStudyFile(study)));
writeSync(1, 'ready\n');

if (mode === 'judgments') {
  const [annotator, count] = rest;
  for (let i = 0; i < Number(count); i++) {
    const { id } = await store.labels.addJudgment({
      study: 's',
      qid: `q${i % 50}`,
      docid: `d${i}`,
      annotator: annotator!,
      label: i % 3,
      source: 'manual',
    });
    writeSync(1, `committed ${annotator} ${i} ${id}\n`);
  }
} else if (mode === 'import') {
  const text = await readFile(rest[0]!, 'utf8');
  async function* records(): AsyncIterable<ImportedRecord> {
    let line = 0;
    for (const row of text.split('\n')) {
      line++;
      if (row === '') continue;
      const value = JSON.parse(row) as { _id: string; text: string };
      yield {
        kind: 'document',
        docid: value._id,
        body: value.text,
        format: 'plain',
        metadata: {},
        at: { file: 'c.jsonl', line },
      };
      if (line % 1000 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  }
  const report = await store.imports.importRecords('s', records(), {
    file: 'c.jsonl',
    target: 'corpus',
    format: 'jsonl',
  });
  writeSync(1, `imported ${report.documents.added}\n`);
}
await store.close();
writeSync(1, 'done\n');
