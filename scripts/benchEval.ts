// The eval part of `npm run bench` (also runnable alone: `node scripts/benchEval.ts`): `qrels-studio eval` as users
// run it (bin/qrels-studio.cjs, a new process each time) against the real trec_eval built with -O2, on the same
// files, with their repetitions interleaved (ours, theirs, ours, …) so that a noisy machine slows both alike. Prints
// wall time and peak RSS of each and our ratio to trec_eval, and checks that both print the same numbers.
//   trec_eval: the binary $TREC_EVAL names; else built with -O2 into .cache/trec_eval-O2/ from the trec_eval sources
//   $TREC_EVAL_SOURCES names (a checkout of usnistgov/trec_eval) when a C compiler exists; else the one built earlier;
//   else the rows say why they are missing. The bench never looks outside the repository on its own.
//   data: 10,000 queries (MS MARCO-style numeric qids) × 100 judged documents with MS MARCO v2 passage ids
//   (`msmarco_passage_NN_NNNNNNNNN`, 28 bytes: the length the readers must be sized for), a 1M-line run written
//   query by query, and the same run with its queries interleaved (what bounds the reader's memory).
//   peak RSS: GNU time's %M, the same tool for both processes; without /usr/bin/time memory is not compared.
import { spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, cpSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { random, writeLines } from './benchData.ts';

export interface EvalBenchRow {
  name: string;
  target: string;
  ours: Measured;
  trecEval?: Measured;
  /** Whether both printed the same text (undefined when trec_eval is missing). */
  sameOutput?: boolean;
  /** When the outputs differ: how many lines differ, and the first one. */
  difference?: string;
}

interface Measured {
  medianSeconds: number;
  /** Median of the runs' user + system CPU seconds (GNU time; NaN without it): steadier than wall time on a busy
   * machine, where a neighbour's load stretches both programs' wall time. */
  cpuSeconds: number;
  /** Median of the runs' peak RSS; NaN when it cannot be measured. */
  peakMiB: number;
  /** The 1-minute load average when the rows' repetitions ended. */
  load: number;
}

const queryCount = 10000;
const perQuery = 100;

/** MS MARCO-style ids: numeric qids, v2 passage docids (`msmarco_passage_` + 2-digit shard + `_` + offset). */
const qidOf = (q: number): string => String(1000000 + q * 37);
const docidOf = (n: number): string =>
  `msmarco_passage_${String(n % 70).padStart(2, '0')}_${String(100000000 + n * 7919).slice(0, 9)}`;

export interface EvalBenchData {
  qrels: string;
  run: string;
  interleavedRun: string;
}

export async function generateEvalBenchData(dataDir: string): Promise<EvalBenchData> {
  const data = {
    qrels: join(dataDir, 'qrels-msmarco-10k-x-100.txt'),
    run: join(dataDir, 'run-msmarco-10k-x-100.trec'),
    interleavedRun: join(dataDir, 'run-msmarco-10k-x-100-interleaved.trec'),
  };
  if (existsSync(data.qrels) && existsSync(data.run) && existsSync(data.interleavedRun)) return data;
  mkdirSync(dataDir, { recursive: true });
  const next = random(20261126);
  // Each query judges 100 of its 400 candidates (graded 0–3) and retrieves 100 of them, about half judged; ranks
  // have ties in score now and then (trec_eval breaks them by docid: so must we).
  await writeLines(data.qrels, (write) => {
    for (let q = 0; q < queryCount; q++) {
      for (let d = 0; d < perQuery; d++) {
        const label = next() < 0.6 ? 0 : 1 + Math.floor(next() * 3);
        write(`${qidOf(q)} 0 ${docidOf(q * 400 + d * 2)} ${label}\n`);
      }
    }
  });
  const runLine = (q: number, r: number, score: number): string =>
    `${qidOf(q)} Q0 ${docidOf(q * 400 + r * 3)} ${r + 1} ${score.toFixed(4)} bench\n`;
  const scores = new Float64Array(queryCount * perQuery);
  for (let i = 0; i < scores.length; i++) scores[i] = 30 - (i % perQuery) * 0.25 - Math.floor(next() * 3) * 0.05;
  await writeLines(data.run, (write) => {
    for (let q = 0; q < queryCount; q++)
      for (let r = 0; r < perQuery; r++) write(runLine(q, r, scores[q * perQuery + r]!));
  });
  // Rank by rank across all queries: every query is open until the end of the file.
  await writeLines(data.interleavedRun, (write) => {
    for (let r = 0; r < perQuery; r++)
      for (let q = 0; q < queryCount; q++) write(runLine(q, r, scores[q * perQuery + r]!));
  });
  return data;
}

function hasCommand(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** Path of trec_eval -O2, or the reason there is none. */
export function locateTrecEval(root: string): { path?: string; note: string } {
  const fromEnvironment = process.env.TREC_EVAL;
  if (fromEnvironment) {
    if (!existsSync(fromEnvironment)) return { note: `TREC_EVAL=${fromEnvironment} does not exist` };
    return { path: fromEnvironment, note: `trec_eval: ${fromEnvironment} (from TREC_EVAL)` };
  }
  const built = join(root, '.cache', 'trec_eval-O2', 'trec_eval');
  const sources = process.env.TREC_EVAL_SOURCES;
  if (!sources) {
    if (existsSync(built)) return { path: built, note: `trec_eval: ${built} (-O2, built earlier)` };
    return {
      note: 'trec_eval: not compared — set TREC_EVAL=/path/to/trec_eval, or TREC_EVAL_SOURCES=/path/to/its/sources to build it with -O2',
    };
  }
  if (!existsSync(join(sources, 'Makefile'))) {
    return { note: `trec_eval: not compared — TREC_EVAL_SOURCES=${sources} holds no Makefile` };
  }
  if (!hasCommand('cc') || !hasCommand('make')) {
    return { note: `trec_eval: not compared — its sources are at ${sources} but cc or make is missing to build it` };
  }
  const copy = join(root, '.cache', 'trec_eval-src');
  cpSync(sources, copy, { recursive: true });
  const make = spawnSync('make', ['-C', copy, 'CFLAGS=-O2 -I. -DVERSIONID=\\"10.0-rc3\\"'], { encoding: 'utf8' });
  if (make.status !== 0 || !existsSync(join(copy, 'trec_eval'))) {
    return { note: `trec_eval: not compared — building it with -O2 in ${copy} failed:\n${make.stderr.slice(-2000)}` };
  }
  mkdirSync(join(root, '.cache', 'trec_eval-O2'), { recursive: true });
  copyFileSync(join(copy, 'trec_eval'), built);
  return { path: built, note: `trec_eval: ${built} (built now with -O2 from TREC_EVAL_SOURCES=${sources})` };
}

const gnuTime = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

/** One timed run with its output thrown away: wall seconds, CPU seconds and peak RSS (KiB; NaN without GNU time). */
function timeOnce(
  command: string,
  args: string[],
  env?: NodeJS.ProcessEnv,
): { seconds: number; cpu: number; peakKiB: number } {
  const devNull = openSync('/dev/null', 'w');
  try {
    const [file, fileArgs] = gnuTime
      ? [gnuTime, ['-f', 'bench-peak-rss-kib %M cpu %U %S', command, ...args]]
      : [command, args];
    const start = process.hrtime.bigint();
    const result = spawnSync(file, fileArgs, {
      stdio: ['ignore', devNull, 'pipe'],
      encoding: 'utf8',
      ...(env && { env: { ...process.env, ...env } }),
    });
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    if (result.status !== 0)
      throw new Error(`${command} ${args.join(' ')} exited with ${result.status}:\n${result.stderr}`);
    const peak = /bench-peak-rss-kib (\d+) cpu ([\d.]+) ([\d.]+)\s*$/.exec(result.stderr);
    return {
      seconds,
      cpu: peak ? Number(peak[2]) + Number(peak[3]) : Number.NaN,
      peakKiB: peak ? Number(peak[1]) : Number.NaN,
    };
  } finally {
    closeSync(devNull);
  }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/** A program, its arguments, and variables added to the environment. */
type Command = [string, string[], NodeJS.ProcessEnv?];

/** Times the commands with their repetitions interleaved, the order alternating each round. */
function timeInterleaved(commands: Command[], repetitions: number): Measured[] {
  const seconds = commands.map((): number[] => []);
  const cpu = commands.map((): number[] => []);
  const peaks = commands.map((): number[] => []);
  for (let round = 0; round < repetitions; round++) {
    const order = commands.map((_, i) => i);
    if (round % 2 === 1) order.reverse();
    for (const i of order) {
      const { seconds: s, cpu: c, peakKiB } = timeOnce(commands[i]![0], commands[i]![1], commands[i]![2]);
      seconds[i]!.push(s);
      cpu[i]!.push(c);
      peaks[i]!.push(peakKiB);
    }
  }
  const load = loadavg()[0]!;
  return commands.map((_, i) => ({
    medianSeconds: median(seconds[i]!),
    cpuSeconds: median(cpu[i]!),
    peakMiB: median(peaks[i]!) / 1024,
    load,
  }));
}

function output(command: string, args: string[], env?: NodeJS.ProcessEnv): string {
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    ...(env && { env: { ...process.env, ...env } }),
  });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} exited with ${result.status}:\n${result.stderr}`);
  return result.stdout;
}

/** Compares two outputs line by line, ignoring the order of lines (trec_eval -q prints topics in its own order). */
function withoutKnown(text: string): string {
  return text
    .split('\n')
    .filter((line) => !knownDifference.test(line))
    .join('\n');
}

/** trec_eval's rbp reads uninitialised variables (README): its lines are left out of the comparison, and said so. */
const knownDifference = /^rbp\s/;

function compareOutputs(ours: string, theirs: string): { same: boolean; difference?: string } {
  if (ours === theirs) return { same: true };
  const known = (text: string): string[] => text.split('\n').filter((line) => knownDifference.test(line));
  if (known(ours).length > 0 && known(ours).length === known(theirs).length) {
    const compared = compareOutputs(withoutKnown(ours), withoutKnown(theirs));
    return compared.same
      ? { same: true, difference: "rbp lines not compared: trec_eval's read uninitialised memory" }
      : compared;
  }
  const a = ours.split('\n');
  const b = theirs.split('\n');
  const count = new Map<string, number>();
  for (const line of b) count.set(line, (count.get(line) ?? 0) + 1);
  const onlyOurs: string[] = [];
  for (const line of a) {
    const n = count.get(line) ?? 0;
    if (n === 0) onlyOurs.push(line);
    else count.set(line, n - 1);
  }
  const onlyTheirs = [...count].filter(([, n]) => n > 0).flatMap(([line, n]) => Array<string>(n).fill(line));
  if (onlyOurs.length === 0 && onlyTheirs.length === 0) return { same: true, difference: 'same lines, other order' };
  return {
    same: false,
    difference:
      `${onlyOurs.length} lines only ours, ${onlyTheirs.length} only trec_eval's` +
      (onlyOurs[0] !== undefined ? `; first of ours: '${onlyOurs[0]}'` : '') +
      (onlyTheirs[0] !== undefined ? `; first of trec_eval's: '${onlyTheirs[0]}'` : ''),
  };
}

export async function benchEval(root: string, dataDir: string, repetitions: number): Promise<{ lines: string[] }> {
  const cli = join(root, 'bin', 'qrels-studio.cjs');
  if (!existsSync(join(root, 'dist', 'cli.cjs'))) throw new Error("dist/cli.cjs is missing: run 'npm run build' first");
  const data = await generateEvalBenchData(dataDir);
  const trecEval = locateTrecEval(root);
  const lines: string[] = [];
  const megabytes = (file: string): string => (statSync(file).size / 1e6).toFixed(0);
  lines.push(
    `eval data: ${data.qrels} (${megabytes(data.qrels)} MB), ${data.run} (${megabytes(data.run)} MB), ` +
      `the same run interleaved by query; median of ${repetitions}, interleaved with trec_eval`,
  );
  lines.push(trecEval.note);
  if (!gnuTime) lines.push('peak memory: not measured (no /usr/bin/time)');

  const cases: { name: string; measures: string[]; run: string; target: string; env?: NodeJS.ProcessEnv }[] = [
    {
      name: 'eval -m map -m ndcg_cut.10 -m recall.100',
      measures: ['-m', 'map', '-m', 'ndcg_cut.10', '-m', 'recall.100'],
      run: data.run,
      target: 'target ≤ 0.50× time, ≤ 1.00× memory',
    },
    {
      // As users run it, eval takes two threads on files this size only while a core is idle (core/metrics/parallel):
      // these rows show each path whatever the machine's load.
      name: '  the same on two threads',
      measures: ['-m', 'map', '-m', 'ndcg_cut.10', '-m', 'recall.100'],
      run: data.run,
      target: '(QRELS_STUDIO_EVAL_THREADS=2)',
      env: { QRELS_STUDIO_EVAL_THREADS: '2' },
    },
    {
      name: '  the same on one thread',
      measures: ['-m', 'map', '-m', 'ndcg_cut.10', '-m', 'recall.100'],
      run: data.run,
      target: '(QRELS_STUDIO_EVAL_THREADS=1)',
      env: { QRELS_STUDIO_EVAL_THREADS: '1' },
    },
    {
      name: '  the same, run interleaved by query',
      measures: ['-m', 'map', '-m', 'ndcg_cut.10', '-m', 'recall.100'],
      run: data.interleavedRun,
      target: 'target ≤ 1.00× memory',
    },
    {
      name: 'eval -m all_trec -q',
      measures: ['-m', 'all_trec', '-q'],
      run: data.run,
      target: 'target ≤ 1.00× time',
    },
    {
      // Without -q too, all_trec stays on one thread (its two-thread peak memory was ~1.0× trec_eval's).
      name: 'eval -m all_trec',
      measures: ['-m', 'all_trec'],
      run: data.run,
      target: 'target ≤ 1.00× time',
    },
    {
      // -q with all_trec stays on one thread unless forced (manyPerQueryValues in core/metrics/parallel): this row
      // shows what two threads would cost there.
      name: '  the same on two threads',
      measures: ['-m', 'all_trec', '-q'],
      run: data.run,
      target: '(QRELS_STUDIO_EVAL_THREADS=2)',
      env: { QRELS_STUDIO_EVAL_THREADS: '2' },
    },
  ];
  const node = process.execPath;
  for (const c of cases) {
    const ours: Command = [node, [cli, 'eval', ...c.measures, data.qrels, c.run], c.env];
    const row: EvalBenchRow = {
      name: c.name,
      target: c.target,
      ours: { medianSeconds: 0, cpuSeconds: 0, peakMiB: 0, load: 0 },
    };
    if (trecEval.path) {
      const theirs: Command = [trecEval.path, [...c.measures, data.qrels, c.run]];
      const compared = compareOutputs(output(...ours), output(...theirs));
      row.sameOutput = compared.same;
      row.difference = compared.difference;
      [row.ours, row.trecEval] = timeInterleaved([ours, theirs], repetitions) as [Measured, Measured];
    } else {
      [row.ours] = timeInterleaved([ours], repetitions) as [Measured];
    }
    lines.push(formatRow(row));
  }
  return { lines };
}

function formatRow(row: EvalBenchRow): string {
  const mib = (m: Measured): string => (Number.isNaN(m.peakMiB) ? '    ?' : m.peakMiB.toFixed(0).padStart(5));
  const ours = `${row.ours.medianSeconds.toFixed(3).padStart(7)} s  ${mib(row.ours)} MiB`;
  if (!row.trecEval) return `${row.name.padEnd(44)} ${ours}   (no trec_eval to compare with)   ${row.target}`;
  const t = row.trecEval;
  const timeRatio = (row.ours.medianSeconds / t.medianSeconds).toFixed(2);
  const cpuRatio = Number.isNaN(t.cpuSeconds) ? '?' : (row.ours.cpuSeconds / t.cpuSeconds).toFixed(2);
  const memoryRatio = Number.isNaN(t.peakMiB) ? '?' : (row.ours.peakMiB / t.peakMiB).toFixed(2);
  const same = row.sameOutput
    ? `same output${row.difference ? ` (${row.difference})` : ''}`
    : `OUTPUT DIFFERS: ${row.difference}`;
  return (
    `${row.name.padEnd(44)} ${ours}   trec_eval -O2 ${t.medianSeconds.toFixed(3)} s ${mib(t).trim()} MiB   ` +
    `${timeRatio}× time (${cpuRatio}× CPU) ${memoryRatio}× memory   load ${row.ours.load.toFixed(1)}   ${row.target}   ${same}`
  );
}

if (process.argv[1] === import.meta.filename) {
  const root = join(import.meta.dirname, '..');
  const repetitions = Number(process.env.BENCH_REPETITIONS ?? 5);
  const { lines } = await benchEval(root, join(root, 'bench-data'), repetitions);
  for (const line of lines) console.log(line);
}
