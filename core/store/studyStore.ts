// The storage port: everything the study record does, as one async interface that every feature asks and each
// backend answers. Features (labelling, judging, review, agreement, exports, the CLI, the extension host) hold a
// StudyStore and never a database handle; every SQL statement lives in an adapter (core/store/sqlite/ today, a
// PostgreSQL one next to it). The extension host talks to the same interface across a worker thread
// (core/worker/), so a slow query never freezes the editor.
//
// The rules every method follows, so that an adapter over a pool of connections and the worker proxy can answer it:
// - it is async, and what it takes and returns is plain data (structured-cloneable: no functions, no class
//   instances but Error, Map, Set and typed arrays) — except the few methods documented as taking streams;
// - it is one transaction: when the promise resolves, what it wrote is committed; when it rejects, nothing is;
// - a problem the user can fix is a StoreError with a message to print as is.
import type { AgreementPort } from './port/agreementPort.ts';
import type { ExportsPort } from './port/exportsPort.ts';
import type { ImportsPort } from './port/importsPort.ts';
import type { JudgeBatchPort } from './port/judgeBatchPort.ts';
import type { JudgePort } from './port/judgePort.ts';
import type { LabelsPort } from './port/labelsPort.ts';
import type { ReviewsPort } from './port/reviewsPort.ts';
import type { StudiesPort } from './port/studiesPort.ts';

/** What changed in the record: a write through this store, or another process's commit (`external`). */
export interface StoreChange {
  what: 'studies' | 'imports' | 'labels' | 'judge' | 'reviews' | 'external';
  /** The study written to, when one was. */
  study?: string;
}

export interface StudyStore {
  /** Where the record lives, for messages: a database file, or later `postgres:<store name>`. */
  readonly location: string;
  readonly studies: StudiesPort;
  readonly imports: ImportsPort;
  readonly labels: LabelsPort;
  readonly judge: JudgePort;
  readonly judgeBatches: JudgeBatchPort;
  readonly reviews: ReviewsPort;
  readonly agreement: AgreementPort;
  readonly exports: ExportsPort;
  /**
   * Calls `listener` after each change the store commits or notices (another process writing the same record),
   * coalesced; returns the function that stops it. This replaces watching the database's files.
   */
  onChange(listener: (change: StoreChange) => void): () => void;
  close(): Promise<void>;
}

/** The areas of the port, in the order the worker proxy and the house-rules test list them. */
export const storeAreas = [
  'studies',
  'imports',
  'labels',
  'judge',
  'judgeBatches',
  'reviews',
  'agreement',
  'exports',
] as const;
export type StoreArea = (typeof storeAreas)[number];
