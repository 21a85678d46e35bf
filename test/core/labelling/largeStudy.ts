// A study of a million pairs, built in seconds: rows written with SQL straight into a real task database (synced
// from a real study file through the store, then filled through a second connection), not imported from files. For the scale test of a labelling session and for benchmarks.
//
// Shape: `queries` queries q0…, each with `perQuery` pooled documents; document n is `d<n>` (zero-padded), a chunk
// of parent `p<n / 10>`; pair (q, rank r) names document q·perQuery + r - 1 with best rank r. Pairs are inserted
// rank by rank across the queries (as pooling several runs leaves them), so pair-id order is not the query order.
// Optionally another annotator's judgments and an LLM judge's suggestions on a regular share of the pairs.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseStudyFile, resolveStudies } from '../../../core/dsl/index.ts';
import type { StudyModel } from '../../../core/dsl/model.ts';
import { SqliteStudyStore } from '../../../core/store/sqlite/sqliteStudyStore.ts';
import { locateNativeBinding, openDatabase } from '../../../core/store/sqliteDatabase.ts';
import { studyDatabasePath } from '../../../core/store/studyDatabase.ts';

export interface LargeStudyOptions {
  folder: string;
  /** Native binding folder (dist/native). */
  nativeDir: string;
  queries: number;
  perQuery: number;
  /** Statements inside the study block (annotators, overlap, blind, …). */
  extra?: string;
  /** Every `judgedEvery`-th pair (by pair id, from the first) gets a label by `judgedBy` (a human). */
  judgedEvery?: number;
  judgedBy?: string;
  /** Every `suggestedEvery`-th pair gets a suggestion by `llm:bench@0` with a confidence. */
  suggestedEvery?: number;
}

export interface LargeStudy {
  studyFile: string;
  study: StudyModel;
  store: SqliteStudyStore;
  studyId: number;
  pairs: number;
}

export function largeStudyText(extra = ''): string {
  return `study "large" {
  queries "queries.jsonl" { id: qid  text: query }
  corpus  "corpus.jsonl"  { id: docid  body: text  parent: parent }
  pool    "run.trec" depth 100
  scale ordinal { 0 "No" key "0"  1 "Partly" key "1"  2 "Yes" key "2" }
${extra}
}
`;
}

export async function buildLargeStudy(options: LargeStudyOptions): Promise<LargeStudy> {
  const studyFile = join(options.folder, 'large.assess');
  const text = largeStudyText(options.extra);
  writeFileSync(studyFile, text);
  const model = resolveStudies(parseStudyFile(text), studyFile);
  const nativeBinding = locateNativeBinding(options.nativeDir);
  const store = await SqliteStudyStore.open(studyDatabasePath(studyFile), { nativeBinding });
  await store.studies.sync(model);
  const studyId = await store.studies.studyId('large');
  const db = openDatabase(studyDatabasePath(studyFile), { nativeBinding });
  const pairs = options.queries * options.perQuery;
  const numbers = 'WITH RECURSIVE n (i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < @last)';
  db.transaction(() => {
    db.prepare(
      `${numbers} INSERT INTO query (study_id, qid, text, source)
       SELECT @study, 'q' || i, 'query number ' || i || ' about tables', 'large' FROM n`,
    ).run({ study: studyId, last: options.queries - 1 });
    db.prepare(
      `${numbers} INSERT INTO document (study_id, docid, title, body, format, parent_docid, source)
       SELECT @study, printf('d%08d', i), 'Document ' || i, 'Body of document ' || i || ': a table of results.',
         'plain', printf('p%07d', i / 10), 'large' FROM n`,
    ).run({ study: studyId, last: pairs - 1 });
    // (Parameters are bound as REAL: the integer arithmetic needs them cast.)
    db.prepare(
      `${numbers}, shape (queries, per_query) AS (SELECT CAST(@queries AS INTEGER), CAST(@perQuery AS INTEGER))
       INSERT INTO pair (study_id, qid, docid, best_rank)
       SELECT @study, 'q' || (i % queries), printf('d%08d', (i % queries) * per_query + i / queries), i / queries + 1
       FROM n, shape`,
    ).run({ study: studyId, last: pairs - 1, queries: options.queries, perQuery: options.perQuery });
    if (options.judgedEvery !== undefined) {
      const { id } = db
        .prepare("INSERT INTO annotator (name, kind) VALUES (?, 'human') RETURNING id")
        .get(options.judgedBy ?? 'other') as { id: number };
      db.prepare(
        `INSERT INTO judgment (pair_id, annotator_id, label, created_at, source)
         SELECT id, ?, id % 3, '2026-01-01T00:00:00.000Z', 'imported' FROM pair
         WHERE study_id = ? AND (id - 1) % ? = 0`,
      ).run(id, studyId, options.judgedEvery);
    }
    if (options.suggestedEvery !== undefined) {
      const { id } = db
        .prepare("INSERT INTO annotator (name, kind) VALUES ('llm:bench@0', 'llm') RETURNING id")
        .get() as { id: number };
      db.prepare(
        `INSERT INTO suggestion (pair_id, annotator_id, label, rationale, confidence, created_at)
         SELECT id, ?, (id / 7) % 3, 'because', ((id * 37) % 100) / 100.0, '2026-01-01T00:00:00.000Z' FROM pair
         WHERE study_id = ? AND (id - 1) % ? = 0`,
      ).run(id, studyId, options.suggestedEvery);
    }
  })();
  db.close();
  return { studyFile, study: model.studies[0]!, store, studyId, pairs };
}
