// What every fuzz target shares: the time bound one call may take for an input of its size, the recorder that
// counts inputs and shows the one being run to the watchdog of fuzz.test.ts (through shared memory, so an input
// that hangs its worker can still be named), and the fast-check parameters (fixed seeds, a fixed number of runs).
import type fc from 'fast-check';

/** What a target reports back: how many inputs it fed to each function it fuzzes. */
export interface TargetReport {
  inputs: Record<string, number>;
  /** Milliseconds each property took, by property. */
  durations: Record<string, number>;
}

/** Runs its properties (each with a fixed seed), counting inputs on the recorder; throws on the first failure. */
export interface FuzzTarget {
  run(recorder: InputRecorder): Promise<TargetReport>;
}

/** The base of every seed: a target's properties use `fuzzSeed + n`, so CI replays exactly the same inputs. */
export const fuzzSeed = 20_261_122;

/** Characters of the running input kept in shared memory for the watchdog's report. */
export const recordedPrefixChars = 400;
/** Layout of the shared buffer: [sequence, input length, prefix length in bytes], then the UTF-8 prefix. */
export const progressHeaderInts = 3;
export const progressBufferBytes = progressHeaderInts * 4 + recordedPrefixChars * 3;

/**
 * A generous bound for one call on an input of `size` (characters or bytes): 2 s plus 20 µs per unit. The real
 * cost is well under 1 µs per unit; the slack absorbs a loaded 2-core machine, the bound only has to be finite.
 */
export function timeBoundMs(size: number): number {
  return 2000 + size * 0.02;
}

export class CallTooSlow extends Error {}

/** Calls `call` and fails if it took longer than the bound for an input of `size`. */
export function timed<T>(what: string, size: number, call: () => T): T {
  const start = performance.now();
  const result = call();
  checkDuration(what, size, performance.now() - start);
  return result;
}

/** `timed` for a promise: the bound covers the time until it settles (resolved or rejected). */
export async function timedAsync<T>(what: string, size: number, call: () => Promise<T>): Promise<T> {
  const start = performance.now();
  try {
    return await call();
  } finally {
    checkDuration(what, size, performance.now() - start);
  }
}

function checkDuration(what: string, size: number, elapsed: number): void {
  const bound = timeBoundMs(size);
  if (elapsed > bound) {
    throw new CallTooSlow(`${what} took ${elapsed.toFixed(0)} ms on an input of size ${size} (bound ${bound} ms)`);
  }
}

/** Counts the inputs of each fuzzed function and publishes the input being run (see fuzz.test.ts). */
export class InputRecorder {
  readonly inputs: Record<string, number> = {};
  private readonly durations: Record<string, number> = {};
  private readonly header: Int32Array | undefined;
  private readonly prefix: Uint8Array | undefined;
  private readonly encoder = new TextEncoder();

  constructor(progress?: SharedArrayBuffer) {
    if (progress) {
      this.header = new Int32Array(progress, 0, progressHeaderInts);
      this.prefix = new Uint8Array(progress, progressHeaderInts * 4);
    }
  }

  /** Call before each input is fed to `target` (one count per input, however many functions it goes through). */
  start(target: string, input: string | Uint8Array): void {
    this.inputs[target] = (this.inputs[target] ?? 0) + 1;
    if (!this.header || !this.prefix) return;
    const length = input.length;
    let written: number;
    if (typeof input === 'string') {
      written = this.encoder.encodeInto(input.slice(0, recordedPrefixChars), this.prefix).written;
    } else {
      written = Math.min(input.length, this.prefix.length);
      this.prefix.set(input.subarray(0, written));
    }
    Atomics.store(this.header, 1, length);
    Atomics.store(this.header, 2, written);
    Atomics.add(this.header, 0, 1);
  }

  /** Runs one property (`check` calls fc.assert) and keeps how long it took. */
  async property(name: string, check: () => void | Promise<void>): Promise<void> {
    const start = performance.now();
    await check();
    this.durations[name] = Math.round(performance.now() - start);
  }

  report(): TargetReport {
    return { inputs: { ...this.inputs }, durations: { ...this.durations } };
  }
}

/** The input a hung worker was running, read from its shared buffer. */
export function describeRunningInput(progress: SharedArrayBuffer): string {
  const header = new Int32Array(progress, 0, progressHeaderInts);
  const written = Atomics.load(header, 2);
  const prefix = Buffer.from(new Uint8Array(progress, progressHeaderInts * 4, written)).toString('utf8');
  return `input #${Atomics.load(header, 0)} (length ${Atomics.load(header, 1)}), starting ${JSON.stringify(prefix)}`;
}

/** The inputs started so far by the worker writing to `progress`. */
export function startedInputs(progress: SharedArrayBuffer): number {
  return Atomics.load(new Int32Array(progress, 0, progressHeaderInts), 0);
}

/**
 * fast-check parameters for one property: a fixed seed and `numRuns` runs, every one of them (no time limit: a
 * loaded machine runs the same inputs later, not fewer; a hang is the watchdog's in fuzz.test.ts).
 */
export function fuzzParameters<T>(seedOffset: number, numRuns: number): fc.Parameters<T> {
  return { seed: fuzzSeed + seedOffset, numRuns };
}
