// A StudyStore whose adapter runs in a worker thread (studyWorker.ts): every port method is a message there and a
// promise here, so opening a million-pair study or reading every label for a dashboard runs off the extension
// host's thread and no window freezes. The proxy knows the port's areas, not its methods: a method added to a port
// is callable here without changing this file.
import { Worker } from 'node:worker_threads';
import type { StoreArea, StoreChange, StudyStore } from '../store/studyStore.ts';
import { storeAreas } from '../store/studyStore.ts';
import { deserializeError } from './workerErrors.ts';
import type { WorkerJobs } from './workerJobs.ts';
import type { HostToWorker, WorkerStart, WorkerToHost } from './workerProtocol.ts';

export interface WorkerStudyStore extends StudyStore {
  /** The heavy jobs that run next to the store (workerJobs.ts). */
  readonly jobs: WorkerJobs;
}

export interface WorkerStoreOptions {
  nativeBinding: string;
  /** The worker's script: dist/studyWorker.cjs in the extension, core/worker/studyWorker.ts from source. */
  workerScript: string;
}

/** Methods that take streams or functions: they run in the worker through a job, never across the thread. */
const notRemotable: ReadonlySet<string> = new Set(['imports.importBatch', 'imports.importRecords']);

export async function openWorkerStudyStore(file: string, options: WorkerStoreOptions): Promise<WorkerStudyStore> {
  const start: WorkerStart = { file, nativeBinding: options.nativeBinding };
  const worker = new Worker(options.workerScript, { workerData: start });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const listeners = new Set<(change: StoreChange) => void>();
  let nextId = 1;
  let closed: Error | undefined;
  let watching = false;

  const failAll = (error: Error) => {
    closed ??= error;
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };

  const location = await new Promise<string>((resolve, reject) => {
    const onMessage = (message: WorkerToHost) => {
      if (message.type === 'ready') {
        worker.off('error', onError);
        resolve(message.location);
      } else if (message.type === 'failed') {
        worker.off('error', onError);
        void worker.terminate();
        reject(deserializeError(message.error));
      }
    };
    const onError = (error: Error) => reject(error);
    worker.once('message', onMessage);
    worker.once('error', onError);
  });

  worker.on('message', (message: WorkerToHost) => {
    switch (message.type) {
      case 'result':
        pending.get(message.id)?.resolve(message.value);
        pending.delete(message.id);
        break;
      case 'error':
        pending.get(message.id)?.reject(deserializeError(message.error));
        pending.delete(message.id);
        break;
      case 'change':
        for (const listener of [...listeners]) listener(message.change);
        break;
    }
  });
  worker.on('error', (error) => failAll(error));
  worker.on('exit', (code) => failAll(new Error(`the study store's worker stopped (exit code ${code})`)));

  const call = (area: string, method: string, args: unknown[]): Promise<unknown> => {
    if (closed !== undefined) return Promise.reject(closed);
    if (notRemotable.has(`${area}.${method}`)) {
      return Promise.reject(new Error(`${area}.${method} takes streams: run it in the worker through a job`));
    }
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ type: 'call', id, area, method, args } satisfies HostToWorker);
    });
  };

  const areaProxy = (area: string) =>
    new Proxy(
      {},
      {
        get: (_target, method) =>
          typeof method === 'string' ? (...args: unknown[]) => call(area, method, args) : undefined,
      },
    );

  const areas = Object.fromEntries(storeAreas.map((area) => [area, areaProxy(area)])) as Pick<StudyStore, StoreArea>;
  return {
    location,
    ...areas,
    jobs: areaProxy('jobs') as WorkerJobs,
    onChange(listener) {
      listeners.add(listener);
      if (!watching) {
        watching = true;
        void call('store', 'watch', []).catch(() => {});
      }
      return () => listeners.delete(listener);
    },
    async close() {
      if (closed !== undefined) return;
      const done = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      worker.postMessage({ type: 'close' } satisfies HostToWorker);
      await done;
      closed = new Error('the study store is closed');
    },
  };
}
