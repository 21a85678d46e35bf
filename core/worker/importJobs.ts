// Imports of declared sources (and named files), run inside the store's worker: importDeclaredSources reads the
// files as streams and hands the store a function of the study's rules, neither of which can cross a thread, so
// the extension asks the worker to run the whole import there. The extension polls its progress (a message such
// as "corpus.jsonl: 20,000 records read") and cancels it by id; a cancelled import writes nothing.
import { type DeclaredImportOptions, importDeclaredSources } from '../store/declaredImport.ts';
import type { ImportReport } from '../store/studyDatabase.ts';
import type { StudyStore } from '../store/studyStore.ts';

/** The study an import reads its declarations from (the study file's model of it: plain data). */
export type DeclaredStudy = Parameters<typeof importDeclaredSources>[1];

export interface ImportJobs {
  /**
   * importDeclaredSources of `study` into the worker's store, relative paths against `folder`; `importId` (the
   * caller's, unique while it runs) names it for importProgress and cancelImport.
   */
  importDeclared(args: {
    importId: string;
    study: DeclaredStudy;
    folder: string;
    options?: Omit<DeclaredImportOptions, 'signal' | 'onProgress'>;
  }): Promise<ImportReport>;
  /** The last progress message of a running import; undefined when none is running under that id. */
  importProgress(importId: string): Promise<string | undefined>;
  /** Stops a running import at its next batch (it then rejects with ImportCancelledError); false if none runs. */
  cancelImport(importId: string): Promise<boolean>;
}

export function importJobs(store: StudyStore): ImportJobs {
  const running = new Map<string, { controller: AbortController; progress: string | undefined }>();
  return {
    async importDeclared({ importId, study, folder, options = {} }) {
      if (running.has(importId)) throw new Error(`an import ${importId} is already running`);
      const job = { controller: new AbortController(), progress: undefined as string | undefined };
      running.set(importId, job);
      try {
        return await importDeclaredSources(store, study, folder, {
          ...options,
          signal: job.controller.signal,
          onProgress: (message) => {
            job.progress = message;
          },
        });
      } finally {
        running.delete(importId);
      }
    },
    async importProgress(importId) {
      return running.get(importId)?.progress;
    },
    async cancelImport(importId) {
      const job = running.get(importId);
      job?.controller.abort();
      return job !== undefined;
    },
  };
}
