import type { StudyFileModel } from '../../dsl/model.ts';
import type { DocumentFormat } from '../../labelling/types.ts';
import type { AnnotatorKind, ProgressCounts, StudiesPort } from '../port/studiesPort.ts';
import type { SyncReport } from '../studyDatabase.ts';
import { ensureAnnotatorId } from './annotators.ts';
import type { SqliteContext } from './sqliteContext.ts';

export class SqliteStudies implements StudiesPort {
  protected readonly context: SqliteContext;
  private statements: ReturnType<SqliteStudies['prepare']> | undefined;

  constructor(context: SqliteContext) {
    this.context = context;
  }

  /** The statements of the reads below, prepared on first use, once per store. */
  private get sql() {
    this.statements ??= this.prepare();
    return this.statements;
  }

  private prepare() {
    const { db } = this.context;
    return {
      studyIdOf: db.prepare('SELECT id FROM study WHERE name = ?').pluck(),
      imported: db
        .prepare(
          'SELECT EXISTS (SELECT 1 FROM pair WHERE study_id = ?) OR EXISTS (SELECT 1 FROM document WHERE study_id = ?)',
        )
        .pluck(),
      pairs: db.prepare('SELECT count(*) FROM pair WHERE study_id = ?').pluck(),
      annotators: db.prepare('SELECT id, name, kind FROM annotator ORDER BY id'),
      // One streaming pass over the judgment index (pair, annotator, time), grouped per pair (the index's order, no
      // sort): each pair's annotators with a judgment that is not retracted, then the pairs counted per list.
      judgedGroups: db
        .prepare(
          `SELECT annotators, count(*) FROM (
             SELECT group_concat(j.annotator_id) AS annotators
             FROM judgment AS j CROSS JOIN pair AS p ON p.id = j.pair_id
             WHERE p.study_id = ? AND j.id NOT IN (SELECT judgment_id FROM judgment_retraction)
             GROUP BY j.pair_id
           ) GROUP BY annotators`,
        )
        .raw(),
      suggested: db
        .prepare(
          'SELECT EXISTS (SELECT 1 FROM suggestion AS sg JOIN pair AS p ON p.id = sg.pair_id WHERE p.study_id = ?)',
        )
        .pluck(),
      byJudge: db
        .prepare(
          `SELECT annotator_id, count(*) FROM (
             SELECT sg.annotator_id, sg.pair_id FROM suggestion AS sg CROSS JOIN pair AS p ON p.id = sg.pair_id
             WHERE p.study_id = @study AND sg.label IS NOT NULL
             UNION
             SELECT j.annotator_id, j.pair_id FROM judgment AS j CROSS JOIN pair AS p ON p.id = j.pair_id
             WHERE p.study_id = @study AND j.id NOT IN (SELECT judgment_id FROM judgment_retraction)
               AND j.annotator_id IN (SELECT annotator_id FROM suggestion)
           ) GROUP BY annotator_id`,
        )
        .raw(),
      onlySuggested: db
        .prepare(
          `SELECT count(DISTINCT sg.pair_id) FROM suggestion AS sg CROSS JOIN pair AS p ON p.id = sg.pair_id
           WHERE p.study_id = ? AND sg.label IS NOT NULL AND NOT EXISTS (
             SELECT 1 FROM judgment AS j WHERE j.pair_id = sg.pair_id
               AND j.id NOT IN (SELECT judgment_id FROM judgment_retraction))`,
        )
        .pluck(),
      assigned: db
        .prepare(
          `SELECT s.annotator_id, count(*) FROM assignment AS s JOIN pair AS p ON p.id = s.pair_id
           WHERE p.study_id = ? GROUP BY s.annotator_id`,
        )
        .raw(),
      model: db.prepare('SELECT model FROM study WHERE id = ?').pluck(),
      pairDocuments: db.prepare(
        `SELECT d.body, d.format
         FROM (SELECT docid, min(id) AS first FROM pair WHERE study_id = ? GROUP BY docid ORDER BY min(id) LIMIT ?) AS p
         JOIN document AS d ON d.study_id = ? AND d.docid = p.docid ORDER BY p.first`,
      ),
      corpusDocuments: db.prepare('SELECT body, format FROM document WHERE study_id = ? ORDER BY id LIMIT ?'),
      queryIds: db.prepare('SELECT qid FROM query WHERE study_id = ?').pluck(),
    };
  }

  async sync(model: StudyFileModel, now?: Date): Promise<SyncReport> {
    const report = this.context.database.syncStudies(model, now);
    this.context.changed({ what: 'studies' });
    return report;
  }

  async studyId(name: string): Promise<number> {
    return this.context.database.studyId(name);
  }

  async ensureAnnotator(name: string, kind?: AnnotatorKind): Promise<number> {
    return ensureAnnotatorId(this.context.db, this.context.file, name, kind);
  }

  async hasImported(name: string): Promise<boolean> {
    const id = this.sql.studyIdOf.get(name) as number | undefined;
    return id !== undefined && this.sql.imported.get(id, id) === 1;
  }

  async progressCounts(name: string): Promise<ProgressCounts> {
    return this.progressCountsNow(name);
  }

  /** progressCounts, synchronously (the adapter's own: the cost test measures it without a promise). */
  progressCountsNow(name: string): ProgressCounts {
    const { db } = this.context;
    const sql = this.sql;
    return db.transaction((): ProgressCounts => {
      const studyId = this.context.database.studyId(name);
      const groups = sql.judgedGroups.all(studyId) as [string, number][];
      const counts: ProgressCounts = {
        pairs: sql.pairs.get(studyId) as number,
        annotators: sql.annotators.all() as ProgressCounts['annotators'],
        judgedGroups: groups.map(([list, pairs]) => ({ annotators: list.split(',').map(Number), pairs })),
        assigned: sql.assigned.all(studyId) as [number, number][],
        model: JSON.parse(sql.model.get(studyId) as string) as unknown,
      };
      if (sql.suggested.get(studyId) === 1) {
        counts.suggestions = {
          byAnnotator: sql.byJudge.all({ study: studyId }) as [number, number][],
          onlySuggested: sql.onlySuggested.get(studyId) as number,
        };
      }
      return counts;
    })();
  }

  async sampleDocuments(name: string, limit: number): Promise<{ body: string; format: DocumentFormat }[]> {
    const { db } = this.context;
    return db.transaction(() => {
      const studyId = this.context.database.studyId(name);
      const rows = this.sql.pairDocuments.all(studyId, limit, studyId) as { body: string; format: DocumentFormat }[];
      if (rows.length > 0) return rows;
      return this.sql.corpusDocuments.all(studyId, limit) as { body: string; format: DocumentFormat }[];
    })();
  }

  async queryIds(name: string): Promise<string[]> {
    return this.sql.queryIds.all(this.context.database.studyId(name)) as string[];
  }
}
