import type { ExportsPort, HistoryRow, LabelFileRow, StoredAnswers } from '../port/exportsPort.ts';
import { judgeSuggestionsWithoutJudgment } from './agreement/judgeSuggestions.ts';
import { labelKindSql } from './labelKindSql.ts';
import type { SqliteContext } from './sqliteContext.ts';

interface LabelRowWithIds extends LabelFileRow {
  judgment_id: number | null;
  call_id: number | null;
}

interface HistoryRowWithId extends Omit<HistoryRow, 'current'> {
  id: number;
  current: number;
}

export class SqliteExports implements ExportsPort {
  protected readonly context: SqliteContext;
  private statements: ReturnType<SqliteExports['prepare']> | undefined;

  constructor(context: SqliteContext) {
    this.context = context;
  }

  private get sql() {
    this.statements ??= this.prepare();
    return this.statements;
  }

  private prepare() {
    const { db } = this.context;
    return {
      labelFile: db.prepare(
        `SELECT p.qid, p.docid, a.name AS annotator, ${labelKindSql()} AS kind, j.label, j.created_at, j.source,
           j.rationale, j.shown_label, j.id AS judgment_id, NULL AS call_id
         FROM current_judgment AS j JOIN pair AS p ON p.id = j.pair_id JOIN annotator AS a ON a.id = j.annotator_id
         WHERE p.study_id = @study
         UNION ALL
         SELECT p.qid, p.docid, a.name, ${labelKindSql()}, sg.label, sg.created_at, 'suggestion', sg.rationale, NULL,
           NULL, sg.llm_call_id
         FROM (${judgeSuggestionsWithoutJudgment}) AS sg
         JOIN pair AS p ON p.id = sg.pair_id JOIN annotator AS a ON a.id = sg.annotator_id
         WHERE p.study_id = @study
         ORDER BY 1, 2, 3, 6`,
      ),
      history: db.prepare(
        `SELECT j.id, p.qid, p.docid, a.name AS annotator, ${labelKindSql()} AS kind, j.label, j.created_at, j.source,
           j.rationale, j.shown_label, EXISTS (SELECT 1 FROM current_judgment AS c WHERE c.id = j.id) AS current
         FROM judgment AS j
         JOIN pair AS p ON p.id = j.pair_id JOIN annotator AS a ON a.id = j.annotator_id
         WHERE p.study_id = ? AND NOT EXISTS (SELECT 1 FROM judgment_retraction AS r WHERE r.judgment_id = j.id)
         ORDER BY p.qid, p.docid, a.name, j.created_at, j.id`,
      ),
      conditions: db
        .prepare('SELECT condition, satisfied FROM condition_judgment WHERE judgment_id = ? ORDER BY condition')
        .raw(),
      aspects: db.prepare('SELECT aspect, answer FROM aspect_judgment WHERE judgment_id = ? ORDER BY aspect').raw(),
      parsedConditions: db.prepare('SELECT parsed_conditions FROM llm_call WHERE id = ?').pluck(),
    };
  }

  async currentLabels(study: string): Promise<{ qid: string; docid: string; annotator: string; label: number }[]> {
    return this.context.database.currentLabels(study);
  }

  async labelFileRows(studyId: number, options: { answers?: boolean } = {}): Promise<LabelFileRow[]> {
    return this.context.db.transaction(() =>
      (this.sql.labelFile.all({ study: studyId }) as LabelRowWithIds[]).map(
        ({ judgment_id, call_id, ...row }): LabelFileRow =>
          options.answers ? { ...row, answers: this.answers(judgment_id, call_id) } : row,
      ),
    )();
  }

  async judgmentHistory(studyId: number, options: { answers?: boolean } = {}): Promise<HistoryRow[]> {
    return this.context.db.transaction(() =>
      (this.sql.history.all(studyId) as HistoryRowWithId[]).map(({ id, current, ...row }): HistoryRow => {
        const history: HistoryRow = { ...row, current: current === 1 };
        if (options.answers) history.answers = this.answers(id, null);
        return history;
      }),
    )();
  }

  private answers(judgmentId: number | null, callId: number | null): StoredAnswers {
    if (judgmentId !== null) {
      return {
        conditions: this.sql.conditions.all(judgmentId) as [number, number][],
        aspects: this.sql.aspects.all(judgmentId) as [string, number][],
      };
    }
    if (callId !== null) {
      return { parsedConditions: (this.sql.parsedConditions.get(callId) as string | null | undefined) ?? null };
    }
    return {};
  }
}
