// A labelling fixture's study "s" (test/core/labelling/labellingStudy.ts) put into any store through its own port —
// synced, queries and documents imported, the run pooled — so the same study can be seeded into SQLite and
// PostgreSQL alike.
import { join } from 'node:path';
import { parseStudyFile, resolveStudies } from '../../../../core/dsl/index.ts';
import type { ImportedRecord } from '../../../../core/importers/types.ts';
import type { StudyStore } from '../../../../core/store/studyStore.ts';
import { scratchDir } from '../../../helpers.ts';
import { fixtureRecords, type LabellingStudyOptions, studyText } from '../../labelling/labellingStudy.ts';

async function* each(list: ImportedRecord[]): AsyncIterable<ImportedRecord> {
  yield* list;
}

/** Study "s" of `options` in `store`, through its port: synced, queries and documents imported, the run pooled. */
export async function seedStudy(store: StudyStore, options: LabellingStudyOptions) {
  const model = resolveStudies(parseStudyFile(studyText(options)), join(scratchDir(), 's.assess'));
  await store.studies.sync(model);
  const records = fixtureRecords(options);
  await store.imports.importBatch('s', [
    { records: each(records), origin: { file: 'fixture', target: 'x', format: 'x' } },
  ]);
  const queries = new Map(
    Object.entries(options.ranking).map(([qid, docids]) => [qid, docids.map((docid, i) => ({ docid, rank: i + 1 }))]),
  );
  const depth = Math.max(1, ...Object.values(options.ranking).map((docids) => docids.length));
  await store.imports.addPool('s', { run: { path: 'run.trec', tag: 'run', depth }, queries });
  return { study: model.studies[0]!, studyId: await store.studies.studyId('s') };
}
