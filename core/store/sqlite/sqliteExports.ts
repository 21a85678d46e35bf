import type { ExportsPort } from '../port/exportsPort.ts';
import type { SqliteContext } from './sqliteContext.ts';

export class SqliteExports implements ExportsPort {
  protected readonly context: SqliteContext;

  constructor(context: SqliteContext) {
    this.context = context;
  }

  async currentLabels(study: string): Promise<{ qid: string; docid: string; annotator: string; label: number }[]> {
    return this.context.database.currentLabels(study);
  }
}
