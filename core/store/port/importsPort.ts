// What imports and pooling write into the record: all or nothing (see StudyDatabase.importBatch).
import type { ImportedRecord } from '../../importers/types.ts';
import type { AnswerRules, ImportOrigin, ImportReport, PoolInput, PoolReport } from '../studyDatabase.ts';

export interface ImportsPort {
  /**
   * Files and pools into study `study`, all or nothing. Takes streams and functions, so it runs where the store
   * is: over the extension's store worker it is not callable — the worker's import job runs it there.
   */
  importBatch(
    study: string,
    files: readonly { records: AsyncIterable<ImportedRecord>; origin: ImportOrigin }[],
    pools?: readonly PoolInput[],
    signal?: AbortSignal,
    answers?: AnswerRules,
  ): Promise<ImportReport>;
  importRecords(study: string, records: AsyncIterable<ImportedRecord>, origin: ImportOrigin): Promise<ImportReport>;
  addPool(study: string, input: PoolInput): Promise<PoolReport>;
}
