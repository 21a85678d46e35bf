// The studies of a study file in PostgreSQL (core/store/port/studiesPort.ts): the same statements and answers as
// core/store/sqlite/sqliteStudies.ts and StudyDatabase.syncStudies, each method one transaction. Where SQLite's
// answer comes out in an index's order without an ORDER BY, the order is written out here (PostgreSQL promises none).
import type { StudyFileModel } from '../../dsl/model.ts';
import type { DocumentFormat } from '../../labelling/types.ts';
import { refuseScaleRemoval } from '../importChecks.ts';
import type { AnnotatorKind, ProgressCounts, StudiesPort } from '../port/studiesPort.ts';
import { StoreError, type SyncReport } from '../studyDatabase.ts';
import { lockInSchema } from './advisoryLocks.ts';
import { ensureAnnotatorId } from './annotators.ts';
import { maySyncStudies, teamSync } from './grants/teamSync.ts';
import type { PostgresClient, PostgresContext } from './postgresContext.ts';

/** The id of study (or review) `name` in the caller's transaction; a StoreError naming the known ones when none. */
export async function studyIdIn(client: PostgresClient, location: string, name: string): Promise<number> {
  const { rows } = await client.query<{ id: number }>('SELECT id FROM study WHERE name = $1', [name]);
  if (rows[0] !== undefined) return rows[0].id;
  const known = await client.query<{ name: string }>('SELECT name FROM study ORDER BY name');
  const names = known.rows.map((row) => row.name).join(', ');
  throw new StoreError(`no study '${name}' in ${location} (it has: ${names || 'none'})`);
}

export class PostgresStudies implements StudiesPort {
  protected readonly context: PostgresContext;

  constructor(context: PostgresContext) {
    this.context = context;
  }

  async sync(model: StudyFileModel, now: Date = new Date()): Promise<SyncReport> {
    let wrote = true;
    const report = await this.context.transaction(async (client) => {
      // A team member's role (store grant) syncs read-only: the study's definition is its owner's.
      wrote = await maySyncStudies(client);
      if (!wrote) return teamSync(client, this.context.location, model);
      const report: SyncReport = { studies: [], addedScaleValues: {} };
      await lockInSchema(client, 'sync');
      // A study no longer in the file that has judgments (renamed, removed): its judgments would be orphaned.
      const named = new Set([...model.studies, ...model.reviews].map((s) => s.name));
      const judged = await client.query<{ name: string; judgments: number }>(
        `SELECT s.name, count(*) AS judgments FROM study AS s JOIN pair AS p ON p.study_id = s.id
         JOIN judgment AS j ON j.pair_id = p.id
         WHERE NOT EXISTS (SELECT 1 FROM judgment_retraction AS r WHERE r.judgment_id = j.id)
         GROUP BY s.id ORDER BY s.name`,
      );
      for (const { name, judgments } of judged.rows) {
        if (named.has(name)) continue;
        throw new StoreError(
          `study '${name}' is no longer in the study file but has ${judgments} judgment${judgments === 1 ? '' : 's'} ` +
            'in its database: rename it back (or export its labels with the old file first)',
        );
      }
      for (const study of [...model.studies, ...model.reviews]) {
        // Updated when known, else added: an INSERT … ON CONFLICT would spend an identity value on every known study
        // at every sync, and the next new study's id would no longer be SQLite's. (Syncs hold the lock above.)
        const values = [study.name, study.kind, JSON.stringify(study), now.toISOString()];
        let upserted = await client.query<{ id: number }>(
          'UPDATE study SET kind = $2, model = $3, synced_at = $4 WHERE name = $1 RETURNING id',
          values,
        );
        if (upserted.rows.length === 0) {
          upserted = await client.query<{ id: number }>(
            'INSERT INTO study (name, kind, model, synced_at) VALUES ($1, $2, $3, $4) RETURNING id',
            values,
          );
        }
        const id = upserted.rows[0]!.id;
        report.studies.push(study.name);
        if (study.kind !== 'study') continue;
        const scale = await client.query<{ value: number }>('SELECT value FROM scale_value WHERE study_id = $1', [id]);
        const before = new Set(scale.rows.map((row) => row.value));
        const entries = study.scale?.entries ?? [];
        const after = new Set(entries.map((entry) => entry.value));
        for (const value of before) {
          if (after.has(value)) continue;
          const users = (
            await client.query<{ qid: string; docid: string; annotator: string }>(
              `SELECT p.qid, p.docid, a.name AS annotator, j.created_at
               FROM current_judgment AS j JOIN pair AS p ON p.id = j.pair_id JOIN annotator AS a ON a.id = j.annotator_id
               WHERE p.study_id = $1 AND j.label = $2 ORDER BY p.qid, p.docid, j.annotator_id LIMIT 6`,
              [id, value],
            )
          ).rows;
          refuseScaleRemoval(study.name, value, users);
          await client.query('DELETE FROM scale_value WHERE study_id = $1 AND value = $2', [id, value]);
        }
        for (const entry of entries) {
          await client.query(
            `INSERT INTO scale_value (study_id, value, label, key, description) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (study_id, value) DO UPDATE SET label = excluded.label, key = excluded.key,
               description = excluded.description`,
            [id, entry.value, entry.label, entry.key, entry.description ?? null],
          );
        }
        const added = entries.map((e) => e.value).filter((value) => !before.has(value));
        if (added.length > 0) report.addedScaleValues[study.name] = added;
      }
      await this.context.notify(client, { what: 'studies' });
      return report;
    });
    if (wrote) this.context.changed({ what: 'studies' });
    return report;
  }

  async studyId(name: string): Promise<number> {
    return this.context.transaction((client) => studyIdIn(client, this.context.location, name), { readOnly: true });
  }

  async ensureAnnotator(name: string, kind?: AnnotatorKind): Promise<number> {
    return this.context.transaction((client) => ensureAnnotatorId(client, this.context.location, name, kind));
  }

  async hasImported(name: string): Promise<boolean> {
    const { rows } = await this.context.query<{ imported: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM pair WHERE study_id = s.id) OR EXISTS (SELECT 1 FROM document WHERE study_id = s.id)
         AS imported
       FROM study AS s WHERE s.name = $1`,
      [name],
    );
    return rows[0]?.imported === true;
  }

  async progressCounts(name: string): Promise<ProgressCounts> {
    // One snapshot for every count, so that they agree with each other.
    return this.context.transaction(
      async (client): Promise<ProgressCounts> => {
        const studyId = await studyIdIn(client, this.context.location, name);
        // Each pair's annotators with a judgment that is not retracted, in the judgment index's order (annotator,
        // time) as SQLite lists them; then the pairs counted per list, in the list's byte order as SQLite groups.
        const groups = await client.query<[string, number]>({
          text: `SELECT annotators, count(*) FROM (
                   SELECT string_agg(j.annotator_id::text, ',' ORDER BY j.annotator_id, j.created_at) AS annotators
                   FROM judgment AS j JOIN pair AS p ON p.id = j.pair_id
                   WHERE p.study_id = $1 AND NOT EXISTS (SELECT 1 FROM judgment_retraction AS r WHERE r.judgment_id = j.id)
                   GROUP BY j.pair_id
                 ) AS judged GROUP BY annotators ORDER BY annotators COLLATE "C"`,
          values: [studyId],
          rowMode: 'array',
        });
        const pairs = await client.query<{ count: number }>('SELECT count(*) FROM pair WHERE study_id = $1', [studyId]);
        const annotators = await client.query<ProgressCounts['annotators'][number]>(
          'SELECT id, name, kind FROM annotator ORDER BY id',
        );
        const assigned = await client.query<[number, number]>({
          text: `SELECT s.annotator_id, count(*) FROM assignment AS s JOIN pair AS p ON p.id = s.pair_id
                 WHERE p.study_id = $1 GROUP BY s.annotator_id ORDER BY s.annotator_id`,
          values: [studyId],
          rowMode: 'array',
        });
        const model = await client.query<{ model: string }>('SELECT model FROM study WHERE id = $1', [studyId]);
        const counts: ProgressCounts = {
          pairs: pairs.rows[0]!.count,
          annotators: annotators.rows,
          judgedGroups: groups.rows.map(([list, pairs]) => ({ annotators: list.split(',').map(Number), pairs })),
          assigned: assigned.rows,
          model: JSON.parse(model.rows[0]!.model) as unknown,
        };
        const suggested = await client.query<{ suggested: boolean }>(
          `SELECT EXISTS (SELECT 1 FROM suggestion AS sg JOIN pair AS p ON p.id = sg.pair_id WHERE p.study_id = $1)
             AS suggested`,
          [studyId],
        );
        if (suggested.rows[0]!.suggested) {
          const byJudge = await client.query<[number, number]>({
            text: `SELECT annotator_id, count(*) FROM (
                     SELECT sg.annotator_id, sg.pair_id FROM suggestion AS sg JOIN pair AS p ON p.id = sg.pair_id
                     WHERE p.study_id = $1 AND sg.label IS NOT NULL
                     UNION
                     SELECT j.annotator_id, j.pair_id FROM judgment AS j JOIN pair AS p ON p.id = j.pair_id
                     WHERE p.study_id = $1 AND NOT EXISTS (SELECT 1 FROM judgment_retraction AS r WHERE r.judgment_id = j.id)
                       AND j.annotator_id IN (SELECT annotator_id FROM suggestion)
                   ) AS judged GROUP BY annotator_id ORDER BY annotator_id`,
            values: [studyId],
            rowMode: 'array',
          });
          const onlySuggested = await client.query<{ count: number }>(
            `SELECT count(DISTINCT sg.pair_id) FROM suggestion AS sg JOIN pair AS p ON p.id = sg.pair_id
             WHERE p.study_id = $1 AND sg.label IS NOT NULL AND NOT EXISTS (
               SELECT 1 FROM judgment AS j WHERE j.pair_id = sg.pair_id
                 AND NOT EXISTS (SELECT 1 FROM judgment_retraction AS r WHERE r.judgment_id = j.id))`,
            [studyId],
          );
          counts.suggestions = { byAnnotator: byJudge.rows, onlySuggested: onlySuggested.rows[0]!.count };
        }
        return counts;
      },
      { isolation: 'repeatable read', readOnly: true },
    );
  }

  async sampleDocuments(name: string, limit: number): Promise<{ body: string; format: DocumentFormat }[]> {
    return this.context.transaction(
      async (client) => {
        const studyId = await studyIdIn(client, this.context.location, name);
        const pairDocuments = await client.query<{ body: string; format: DocumentFormat }>(
          `SELECT d.body, d.format
           FROM (SELECT docid, min(id) AS first FROM pair WHERE study_id = $1 GROUP BY docid ORDER BY min(id) LIMIT $2) AS p
           JOIN document AS d ON d.study_id = $1 AND d.docid = p.docid
           ORDER BY p.first`,
          [studyId, limit],
        );
        if (pairDocuments.rows.length > 0) return pairDocuments.rows;
        const corpus = await client.query<{ body: string; format: DocumentFormat }>(
          'SELECT body, format FROM document WHERE study_id = $1 ORDER BY id LIMIT $2',
          [studyId, limit],
        );
        return corpus.rows;
      },
      { isolation: 'repeatable read', readOnly: true },
    );
  }

  async queryIds(name: string): Promise<string[]> {
    return this.context.transaction(
      async (client) => {
        const studyId = await studyIdIn(client, this.context.location, name);
        // SQLite reads them through the (study, qid) index: in qid order.
        const { rows } = await client.query<{ qid: string }>('SELECT qid FROM query WHERE study_id = $1 ORDER BY qid', [
          studyId,
        ]);
        return rows.map((row) => row.qid);
      },
      { readOnly: true },
    );
  }
}
