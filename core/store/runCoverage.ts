// What a pooled or scored run names that the study does not hold: documents pooled from a run that are not in the
// study's corpus (a run over another corpus, or ids in another form — `doc1` against `doc1:0` chunks), and whether
// any of a run's query ids is one of the study's queries. The CLI turns these into warnings (core/pooling/
// runWarnings.ts): trec_eval would silently score such a run as retrieving nothing relevant.
import { notInCorpusWarning } from '../pooling/runWarnings.ts';
import type { PoolReport, StudyDatabase } from './studyDatabase.ts';

/** Documents a pooled run brought into the study that its corpus lacks: how many, and the first few by id. */
export function pooledDocumentsNotInCorpus(
  database: StudyDatabase,
  studyName: string,
  runPath: string,
  examples = 3,
): { corpusSize: number; missing: number; examples: string[] } {
  const { db } = database;
  const studyId = database.studyId(studyName);
  const corpusSize = db.prepare('SELECT count(*) FROM document WHERE study_id = ?').pluck().get(studyId) as number;
  const missingSql = `
    SELECT DISTINCT p.docid FROM pair_origin AS o
    JOIN run AS r ON r.id = o.run_id JOIN pair AS p ON p.id = o.pair_id
    WHERE r.study_id = ? AND r.path = ?
      AND NOT EXISTS (SELECT 1 FROM document AS d WHERE d.study_id = r.study_id AND d.docid = p.docid)`;
  const missing = db.prepare(`SELECT count(*) FROM (${missingSql})`).pluck().get(studyId, runPath) as number;
  const first = db
    .prepare(`${missingSql} ORDER BY p.docid LIMIT ?`)
    .pluck()
    .all(studyId, runPath, examples) as string[];
  return { corpusSize, missing, examples: first };
}

/** The study's query ids (for a run's: does any match?). */
export function studyQueryIds(database: StudyDatabase, studyName: string): Set<string> {
  const statement = database.db.prepare('SELECT qid FROM query WHERE study_id = ?').pluck();
  return new Set(statement.all(database.studyId(studyName)) as string[]);
}

/** The warnings of an import's or a pool's runs: each run's pooled documents the corpus lacks. */
export function poolWarnings(database: StudyDatabase, studyName: string, pools: readonly PoolReport[]): string[] {
  return pools.flatMap((pool) => {
    const warning = notInCorpusWarning(pool.run, pooledDocumentsNotInCorpus(database, studyName, pool.run));
    return warning === undefined ? [] : [warning];
  });
}
