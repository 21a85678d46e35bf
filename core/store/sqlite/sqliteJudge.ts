import type { JudgePort } from '../port/judgePort.ts';
import type { SqliteContext } from './sqliteContext.ts';

export class SqliteJudge implements JudgePort {
  protected readonly context: SqliteContext;

  constructor(context: SqliteContext) {
    this.context = context;
  }
}
