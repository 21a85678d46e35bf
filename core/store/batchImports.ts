// What both adapters' imports ports share above their SQL: a file read into the staging in batches (counted per
// file), and the port's single-file and pool-only imports as one batch (importBatch, each adapter's own).
import type { ImportedRecord } from '../importers/types.ts';
import type { ImportsPort, RunCoverage } from './port/importsPort.ts';
import type { AnswerRules, ImportOrigin, ImportReport, PoolInput, PoolReport } from './studyDatabase.ts';

/** The files of one import batch: each file's records, as read, and where they come from. */
export type ImportFiles = readonly { records: AsyncIterable<ImportedRecord>; origin: ImportOrigin }[];

/** An adapter's staging as files are read into it: a file starts, then its records come in batches. */
export interface FileStaging {
  startFile(origin: ImportOrigin): void;
  add(batch: readonly ImportedRecord[]): void | Promise<void>;
}

/**
 * Reads `files` into `staging`, `batchSize` records at a time (the last, possibly empty, batch of each file after
 * it ends), `checkSignal` before each batch; returns each file's origin with its number of records.
 */
export async function stageFiles(
  files: ImportFiles,
  staging: FileStaging,
  batchSize: number,
  checkSignal: () => void,
): Promise<(ImportOrigin & { records: number })[]> {
  const counted: (ImportOrigin & { records: number })[] = [];
  for (const { records, origin } of files) {
    staging.startFile(origin);
    let count = 0;
    let batch: ImportedRecord[] = [];
    for await (const record of records) {
      batch.push(record);
      count++;
      if (batch.length >= batchSize) {
        checkSignal();
        await staging.add(batch);
        batch = [];
      }
    }
    checkSignal();
    await staging.add(batch);
    counted.push({ ...origin, records: count });
  }
  return counted;
}

/** The imports port with its single-file and pool-only imports as batches of the adapter's importBatch. */
export abstract class BatchImports implements ImportsPort {
  abstract importBatch(
    study: string,
    files: ImportFiles,
    pools?: readonly PoolInput[],
    signal?: AbortSignal,
    answers?: AnswerRules,
  ): Promise<ImportReport>;

  abstract pooledNotInCorpus(study: string, runs: readonly string[], examples?: number): Promise<RunCoverage[]>;

  importRecords(study: string, records: AsyncIterable<ImportedRecord>, origin: ImportOrigin): Promise<ImportReport> {
    return this.importBatch(study, [{ records, origin }]);
  }

  async addPool(study: string, input: PoolInput): Promise<PoolReport> {
    const report = await this.importBatch(study, [], [input]);
    return report.pools[0]!;
  }
}
