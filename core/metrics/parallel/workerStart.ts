// Starting eval's second thread, kept apart from the evaluation code so that the CLI can start it before the rest
// of its bundle initialises (startEarly): the thread boots (~30 ms of a Node instance) while the main thread loads.
// Only node:fs, node:path, node:worker_threads and queryBoundary.ts are imported here, for that reason.
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { groupedByQuery } from './queryBoundary.ts';

/** Below this many bytes of qrels and run together a second thread costs more than it saves (~60 ms to boot). */
export const minimumBytes = 8 << 20;

/** QRELS_STUDIO_EVAL_THREADS: 1 = always one thread, 2 = two whenever the files allow (tests force it on small
 * fixtures), unset = two for files large enough while a core is idle. */
export function threadsWanted(): 'one' | 'two' | 'auto' {
  const value = process.env.QRELS_STUDIO_EVAL_THREADS;
  return value === '1' ? 'one' : value === '2' ? 'two' : 'auto';
}

/** True when the last minute's load leaves about a core idle (a one-process-at-a-time bench keeps it near 1), or
 * nothing else is running right now: on a busy machine the second thread only competes for the same core (measured
 * on 2 cores at load 3: 1.07 s on two threads, 0.78 s on one). */
export function idleCore(): boolean {
  const cores = availableParallelism();
  if (loadavg()[0]! < cores - 0.5) return true;
  // The minute's average lags: right after other work (a bench's earlier rows, this eval's own previous runs, whose
  // two threads count twice) it stays high on a machine now idle.
  const runnable = runnableNow();
  return runnable !== undefined && runnable <= cores - 1;
}

/** Threads runnable this instant, this one included (Linux: /proc/loadavg's fourth field, 'running/total'). */
function runnableNow(): number | undefined {
  try {
    const running = Number.parseInt(readFileSync('/proc/loadavg', 'latin1').split(' ')[3]!, 10);
    return Number.isNaN(running) ? undefined : running;
  } catch {
    return undefined;
  }
}

/** The size of a regular file that is not gzip, else undefined. */
export function plainFileSize(file: string): number | undefined {
  let fd: number | undefined;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) return undefined;
    fd = openSync(file, 'r');
    const magic = Buffer.alloc(2);
    if (readSync(fd, magic, 0, 2, 0) === 2 && magic[0] === 0x1f && magic[1] === 0x8b) return undefined;
    return stat.size;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The worker's file: dist/evalWorker.cjs beside the bundle, or evalWorker.ts beside this file when run from the
 * sources; undefined when neither is there (a bundle shipped without it). */
export function workerFile(): string | undefined {
  return [join(import.meta.dirname, 'evalWorker.cjs'), join(import.meta.dirname, 'evalWorker.ts')].find((file) =>
    existsSync(file),
  );
}

/** Starts the worker, which waits for its task (the bundle with Node's compile cache, as bin/launch.cjs turns it on
 * for the main thread). */
export function startWorker(file: string): Worker {
  const worker = file.endsWith('.cjs')
    ? new Worker(`try { require('node:module').enableCompileCache?.(); } catch {}\nrequire(${JSON.stringify(file)});`, {
        eval: true,
      })
    : new Worker(file);
  state.booting = worker;
  worker.on('message', (message: { kind?: string }) => {
    if (message.kind === 'booted') stopWaitingForBoot(worker);
  });
  worker.once('exit', () => stopWaitingForBoot(worker));
  return worker;
}

/** Runs what waited for `worker` to boot (whenWorkerBooted): it has, or it is no longer wanted. */
export function stopWaitingForBoot(worker: Worker): void {
  if (state.booting !== worker) return;
  state.booting = undefined;
  for (const action of state.afterBoot.splice(0)) action();
}

/**
 * Runs `action` once the worker being started has loaded its code (at once when none is). For V8 flags: setting one
 * changes the hash V8 checks a code cache against, so a worker booting after it compiles Node's internal modules
 * from source instead of reading their cache (30 → 65–90 ms before its first line).
 */
export function whenWorkerBooted(action: () => void): void {
  if (state.booting) state.afterBoot.push(action);
  else action();
}

/** Who ran startEarly first: the launcher's start bundle (dist/cli.start.cjs) or the CLI's own entry. */
export type EarlyStarter = 'the launcher' | 'the CLI entry';

interface EarlyLook {
  files: readonly string[];
  sizes: readonly number[];
  ungrouped?: string;
}

/** What startEarly did, and the worker booting. On globalThis: the launcher runs startEarly from a bundle of its own
 * (dist/cli.start.cjs, bin/launch.cjs), before the CLI's bundle — with its own copy of this module — loads. */
interface EarlyState {
  started: boolean;
  startedBy?: EarlyStarter;
  early?: Worker;
  earlyExited: boolean;
  /** The sizes startEarly found, and the first file not grouped by query (if any), for twoThreadPlan not to look
   * again. */
  earlyLook?: EarlyLook;
  booting?: Worker;
  afterBoot: (() => void)[];
}

const stateKey = Symbol.for('qrels-studio.evalWorkerStart');
const holder = globalThis as { [stateKey]?: EarlyState };
holder[stateKey] ??= { started: false, earlyExited: false, afterBoot: [] };
const state = holder[stateKey];

/**
 * Called by the CLI's entry first thing: when the arguments look like an eval of two large plain files grouped by
 * query (a guess: the files are the arguments that are files), the worker is started now. Whatever eval then
 * decides, it takes the worker (takeEarlyWorker) or leaves it to end with the process.
 */
export function startEarly(args: readonly string[], by: EarlyStarter): void {
  if (state.started) return; // by the launcher's start bundle already
  state.started = true;
  state.startedBy = by;
  if (args[0] !== 'eval' || threadsWanted() === 'one') return;
  // all_trec stays on one thread (manyPerQueryValues in parallelEvaluation.ts): no worker to boot for it.
  if (threadsWanted() === 'auto' && args.some((arg) => /^(-m)?all_trec$/.test(arg))) return;
  const files: string[] = [];
  const sizes: number[] = [];
  args.slice(1).forEach((arg, i, rest) => {
    const size = rest[i - 1] === '-Z' ? undefined : plainFileSize(arg); // each argument opened once
    if (size === undefined) return;
    files.push(arg);
    sizes.push(size);
  });
  if (files.length !== 2) return;
  if (threadsWanted() === 'auto' && (sizes[0]! + sizes[1]! < minimumBytes || !idleCore())) return;
  // A run written rank by rank is read on one thread: no worker to boot for it (64 KiB of each file looked at).
  const ungrouped = !groupedByQuery(files[0]!) ? files[0] : !groupedByQuery(files[1]!, true) ? files[1] : undefined;
  state.earlyLook = { files, sizes, ...(ungrouped !== undefined && { ungrouped }) };
  const file = workerFile();
  if (ungrouped !== undefined || file === undefined) return;
  const early = startWorker(file);
  state.early = early;
  early.unref(); // an eval that does not take it must not wait for it
  early.on('error', () => {}); // nor fail because of it
  early.on('exit', () => {
    state.earlyExited = true;
  });
}

/** What startEarly found about these two files (once), or undefined. */
export function takeEarlyLook(files: readonly string[]): EarlyLook | undefined {
  const look = state.earlyLook;
  state.earlyLook = undefined;
  return look && look.files.length === files.length && look.files.every((file, i) => file === files[i])
    ? look
    : undefined;
}

/** Who started the worker takeEarlyWorker hands over (QRELS_STUDIO_DEBUG says it). */
export function earlyStarter(): EarlyStarter | undefined {
  return state.startedBy;
}

/** The worker startEarly started, once (undefined if it is gone: one is started then). */
export function takeEarlyWorker(): Worker | undefined {
  const worker = state.earlyExited ? undefined : state.early;
  state.early = undefined;
  if (!worker && state.booting) stopWaitingForBoot(state.booting);
  if (worker) {
    worker.removeAllListeners('error');
    worker.ref();
  }
  return worker;
}
