// What both adapters' imports ports share above their SQL: a file read into the staging in batches bounded by
// bytes (counted per file), and the port's single-file and pool-only imports as one batch (importBatch, each
// adapter's own).
import type { ImportedRecord } from '../importers/types.ts';
import type { ImportsPort, RunCoverage } from './port/importsPort.ts';
import type { AnswerRules, ImportOrigin, ImportReport, PoolInput, PoolReport } from './studyDatabase.ts';

/**
 * The files of one import batch: each file's records, as read, and where they come from; `progress` is told when
 * reading starts (0 records), every `progressEvery` records and at the end (`done`). (A progress callback rather
 * than one more async generator around the records: each layer costs a promise per record, a second per million.)
 */
export type ImportFiles = readonly {
  records: AsyncIterable<ImportedRecord>;
  origin: ImportOrigin;
  progress?: (records: number, done: boolean) => void;
}[];

/** Records between two progress calls while a file is read. */
export const progressEvery = 10_000;

/** An adapter's staging as files are read into it: a file starts, then its records come in batches. */
export interface FileStaging {
  startFile(origin: ImportOrigin): void;
  add(batch: readonly ImportedRecord[]): void | Promise<void>;
}

/**
 * What a staged batch may hold before it is handed to the staging: bytes of record text, not a record count, so
 * memory stays the same whether a record is a 40-byte judgment or a 100 KB document (10,000 of those were 1 GB of
 * strings, 2 GB peak, before the first write). 8 MiB still puts thousands of small records in one write.
 */
export const stagingBatchBytes = 8 << 20;

/**
 * Roughly what a record's strings take (one byte per character: V8 keeps ASCII strings that way; the exact figure
 * does not matter, only that it grows with the record's text). Metadata values that are not strings count by
 * their length as JSON only when they are objects, so a plain record costs nothing to measure.
 */
export function stagedRecordBytes(record: ImportedRecord): number {
  let bytes = 64;
  switch (record.kind) {
    case 'document':
      bytes += record.docid.length + record.body.length + (record.title?.length ?? 0);
      break;
    case 'query':
      bytes += record.qid.length + record.text.length + (record.instruction?.length ?? 0);
      break;
    default:
      bytes += record.qid.length + record.docid.length + (record.rationale?.length ?? 0);
      return bytes;
  }
  for (const key in record.metadata) {
    const value = record.metadata[key];
    bytes +=
      key.length + (typeof value === 'string' ? value.length : typeof value === 'object' ? jsonLength(value) : 8);
  }
  return bytes;
}

function jsonLength(value: unknown): number {
  return value === null ? 4 : (JSON.stringify(value)?.length ?? 0);
}

/**
 * Reads `files` into `staging` in batches of at most `batchSize` records and about `batchBytes` bytes of record
 * text (stagedRecordBytes; a record larger than that is a batch alone), the last, possibly empty, batch of each
 * file after it ends, `checkSignal` before each batch; returns each file's origin with its number of records.
 */
export async function stageFiles(
  files: ImportFiles,
  staging: FileStaging,
  batchSize: number,
  checkSignal: () => void,
  batchBytes = stagingBatchBytes,
): Promise<(ImportOrigin & { records: number })[]> {
  const counted: (ImportOrigin & { records: number })[] = [];
  for (const { records, origin, progress } of files) {
    staging.startFile(origin);
    progress?.(0, false);
    let count = 0;
    let batch: ImportedRecord[] = [];
    let bytes = 0;
    for await (const record of records) {
      batch.push(record);
      if (++count % progressEvery === 0) progress?.(count, false);
      bytes += stagedRecordBytes(record);
      if (batch.length >= batchSize || bytes >= batchBytes) {
        checkSignal();
        await staging.add(batch);
        batch = [];
        bytes = 0;
      }
    }
    checkSignal();
    await staging.add(batch);
    progress?.(count, true);
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
