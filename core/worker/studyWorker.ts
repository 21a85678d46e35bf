// The worker thread that holds a study's store (the SQLite adapter) for the extension host: it answers the
// StudyStore proxy's calls (workerStudyStore.ts) one message at a time and forwards the store's change
// notifications. Calls run in the order they arrive, as they would on the store itself.
import { parentPort, workerData } from 'node:worker_threads';
import { SqliteStudyStore } from '../store/sqlite/sqliteStudyStore.ts';
import { storeAreas } from '../store/studyStore.ts';
import { serializeError } from './workerErrors.ts';
import { workerJobs } from './workerJobs.ts';
import type { HostToWorker, WorkerStart, WorkerToHost } from './workerProtocol.ts';

if (parentPort === null) throw new Error('studyWorker runs as a worker thread');
const port = parentPort;
const send = (message: WorkerToHost) => port.postMessage(message);
const start = workerData as WorkerStart;

function openStore(): SqliteStudyStore | undefined {
  try {
    return SqliteStudyStore.openNow(start.file, { nativeBinding: start.nativeBinding });
  } catch (error) {
    // Said once, as the proxy's open rejection; the thread then ends without an 'error' event of its own.
    send({ type: 'failed', error: serializeError(error) });
    port.close();
    return undefined;
  }
}

const opened = openStore();
if (opened !== undefined) serve(opened);

function serve(store: SqliteStudyStore): void {
  const jobs = workerJobs(store);
  const areas = new Set<string>(storeAreas);
  let stopListening: (() => void) | undefined;

  function target(area: string): Record<string, unknown> | undefined {
    if (area === 'jobs') return jobs as unknown as Record<string, unknown>;
    if (areas.has(area)) return store[area as (typeof storeAreas)[number]] as unknown as Record<string, unknown>;
    return undefined;
  }

  port.on('message', async (message: HostToWorker) => {
    if (message.type === 'close') {
      stopListening?.();
      await store.close();
      send({ type: 'closed' });
      port.close();
      return;
    }
    const { id, area, method, args } = message;
    try {
      if (area === 'store' && method === 'watch') {
        stopListening ??= store.onChange((change) => send({ type: 'change', change }));
        send({ type: 'result', id, value: undefined });
        return;
      }
      const object = target(area);
      const fn = object?.[method];
      if (typeof fn !== 'function') throw new Error(`the store worker has no method ${area}.${method}`);
      const value = await (fn as (...a: unknown[]) => unknown).apply(object, args);
      send({ type: 'result', id, value });
    } catch (error) {
      send({ type: 'error', id, error: serializeError(error) });
    }
  });

  send({ type: 'ready', location: store.location });
}
