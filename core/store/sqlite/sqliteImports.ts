import type { ImportedRecord } from '../../importers/types.ts';
import type { ImportsPort } from '../port/importsPort.ts';
import type { AnswerRules, ImportOrigin, ImportReport, PoolInput, PoolReport } from '../studyDatabase.ts';
import type { SqliteContext } from './sqliteContext.ts';

export class SqliteImports implements ImportsPort {
  protected readonly context: SqliteContext;

  constructor(context: SqliteContext) {
    this.context = context;
  }

  async importBatch(
    study: string,
    files: readonly { records: AsyncIterable<ImportedRecord>; origin: ImportOrigin }[],
    pools: readonly PoolInput[] = [],
    signal?: AbortSignal,
    answers?: AnswerRules,
  ): Promise<ImportReport> {
    const report = await this.context.database.importBatch(study, files, pools, signal, answers);
    this.context.changed({ what: 'imports', study });
    return report;
  }

  importRecords(study: string, records: AsyncIterable<ImportedRecord>, origin: ImportOrigin): Promise<ImportReport> {
    return this.importBatch(study, [{ records, origin }]);
  }

  async addPool(study: string, input: PoolInput): Promise<PoolReport> {
    const report = await this.importBatch(study, [], [input]);
    return report.pools[0]!;
  }
}
