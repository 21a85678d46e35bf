// The messages between a StudyStore proxy (workerStudyStore.ts) and the worker thread that holds the store
// (studyWorker.ts). Every call names a port area (or `jobs`) and a method; the answer comes back with its id.
import type { StoreChange } from '../store/studyStore.ts';
import type { SerializedError } from './workerErrors.ts';

export interface WorkerStart {
  file: string;
  nativeBinding: string;
}

export type HostToWorker =
  | { type: 'call'; id: number; area: string; method: string; args: unknown[] }
  | { type: 'close' };

export type WorkerToHost =
  | { type: 'ready'; location: string }
  | { type: 'failed'; error: SerializedError }
  | { type: 'result'; id: number; value: unknown }
  | { type: 'error'; id: number; error: SerializedError }
  | { type: 'change'; change: StoreChange }
  | { type: 'closed' };
