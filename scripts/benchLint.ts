// `qrels-studio lint` of the 1M-line qrels with MS MARCO-length ids (benchEval.ts's data), as the README runs it
// (bin/qrels-studio.cjs), interleaved in the same rounds with two floors: a Node process that only reads the same
// file and counts its lines (startup + reading, nothing checked), and a lint of a one-line qrels file (the CLI's
// startup). Printed: median wall and CPU (user + system) time, peak RSS, the time per line above the one-line lint,
// against the target of ≤ 0.3 s. No peer applies (trec_eval does not lint; it stops at the first bad line).
//   node scripts/benchLint.ts   (needs dist/: npm run package; BENCH_REPETITIONS rounds, default 9)
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateEvalBenchData } from './benchEval.ts';
import { type BenchTiming, loadNote, timeInterleaved } from './benchInterleaved.ts';

const countLines =
  "const fs=require('fs');let n=0;for(const f of process.argv.slice(1)){const fd=fs.openSync(f,'r');" +
  'const b=Buffer.allocUnsafe(1<<20);let r;while((r=fs.readSync(fd,b,0,b.length))>0){let i=-1;' +
  'while((i=b.indexOf(10,i+1))!==-1&&i<r)n++;}fs.closeSync(fd);}console.log(n)';

export function benchLint(root: string, qrelsFile: string, repetitions: number, dataDir: string): string[] {
  const oneLine = join(dataDir, 'lint-one-line.qrels');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(oneLine, '1000000 0 msmarco_passage_00_100000000 1\n');
  const cli = join(root, 'bin', 'qrels-studio.cjs');
  const loadBefore = loadNote();
  const [baseline, startup, lint] = timeInterleaved(
    [
      { command: process.execPath, args: ['-e', countLines, qrelsFile] },
      { command: process.execPath, args: [cli, 'lint', oneLine] },
      { command: process.execPath, args: [cli, 'lint', qrelsFile] },
    ],
    repetitions,
  );
  const lines = 1_000_000;
  const row = (name: string, t: BenchTiming, note: string) =>
    `${name.padEnd(44)} ${t.seconds.toFixed(3).padStart(7)} s  ${t.peakMiB.toFixed(0).padStart(5)} MiB  ` +
    `CPU ${t.cpuSeconds.toFixed(3)} s  ${note}`;
  const perLine = (seconds: number, floor: number) => `${(((seconds - floor) / lines) * 1e9).toFixed(0)} ns/line`;
  return [
    `lint: median of ${repetitions} interleaved rounds (${loadBefore} before, ${loadNote()} after)`,
    row('baseline: read the qrels, count lines (node)', baseline!, ''),
    row('lint a one-line qrels (startup)', startup!, ''),
    row(
      'lint qrels (1M lines, MS MARCO ids)',
      lint!,
      `${(lint!.seconds / baseline!.seconds).toFixed(2)}× baseline; ` +
        `${perLine(lint!.seconds, startup!.seconds)} wall, ${perLine(lint!.cpuSeconds, startup!.cpuSeconds)} CPU ` +
        'above startup   target ≤ 0.3 s',
    ),
  ];
}

if (import.meta.main) {
  const root = join(import.meta.dirname, '..');
  const dataDir = join(root, 'bench-data');
  const repetitions = Number(process.env.BENCH_REPETITIONS ?? 9);
  for (const line of benchLint(root, (await generateEvalBenchData(dataDir)).qrels, repetitions, dataDir)) {
    console.log(line);
  }
}
