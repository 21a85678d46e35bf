import type { LabelsPort } from '../port/labelsPort.ts';
import type { NewJudgment } from '../studyDatabase.ts';
import type { SqliteContext } from './sqliteContext.ts';

export class SqliteLabels implements LabelsPort {
  protected readonly context: SqliteContext;

  constructor(context: SqliteContext) {
    this.context = context;
  }

  async addJudgment(judgment: NewJudgment): Promise<{ id: number; createdAt: string }> {
    const added = this.context.database.addJudgment(judgment);
    this.context.changed({ what: 'labels', study: judgment.study });
    return added;
  }
}
