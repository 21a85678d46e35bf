// Timing whole processes for the bench the honest way on a shared machine: the repetitions of the commands being
// compared are interleaved (A B, B A, A B, …), so a neighbour's burst slows both sides alike instead of one, and
// each run's peak RSS comes from GNU time (`%M`) when it is installed, so a Node process and a C tool (sqlite3) are
// measured the same way.

import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';

const gnuTime = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

/** One command of a comparison; `prepare` runs before each repetition, untimed (a fresh database, say). */
export interface BenchCommand {
  command: string;
  args: string[];
  cwd?: string;
  /** Text for its standard input (a sqlite3 script). */
  input?: string;
  prepare?: () => void;
}

export interface BenchTiming {
  /** Median wall seconds over the repetitions. */
  seconds: number;
  /** Median peak RSS in MiB (NaN without GNU time). */
  peakMiB: number;
  all: number[];
}

/** One timed run, its output thrown away; throws with its stderr when it fails. */
export function timeOnce(run: BenchCommand): { seconds: number; peakKiB: number } {
  const devNull = openSync('/dev/null', 'w');
  try {
    const [file, args] = gnuTime
      ? [gnuTime, ['-f', 'bench-peak-rss-kib %M', run.command, ...run.args]]
      : [run.command, run.args];
    const start = process.hrtime.bigint();
    const result = spawnSync(file, args, {
      cwd: run.cwd,
      input: run.input,
      stdio: [run.input === undefined ? 'ignore' : 'pipe', devNull, 'pipe'],
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    if (result.status !== 0) {
      throw new Error(`${run.command} ${run.args.join(' ')} exited with ${result.status}:\n${result.stderr}`);
    }
    const peak = /bench-peak-rss-kib (\d+)\s*$/.exec(result.stderr);
    return { seconds, peakKiB: peak ? Number(peak[1]) : Number.NaN };
  } finally {
    closeSync(devNull);
  }
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Times the commands in `repetitions` rounds, each round running every command once, the order reversed every
 * other round. */
export function timeInterleaved(commands: readonly BenchCommand[], repetitions: number): BenchTiming[] {
  const seconds = commands.map((): number[] => []);
  const peaks = commands.map((): number[] => []);
  for (let round = 0; round < repetitions; round++) {
    const order = commands.map((_, i) => i);
    if (round % 2 === 1) order.reverse();
    for (const i of order) {
      commands[i]!.prepare?.();
      const { seconds: s, peakKiB } = timeOnce(commands[i]!);
      seconds[i]!.push(s);
      peaks[i]!.push(peakKiB);
    }
  }
  return commands.map((_, i) => ({
    seconds: median(seconds[i]!),
    peakMiB: median(peaks[i]!) / 1024,
    all: seconds[i]!,
  }));
}

/** Where `name` is on the PATH, or undefined. */
export function findCommand(name: string): string | undefined {
  const which = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return which.status === 0 ? which.stdout.trim() : undefined;
}
