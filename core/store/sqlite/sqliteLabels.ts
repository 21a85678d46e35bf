// The labelling part of the SQLite adapter (port/labelsPort.ts): every read and write of a Label view, each one
// transaction. The per-pair statements are prepared once per store (labels/labelStatements.ts); queues and
// progress counts, one statement per order and scope, are prepared on first use and kept.
import type Database from 'better-sqlite3';
import type { QueryFields } from '../../labelling/queryConditions.ts';
import type { QueueOrder } from '../../labelling/types.ts';
import { type DocumentRow, documentRecord } from '../adapterShared/labelRows.ts';
import type {
  DocumentRecord,
  LabelCommit,
  LabelCursor,
  LabelCursorWrite,
  LabelRetraction,
  LabelScope,
  LabelsPort,
  MyJudgmentRecord,
  PairRecord,
} from '../port/labelsPort.ts';
import { type NewJudgment, StoreError } from '../studyDatabase.ts';
import { ensureAnnotatorId } from './annotators.ts';
import { assignmentSql, progressSql, queueSql } from './labels/labelQueueSql.ts';
import { type LabelStatements, labelStatements } from './labels/labelStatements.ts';
import type { SqliteContext } from './sqliteContext.ts';

type Statement = Database.Statement<unknown[]>;

export class SqliteLabels implements LabelsPort {
  protected readonly context: SqliteContext;
  private statementsOnce: LabelStatements | undefined;
  /** Queue and progress statements by their SQL. */
  private readonly prepared = new Map<string, Statement>();

  constructor(context: SqliteContext) {
    this.context = context;
  }

  private get statements(): LabelStatements {
    this.statementsOnce ??= labelStatements(this.context.db);
    return this.statementsOnce;
  }

  private prepare(sql: string): Statement {
    let statement = this.prepared.get(sql);
    if (statement === undefined) {
      statement = this.context.db.prepare(sql);
      this.prepared.set(sql, statement);
    }
    return statement;
  }

  /** Runs `work` in one immediate transaction and tells the listeners what study changed. */
  private write<T>(studyId: number | undefined, work: () => T): T {
    const result = this.context.db.transaction(work).immediate();
    const study = studyId === undefined ? undefined : this.studyName(studyId);
    this.context.changed({ what: 'labels', ...(study !== undefined && { study }) });
    return result;
  }

  private studyName(studyId: number): string | undefined {
    return this.statements.studyName.get(studyId) as string | undefined;
  }

  async addJudgment(judgment: NewJudgment): Promise<{ id: number; createdAt: string }> {
    const added = this.context.database.addJudgment(judgment);
    this.context.changed({ what: 'labels', study: judgment.study });
    return added;
  }

  async assignPairs(studyId: number, annotators: readonly string[], overlap: number, at: string): Promise<number> {
    if (annotators.length === 0) return 0;
    const { db, file } = this.context;
    let assigned = 0;
    this.write(studyId, () => {
      const ids = annotators.map((name) => ensureAnnotatorId(db, file, name));
      const { changes } = this.prepare(assignmentSql(ids, overlap)).run(studyId, at);
      assigned = changes / overlap;
    });
    return assigned;
  }

  async labelQueue(scope: LabelScope & { unlabelledOnly: boolean }, order: QueueOrder): Promise<Int32Array> {
    const statement = this.prepare(queueSql(order, scope)).raw(true);
    const parameters: Record<string, number> = { study: scope.studyId };
    if (scope.assignedOnly || scope.unlabelledOnly) parameters.annotator = scope.annotatorId;
    // Pair ids are SQLite rowids handed out one by one: far below 2^31.
    let queue = new Int32Array(64);
    let length = 0;
    for (const row of statement.iterate(parameters) as IterableIterator<[number]>) {
      if (length === queue.length) {
        const grown = new Int32Array(queue.length * 2);
        grown.set(queue);
        queue = grown;
      }
      queue[length++] = row[0];
    }
    return queue.slice(0, length);
  }

  async labelProgress(scope: LabelScope): Promise<{ assigned: number; judged: number }> {
    const row = this.prepare(progressSql(scope.assignedOnly)).get({
      study: scope.studyId,
      annotator: scope.annotatorId,
    }) as { assigned: number; judged: number };
    return { assigned: row.assigned, judged: row.judged };
  }

  async syncedStudy(studyId: number): Promise<{ model: string; latest: boolean } | undefined> {
    const row = this.statements.synced.get(studyId) as { model: string; latest: number } | undefined;
    return row && { model: row.model, latest: row.latest === 1 };
  }

  async labelCursor(studyId: number, annotatorId: number): Promise<LabelCursor | undefined> {
    const row = this.statements.cursor.get(studyId, annotatorId) as
      | { queue_order: string; unlabelled_only: number; pair_id: number | null }
      | undefined;
    return (
      row && { order: row.queue_order as QueueOrder, unlabelledOnly: row.unlabelled_only === 1, pairId: row.pair_id }
    );
  }

  async saveLabelCursor(cursor: LabelCursorWrite): Promise<void> {
    this.write(cursor.studyId, () => this.saveCursor(cursor));
  }

  private saveCursor(cursor: LabelCursorWrite): void {
    this.statements.saveCursor.run({
      study: cursor.studyId,
      annotator: cursor.annotatorId,
      order: cursor.order,
      unlabelledOnly: cursor.unlabelledOnly ? 1 : 0,
      pair: cursor.pairId,
      at: cursor.at,
    });
  }

  async pairRecord(studyId: number, annotatorId: number, pairId: number): Promise<PairRecord> {
    const s = this.statements;
    return this.context.db.transaction(() => {
      const pair = s.pair.get(pairId, studyId) as
        | { id: number; qid: string; docid: string; best_rank: number | null }
        | undefined;
      if (!pair) throw new StoreError(`pair ${pairId} is not a pair of this study`);
      const query = s.query.get(studyId, pair.qid) as QueryFields | undefined;
      const document = this.document(studyId, pair.docid);
      const mine = this.mine(pairId, annotatorId);
      return {
        pairId,
        qid: pair.qid,
        docid: pair.docid,
        bestRank: pair.best_rank,
        ...(query && { query }),
        ...(document && { document }),
        ...(mine && { mine }),
        others: s.others.all(pairId, annotatorId) as PairRecord['others'],
        suggestions: s.suggestions.all(pairId) as PairRecord['suggestions'],
      };
    })();
  }

  async pairQuery(studyId: number, pairId: number): Promise<{ qid: string; query?: QueryFields }> {
    const s = this.statements;
    const pair = s.pair.get(pairId, studyId) as { qid: string } | undefined;
    if (!pair) throw new StoreError(`pair ${pairId} is not a pair of this study`);
    const query = s.query.get(studyId, pair.qid) as QueryFields | undefined;
    return { qid: pair.qid, ...(query && { query }) };
  }

  async documentRecord(studyId: number, docid: string): Promise<DocumentRecord | undefined> {
    return this.document(studyId, docid);
  }

  private document(studyId: number, docid: string): DocumentRecord | undefined {
    const row = this.statements.document.get(studyId, docid) as DocumentRow | undefined;
    if (!row) return undefined;
    const siblings =
      row.parent_docid === null ? undefined : (this.statements.chunks.all(studyId, row.parent_docid) as string[]);
    return documentRecord(row, siblings);
  }

  private mine(pairId: number, annotatorId: number): MyJudgmentRecord | undefined {
    const s = this.statements;
    const row = s.mine.get(pairId, annotatorId) as
      | { id: number; label: number; created_at: string; rationale: string | null }
      | undefined;
    if (!row) return undefined;
    const conditions = (s.mineConditions.all(row.id) as { condition: number; satisfied: number }[]).map((c) => ({
      condition: c.condition,
      satisfied: c.satisfied === 1,
    }));
    return {
      id: row.id,
      label: row.label,
      createdAt: row.created_at,
      rationale: row.rationale,
      conditions,
      aspects: s.mineAspects.all(row.id) as { aspect: string; answer: number }[],
    };
  }

  async pairsNotInStudy(studyId: number, pairIds: readonly number[]): Promise<number[]> {
    const inStudy = this.statements.inStudy;
    return pairIds.filter((id) => inStudy.get(id, studyId) === undefined);
  }

  async inLabelScope(scope: LabelScope, pairId: number): Promise<boolean> {
    return (
      this.statements.inScope.get({
        pair: pairId,
        study: scope.studyId,
        annotator: scope.annotatorId,
        assignedOnly: scope.assignedOnly ? 1 : 0,
      }) !== undefined
    );
  }

  async commitLabel(commit: LabelCommit): Promise<{ judgmentId: number; createdAt: string; labelledBefore: boolean }> {
    const s = this.statements;
    const { pairId, annotatorId, label } = commit;
    return this.write(commit.studyId, () => {
      if (commit.clientId !== undefined) {
        // Sent again (its reply was lost): what the first one stored.
        const stored = s.byClientId.get(commit.clientId) as { id: number; created_at: string; labelled: number };
        if (stored !== undefined) {
          return { judgmentId: stored.id, createdAt: stored.created_at, labelledBefore: stored.labelled === 1 };
        }
      }
      const labelledBefore = s.mine.get(pairId, annotatorId) !== undefined;
      const wanted = commit.suggestion;
      const accepted =
        wanted !== undefined &&
        (labelledBefore || !wanted.onlyIfLabelled) &&
        (s.suggestions.all(pairId) as { label: number | null }[]).some((row) => row.label === wanted.label);
      // Later than the annotator's latest judgment of the pair, even within a millisecond (the UNIQUE key).
      const latest = s.latestTime.get(pairId, annotatorId) as string | null;
      const at = Date.parse(commit.at);
      const createdAt = new Date(latest === null ? at : Math.max(at, Date.parse(latest) + 1)).toISOString();
      const { id } = s.insertJudgment.get(
        pairId,
        annotatorId,
        label,
        createdAt,
        accepted ? 'suggestion' : commit.source,
        commit.note,
        commit.shownLabel,
        commit.clientId ?? null,
      ) as { id: number };
      commit.conditions.forEach((satisfied, i) => {
        s.insertCondition.run(id, i + 1, satisfied ? 1 : 0);
      });
      for (const { aspect, answer } of commit.aspects) s.insertAspect.run(id, aspect, answer);
      if (commit.cursor) this.saveCursor(commit.cursor);
      return { judgmentId: id, createdAt, labelledBefore };
    });
  }

  async retractLabel(retraction: LabelRetraction): Promise<{ retracted: boolean; stillLabelled: boolean }> {
    const s = this.statements;
    const { db } = this.context;
    const result = db
      .transaction(() => {
        // Already retracted (someone changed the database under the session): nothing to write.
        if (s.retract.run(retraction.judgmentId, retraction.at).changes === 0) {
          return { retracted: false, stillLabelled: false };
        }
        if (retraction.cursor) this.saveCursor(retraction.cursor);
        return { retracted: true, stillLabelled: s.mine.get(retraction.pairId, retraction.annotatorId) !== undefined };
      })
      .immediate();
    if (result.retracted) {
      const study = this.studyName(retraction.studyId);
      this.context.changed({ what: 'labels', ...(study !== undefined && { study }) });
    }
    return result;
  }
}
