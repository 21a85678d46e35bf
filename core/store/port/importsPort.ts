// What imports and pooling write into the record: all or nothing (see StudyDatabase.importBatch), and what the
// import's warnings read back.
import type { ImportedRecord } from '../../importers/types.ts';
import type { AnswerRules, ImportOrigin, ImportReport, PoolInput, PoolReport } from '../studyDatabase.ts';

/** Documents a pooled run brought into the study that its corpus lacks: how many, and the first few by id. */
export interface RunCoverage {
  /** Documents in the study's corpus. */
  corpusSize: number;
  missing: number;
  examples: string[];
}

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
  /**
   * For each run (as pooled: its path as the user named it), the documents it pooled into study `study` that the
   * study's corpus lacks — how many, and the first `examples` by id (default 3).
   */
  pooledNotInCorpus(study: string, runs: readonly string[], examples?: number): Promise<RunCoverage[]>;
}
