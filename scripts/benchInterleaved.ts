// Timing whole processes for the bench the honest way on a shared machine: the repetitions of the commands being
// compared are interleaved (A B, B A, A B, …), so a neighbour's burst slows both sides alike instead of one, and
// each run's peak RSS and CPU time (user + system) come from GNU time (`%M`, `%U`, `%S`) when it is installed, so a
// Node process and a C tool (sqlite3) are measured the same way. Each round's values are kept, in round order, so
// a comparison can take the ratio within each round (the two ran seconds apart) and its median over the rounds.

import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { loadavg } from 'node:os';

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
  /** Median CPU seconds (user + system; NaN without GNU time). */
  cpuSeconds: number;
  /** Median peak RSS in MiB (NaN without GNU time). */
  peakMiB: number;
  /** Wall seconds of each round, in round order. */
  all: number[];
  /** CPU seconds of each round, in round order. */
  allCpu: number[];
}

/** One timed run, its output thrown away; throws with its stderr when it fails. */
export function timeOnce(run: BenchCommand): { seconds: number; cpuSeconds: number; peakKiB: number } {
  const devNull = openSync('/dev/null', 'w');
  try {
    const [file, args] = gnuTime
      ? [gnuTime, ['-f', 'bench-peak-rss-kib %M cpu %U %S', run.command, ...run.args]]
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
    const peak = /bench-peak-rss-kib (\d+) cpu ([\d.]+) ([\d.]+)\s*$/.exec(result.stderr);
    return {
      seconds,
      cpuSeconds: peak ? Number(peak[2]) + Number(peak[3]) : Number.NaN,
      peakKiB: peak ? Number(peak[1]) : Number.NaN,
    };
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
  const cpu = commands.map((): number[] => []);
  const peaks = commands.map((): number[] => []);
  for (let round = 0; round < repetitions; round++) {
    const order = commands.map((_, i) => i);
    if (round % 2 === 1) order.reverse();
    for (const i of order) {
      commands[i]!.prepare?.();
      const { seconds: s, cpuSeconds, peakKiB } = timeOnce(commands[i]!);
      seconds[i]!.push(s);
      cpu[i]!.push(cpuSeconds);
      peaks[i]!.push(peakKiB);
    }
  }
  return commands.map((_, i) => ({
    seconds: median(seconds[i]!),
    cpuSeconds: median(cpu[i]!),
    peakMiB: median(peaks[i]!) / 1024,
    all: seconds[i]!,
    allCpu: cpu[i]!,
  }));
}

/** Where `name` is on the PATH, or undefined. */
export function findCommand(name: string): string | undefined {
  const which = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return which.status === 0 ? which.stdout.trim() : undefined;
}

/** The median over the rounds of `a`'s value over `b`'s in the same round, with the lowest and highest. */
export function pairedRatio(a: readonly number[], b: readonly number[]): { median: number; low: number; high: number } {
  const ratios = a.map((value, round) => value / b[round]!);
  return { median: median(ratios), low: Math.min(...ratios), high: Math.max(...ratios) };
}

/** The 1-minute load average now, for the note beside a timing ("load 3.2"). */
export function loadNote(): string {
  return `load ${loadavg()[0]!.toFixed(1)}`;
}
