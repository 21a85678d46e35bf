// Work that runs inside the store's worker thread, next to the store, because it is heavy (reading a whole study,
// a bootstrap) or takes what cannot cross a thread (an import's file streams). Each job is one async function of
// the worker's own store and plain-data arguments; the extension calls it as `store.jobs.<name>(…)`.
import type { SqliteStudyStore } from '../store/sqlite/sqliteStudyStore.ts';

export interface WorkerJobs {
  /** Answers when the worker is idle enough to answer (tests and the event-loop bench use it). */
  ping(): Promise<'pong'>;
}

export function workerJobs(_store: SqliteStudyStore): WorkerJobs {
  return {
    async ping() {
      return 'pong';
    },
  };
}
