// The labelling part of the PostgreSQL adapter (port/labelsPort.ts): every read and write of a Label view, each one
// transaction, answering exactly what the SQLite adapter (core/store/sqlite/sqliteLabels.ts) answers. What this
// backend adds is concurrency — many annotators' processes on one record:
// - assignment takes the study's advisory lock (advisoryLocks.ts: this schema, 'study', its id) before it reads which pairs are
//   unassigned, so two sessions opening at the same second never both hand out a pair (`overlap k` holds);
// - a commit takes its pair's advisory lock ('label', pair id) before it reads the annotator's latest
//   judgment of it, so two commits of one pair by one annotator (two windows) are stamped one after the other instead
//   of colliding on the (pair, annotator, time) key; other pairs do not wait on each other. An advisory lock rather
//   than a row lock: it needs no UPDATE right on `pair` (an annotator's database role has none) and writes nothing;
// - a retraction is an INSERT … ON CONFLICT DO NOTHING: retracted once, whoever retracts at the same time.
// SQL: labels/labelStatements.ts (per pair) and labels/labelQueueSql.ts (queues, progress, assignment).

import type { QueryFields } from '../../labelling/queryConditions.ts';
import type { QueueOrder } from '../../labelling/types.ts';
import { type DocumentRow, documentRecord, plainJudgmentValues } from '../adapterShared/labelRows.ts';
import type {
  DocumentRecord,
  LabelCommit,
  LabelCursor,
  LabelCursorWrite,
  LabelRetraction,
  LabelScope,
  LabelsPort,
  PairRecord,
} from '../port/labelsPort.ts';
import type { AnnotatorKind } from '../port/studiesPort.ts';
import { impliedAnnotatorKind } from '../sqlite/annotators.ts';
import { type NewJudgment, StoreError } from '../studyDatabase.ts';
import { lockInSchema } from './advisoryLocks.ts';
import { assignmentSql, progressSql, queueSql } from './labels/labelQueueSql.ts';
import { labelSql } from './labels/labelStatements.ts';
import type { PostgresClient, PostgresContext } from './postgresContext.ts';

/** The time of a new judgment: `at`, or 1 ms after the annotator's latest judgment of the pair when that is later. */
function stampAfter(at: number, latest: string | null): string {
  return new Date(latest === null ? at : Math.max(at, Date.parse(latest) + 1)).toISOString();
}

export class PostgresLabels implements LabelsPort {
  protected readonly context: PostgresContext;

  constructor(context: PostgresContext) {
    this.context = context;
  }

  /**
   * Runs `work` in one transaction that notifies the other processes of a change to study `studyId` (unless `work`
   * says it wrote nothing), then tells this store's listeners.
   */
  private async write<T>(
    studyId: number,
    work: (client: PostgresClient) => Promise<{ result: T; wrote: boolean; study?: string | null }>,
  ): Promise<T> {
    let study: string | undefined;
    const { result, wrote } = await this.context.transaction(async (client) => {
      const done = await work(client);
      if (done.wrote) {
        // The study's name, unless `work` read it already (null: there is no such study).
        study = done.study === undefined ? await this.studyName(client, studyId) : (done.study ?? undefined);
        await this.context.notify(client, { what: 'labels', ...(study !== undefined && { study }) });
      }
      return done;
    });
    if (wrote) this.context.changed({ what: 'labels', ...(study !== undefined && { study }) });
    return result;
  }

  private async studyName(client: PostgresClient, studyId: number): Promise<string | undefined> {
    const { rows } = await client.query<{ name: string }>(labelSql.studyName, [studyId]);
    return rows[0]?.name;
  }

  /** The one annotator rule (core/store/sqlite/annotators.ts), with its messages, inside `client`'s transaction. */
  private async annotatorId(
    client: PostgresClient,
    name: string,
    kind: AnnotatorKind = impliedAnnotatorKind(name),
  ): Promise<number> {
    // Looked up first and inserted only when missing: an INSERT … ON CONFLICT would draw an id from the sequence
    // even for a name already there, and ids would drift from those SQLite gives the same writes. A name another
    // transaction inserts at the same moment: the INSERT waits for it and does nothing; the second read finds it.
    let rows: { id: number; kind: AnnotatorKind }[] = [];
    for (let attempt = 0; rows.length === 0 && attempt < 2; attempt++) {
      ({ rows } = await client.query<{ id: number; kind: AnnotatorKind }>(labelSql.ensureAnnotator, [name, kind]));
    }
    const row = rows[0] as { id: number; kind: AnnotatorKind };
    if (row.kind !== kind) {
      const where = this.context.location;
      throw new StoreError(
        row.kind === 'llm'
          ? `'${name}' is an LLM judge in ${where}, not a person`
          : `'${name}' is a person in ${where}, not an LLM judge`,
      );
    }
    return row.id;
  }

  async addJudgment(judgment: NewJudgment): Promise<{ id: number; createdAt: string }> {
    const where = this.context.location;
    const added = await this.context.transaction(async (client) => {
      const study = await client.query<{ id: number }>('SELECT id FROM study WHERE name = $1', [judgment.study]);
      const studyId = study.rows[0]?.id;
      if (studyId === undefined) {
        const known = await client.query<{ name: string }>('SELECT name FROM study ORDER BY name COLLATE "C"');
        const names = known.rows.map((row) => row.name).join(', ');
        throw new StoreError(`no study '${judgment.study}' in ${where} (it has: ${names || 'none'})`);
      }
      const scale = (await client.query<{ value: number }>(labelSql.scaleValues, [studyId])).rows.map((r) => r.value);
      if (scale.length > 0 && !scale.includes(judgment.label)) {
        throw new StoreError(
          `label ${judgment.label} is not on the scale of study '${judgment.study}' (${scale.join(', ')})`,
        );
      }
      let pair: { id: number }[] = [];
      for (let attempt = 0; pair.length === 0 && attempt < 2; attempt++) {
        ({ rows: pair } = await client.query<{ id: number }>(labelSql.pairByKey, [
          studyId,
          judgment.qid,
          judgment.docid,
        ]));
      }
      const pairId = (pair[0] as { id: number }).id;
      const annotatorId = await this.annotatorId(client, judgment.annotator);
      // Two judgments of a pair by one annotator in the same millisecond stay two, in order: the pair's lock makes a
      // concurrent one wait until this one's time is committed.
      await lockInSchema(client, 'label', pairId);
      const latest = (await client.query<{ latest: string | null }>(labelSql.latestTime, [pairId, annotatorId])).rows[0]
        ?.latest;
      const createdAt = judgment.createdAt?.toISOString() ?? stampAfter(Date.now(), latest ?? null);
      const row = await client.query<{ id: number }>(
        labelSql.insertPlainJudgment,
        plainJudgmentValues(pairId, annotatorId, judgment, createdAt),
      );
      await this.context.notify(client, { what: 'labels', study: judgment.study });
      return { id: (row.rows[0] as { id: number }).id, createdAt };
    });
    this.context.changed({ what: 'labels', study: judgment.study });
    return added;
  }

  async assignPairs(studyId: number, annotators: readonly string[], overlap: number, at: string): Promise<number> {
    if (annotators.length === 0) return 0;
    const n = annotators.length;
    return this.write(studyId, async (client) => {
      // One assignment of a study at a time: the next one (its INSERT a new statement, so a new snapshot under
      // READ COMMITTED) sees every pair this one handed out.
      await lockInSchema(client, 'study', studyId);
      const ids: number[] = [];
      for (const name of annotators) ids.push(await this.annotatorId(client, name));
      // Checked after the annotators, as SQLite's adapter does (the first refusal is the same); nothing is committed.
      if (!Number.isInteger(overlap) || overlap < 1 || overlap > n) {
        throw new StoreError(`expected 1 to ${n} annotators per pair, found ${overlap}`);
      }
      const { rowCount } = await client.query(assignmentSql, [studyId, at, ids, overlap]);
      const assigned = (rowCount ?? 0) / overlap;
      return { result: assigned, wrote: true };
    });
  }

  async labelQueue(scope: LabelScope & { unlabelledOnly: boolean }, order: QueueOrder): Promise<Int32Array> {
    const sql = queueSql(order, scope);
    const values: number[] = [scope.studyId];
    if (scope.assignedOnly || scope.unlabelledOnly) values.push(scope.annotatorId);
    const rows = await this.context.transaction(
      async (client) => {
        // The unlabelled-only filter is an anti join against the annotator's judgments. Right after a burst of
        // commits the statistics still say the annotator has none, and the planner then checks every pair of the
        // queue against all of their judgments in a nested loop: seconds on 100,000 pairs once 1,000 are labelled,
        // growing with both. A queue reads every pair of the study anyway, so hash joins are always right here.
        if (scope.unlabelledOnly) await client.query('SET LOCAL enable_nestloop = off');
        return (await client.query<unknown[]>({ text: sql, values, rowMode: 'array' })).rows;
      },
      { readOnly: true },
    );
    // Pair ids are integer identities handed out one by one: far below 2^31.
    const queue = new Int32Array(rows.length);
    for (let i = 0; i < rows.length; i++) queue[i] = (rows[i] as number[])[0] as number;
    return queue;
  }

  async labelProgress(scope: LabelScope): Promise<{ assigned: number; judged: number }> {
    const row = await this.context.transaction(
      async (client) =>
        (
          await client.query<{ assigned: number; judged: number }>(progressSql(scope.assignedOnly), [
            scope.studyId,
            scope.annotatorId,
          ])
        ).rows[0] as { assigned: number; judged: number },
      { readOnly: true },
    );
    return { assigned: row.assigned, judged: row.judged };
  }

  async syncedStudy(studyId: number): Promise<{ model: string; latest: boolean } | undefined> {
    const row = await this.read<{ model: string; latest: boolean }>(labelSql.synced, [studyId]);
    return row && { model: row.model, latest: row.latest === true };
  }

  async labelCursor(studyId: number, annotatorId: number): Promise<LabelCursor | undefined> {
    const row = await this.read<{ queue_order: string; unlabelled_only: number; pair_id: number | null }>(
      labelSql.cursor,
      [studyId, annotatorId],
    );
    return (
      row && { order: row.queue_order as QueueOrder, unlabelledOnly: row.unlabelled_only === 1, pairId: row.pair_id }
    );
  }

  /** The first row of one read-only statement, in its own transaction. */
  private async read<T>(sql: string, values: unknown[]): Promise<T | undefined> {
    return this.context.transaction(async (client) => (await client.query(sql, values)).rows[0] as T | undefined, {
      readOnly: true,
    });
  }

  async saveLabelCursor(cursor: LabelCursorWrite): Promise<void> {
    await this.write(cursor.studyId, async (client) => {
      await this.saveCursor(client, cursor);
      return { result: undefined, wrote: true };
    });
  }

  private async saveCursor(client: PostgresClient, cursor: LabelCursorWrite): Promise<void> {
    await client.query(labelSql.saveCursor, [
      cursor.studyId,
      cursor.annotatorId,
      cursor.order,
      cursor.unlabelledOnly ? 1 : 0,
      cursor.pairId,
      cursor.at,
    ]);
  }

  async pairRecord(studyId: number, annotatorId: number, pairId: number): Promise<PairRecord> {
    type View = {
      qid: string;
      docid: string;
      best_rank: number | null;
      query: QueryFields | null;
      document: (DocumentRow & { siblings: string[] | null }) | null;
      mine: {
        id: number;
        label: number;
        created_at: string;
        rationale: string | null;
        conditions: { condition: number; satisfied: number }[];
        aspects: { aspect: string; answer: number }[];
      } | null;
      others: PairRecord['others'];
      suggestions: PairRecord['suggestions'];
    };
    const view = await this.read<View>(labelSql.pairView, [pairId, studyId, annotatorId]);
    if (!view) throw new StoreError(`pair ${pairId} is not a pair of this study`);
    const { document, mine } = view;
    return {
      pairId,
      qid: view.qid,
      docid: view.docid,
      bestRank: view.best_rank,
      ...(view.query && { query: view.query }),
      ...(document && {
        document: documentRecord(document, document.siblings ?? undefined),
      }),
      ...(mine && {
        mine: {
          id: mine.id,
          label: mine.label,
          createdAt: mine.created_at,
          rationale: mine.rationale,
          conditions: mine.conditions.map((c) => ({ condition: c.condition, satisfied: c.satisfied === 1 })),
          aspects: mine.aspects,
        },
      }),
      others: view.others,
      suggestions: view.suggestions,
    };
  }

  async pairQuery(studyId: number, pairId: number): Promise<{ qid: string; query?: QueryFields }> {
    return this.context.transaction(
      async (client) => {
        const pair = (await client.query<{ qid: string }>(labelSql.pair, [pairId, studyId])).rows[0];
        if (!pair) throw new StoreError(`pair ${pairId} is not a pair of this study`);
        const query = (await client.query<QueryFields>(labelSql.query, [studyId, pair.qid])).rows[0];
        return { qid: pair.qid, ...(query && { query }) };
      },
      { isolation: 'repeatable read', readOnly: true },
    );
  }

  async documentRecord(studyId: number, docid: string): Promise<DocumentRecord | undefined> {
    return this.context.transaction((client) => this.document(client, studyId, docid), {
      isolation: 'repeatable read',
      readOnly: true,
    });
  }

  private async document(client: PostgresClient, studyId: number, docid: string): Promise<DocumentRecord | undefined> {
    const row = (await client.query<DocumentRow>(labelSql.document, [studyId, docid])).rows[0];
    if (!row) return undefined;
    const siblings =
      row.parent_docid === null
        ? undefined
        : (await client.query<{ docid: string }>(labelSql.chunks, [studyId, row.parent_docid])).rows.map(
            (r) => r.docid,
          );
    return documentRecord(row, siblings);
  }

  async pairsNotInStudy(studyId: number, pairIds: readonly number[]): Promise<number[]> {
    if (pairIds.length === 0) return [];
    // Ids that are no 32-bit integer are no pair's id (and would not fit the statement's integer[]).
    const fits = (id: number) => Number.isInteger(id) && id >= -(2 ** 31) && id < 2 ** 31;
    const candidates = pairIds.filter(fits);
    const missing = new Set(
      await this.context.transaction(
        async (client) =>
          (await client.query<{ id: number }>(labelSql.notInStudy, [studyId, candidates])).rows.map((r) => r.id),
        { readOnly: true },
      ),
    );
    return pairIds.filter((id) => !fits(id) || missing.has(id));
  }

  async inLabelScope(scope: LabelScope, pairId: number): Promise<boolean> {
    if (!Number.isInteger(pairId) || pairId < -(2 ** 31) || pairId >= 2 ** 31) return false;
    const row = await this.read(labelSql.inScope, [pairId, scope.studyId, scope.annotatorId, scope.assignedOnly]);
    return row !== undefined;
  }

  async commitLabel(commit: LabelCommit): Promise<{ judgmentId: number; createdAt: string; labelledBefore: boolean }> {
    const { pairId, annotatorId, label } = commit;
    return this.write(commit.studyId, async (client) => {
      // Commits of this pair wait for each other here (see the top of the file); the next statement then reads
      // what the one before committed.
      await lockInSchema(client, 'label', pairId);
      type Before = {
        labelled: boolean;
        latest: string | null;
        suggested: (number | null)[];
        study: string | null;
        replayed: { id: number; createdAt: string; labelledBefore: boolean } | null;
      };
      const before = (
        await client.query<Before>(labelSql.beforeCommit, [
          pairId,
          annotatorId,
          commit.studyId,
          commit.clientId ?? null,
        ])
      ).rows[0] as Before;
      if (before.replayed !== null) {
        // Sent again (its reply was lost): what the first one stored; nothing written.
        const { id, createdAt, labelledBefore } = before.replayed;
        return { result: { judgmentId: id, createdAt, labelledBefore }, wrote: false };
      }
      const labelledBefore = before.labelled;
      const wanted = commit.suggestion;
      const accepted =
        wanted !== undefined &&
        (labelledBefore || !wanted.onlyIfLabelled) &&
        before.suggested.some((suggested) => suggested === wanted.label);
      // Later than the annotator's latest judgment of the pair, even within a millisecond (the UNIQUE key).
      const createdAt = stampAfter(Date.parse(commit.at), before.latest);
      const cursor = commit.cursor;
      const inserted = await client.query<{ id: number }>(labelSql.insertJudgment, [
        pairId,
        annotatorId,
        label,
        createdAt,
        accepted ? 'suggestion' : commit.source,
        commit.note,
        commit.shownLabel,
        commit.conditions.map((satisfied) => (satisfied ? 1 : 0)),
        commit.aspects.map((a) => a.aspect),
        commit.aspects.map((a) => a.answer),
        // The cursor, saved by the same statement (no cursor: no row of `saving`).
        cursor !== undefined,
        cursor?.studyId ?? null,
        cursor?.annotatorId ?? null,
        cursor?.order ?? null,
        cursor === undefined ? null : cursor.unlabelledOnly ? 1 : 0,
        cursor?.pairId ?? null,
        cursor?.at ?? null,
        commit.clientId ?? null,
      ]);
      const judgmentId = (inserted.rows[0] as { id: number }).id;
      return { result: { judgmentId, createdAt, labelledBefore }, wrote: true, study: before.study };
    });
  }

  async retractLabel(retraction: LabelRetraction): Promise<{ retracted: boolean; stillLabelled: boolean }> {
    return this.write<{ retracted: boolean; stillLabelled: boolean }>(retraction.studyId, async (client) => {
      const { rowCount } = await client.query(labelSql.retract, [retraction.judgmentId, retraction.at]);
      // Already retracted (someone changed the record under the session): nothing to write.
      if (rowCount === 0) return { result: { retracted: false, stillLabelled: false }, wrote: false };
      if (retraction.cursor) await this.saveCursor(client, retraction.cursor);
      const still = await client.query(labelSql.mine, [retraction.pairId, retraction.annotatorId]);
      return { result: { retracted: true, stillLabelled: still.rows.length > 0 }, wrote: true };
    });
  }
}
