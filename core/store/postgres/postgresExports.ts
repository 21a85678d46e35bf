// The exports port over PostgreSQL: the rows SQLite's adapter answers (core/store/sqlite/sqliteExports.ts), in the
// same bytewise order, so that core/store/studyExports.ts writes byte-identical files from either store. A read with
// answers is one REPEATABLE READ transaction (one snapshot): the rows, then every answer they need in one statement
// per kind (not one per row).
import type { ExportsPort, HistoryRow, LabelFileRow, StoredAnswers } from '../port/exportsPort.ts';
import {
  aspectsSql,
  conditionsSql,
  currentLabelsSql,
  historySql,
  labelFileSql,
  parsedConditionsSql,
} from './exports/exportsSql.ts';
import { studyIdPg } from './judge/pgRules.ts';
import type { PostgresClient, PostgresContext } from './postgresContext.ts';

interface LabelRowWithIds extends LabelFileRow {
  judgment_id: number | null;
  call_id: number | null;
}

interface HistoryRowWithId extends Omit<HistoryRow, 'current'> {
  id: number;
  current: boolean;
}

export class PostgresExports implements ExportsPort {
  protected readonly context: PostgresContext;

  constructor(context: PostgresContext) {
    this.context = context;
  }

  currentLabels(study: string): Promise<{ qid: string; docid: string; annotator: string; label: number }[]> {
    return this.context.transaction(
      async (client) => {
        const studyId = await studyIdPg(client, this.context.location, study);
        return (await client.query(currentLabelsSql, [studyId])).rows;
      },
      { readOnly: true },
    );
  }

  labelFileRows(studyId: number, options: { answers?: boolean } = {}): Promise<LabelFileRow[]> {
    return this.context.transaction(
      async (client) => {
        const rows = (await client.query<LabelRowWithIds>(labelFileSql, [studyId])).rows;
        const answers = options.answers ? await this.answers(client, studyId, rows) : undefined;
        return rows.map(({ judgment_id, call_id, ...row }): LabelFileRow => {
          if (answers === undefined) return row;
          if (judgment_id !== null) return { ...row, answers: answers.ofJudgment(judgment_id) };
          if (call_id !== null) return { ...row, answers: { parsedConditions: answers.calls.get(call_id) ?? null } };
          return { ...row, answers: {} };
        });
      },
      { isolation: 'repeatable read', readOnly: true },
    );
  }

  judgmentHistory(studyId: number, options: { answers?: boolean } = {}): Promise<HistoryRow[]> {
    return this.context.transaction(
      async (client) => {
        const rows = (await client.query<HistoryRowWithId>(historySql, [studyId])).rows;
        const answers = options.answers
          ? await this.answers(
              client,
              studyId,
              rows.map((row) => ({ judgment_id: row.id, call_id: null })),
            )
          : undefined;
        return rows.map(({ id, ...row }): HistoryRow => {
          const history: HistoryRow = { ...row, current: row.current === true };
          if (answers !== undefined) history.answers = answers.ofJudgment(id);
          return history;
        });
      },
      { isolation: 'repeatable read', readOnly: true },
    );
  }

  /** The stored answers of the study's judgments and of the rows' judge calls, read in one statement per table. */
  private async answers(
    client: PostgresClient,
    studyId: number,
    rows: readonly { judgment_id: number | null; call_id: number | null }[],
  ): Promise<{ ofJudgment(id: number): StoredAnswers; calls: Map<number, string | null> }> {
    const callIds = rows.flatMap((row) => (row.judgment_id === null && row.call_id !== null ? [row.call_id] : []));
    const conditions = new Map<number, [number, number][]>();
    const aspects = new Map<number, [string, number][]>();
    const calls = new Map<number, string | null>();
    if (rows.some((row) => row.judgment_id !== null)) {
      const condition = await client.query<{ judgment_id: number; condition: number; satisfied: number }>(
        conditionsSql,
        [studyId],
      );
      for (const row of condition.rows) {
        let list = conditions.get(row.judgment_id);
        if (list === undefined) {
          list = [];
          conditions.set(row.judgment_id, list);
        }
        list.push([row.condition, row.satisfied]);
      }
      const aspect = await client.query<{ judgment_id: number; aspect: string; answer: number }>(aspectsSql, [studyId]);
      for (const row of aspect.rows) {
        let list = aspects.get(row.judgment_id);
        if (list === undefined) {
          list = [];
          aspects.set(row.judgment_id, list);
        }
        list.push([row.aspect, row.answer]);
      }
    }
    if (callIds.length > 0) {
      const call = await client.query<{ id: number; parsed_conditions: string | null }>(parsedConditionsSql, [callIds]);
      for (const row of call.rows) calls.set(row.id, row.parsed_conditions);
    }
    return {
      ofJudgment: (id) => ({ conditions: conditions.get(id) ?? [], aspects: aspects.get(id) ?? [] }),
      calls,
    };
  }
}
