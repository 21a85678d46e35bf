// `qrels-studio lint` of the 1M-line qrels with MS MARCO-length ids (benchEval.ts's data), as the README runs it
// (bin/qrels-studio.cjs), interleaved in the same rounds with its floor: a Node process that only reads the same
// file and counts its lines (startup + reading, nothing checked). Printed against the target of ≤ 0.3 s.
import { join } from 'node:path';
import { timeInterleaved } from './benchInterleaved.ts';

const countLines =
  "const fs=require('fs');let n=0;for(const f of process.argv.slice(1)){const fd=fs.openSync(f,'r');" +
  'const b=Buffer.allocUnsafe(1<<20);let r;while((r=fs.readSync(fd,b,0,b.length))>0){let i=-1;' +
  'while((i=b.indexOf(10,i+1))!==-1&&i<r)n++;}fs.closeSync(fd);}console.log(n)';

export function benchLint(root: string, qrelsFile: string, repetitions: number): string[] {
  const [baseline, lint] = timeInterleaved(
    [
      { command: process.execPath, args: ['-e', countLines, qrelsFile] },
      { command: process.execPath, args: [join(root, 'bin', 'qrels-studio.cjs'), 'lint', qrelsFile] },
    ],
    repetitions,
  );
  const row = (name: string, t: typeof lint, note: string) =>
    `${name.padEnd(44)} ${t!.seconds.toFixed(3).padStart(7)} s  ${t!.peakMiB.toFixed(0).padStart(5)} MiB  ${note}`;
  return [
    row('baseline: read the qrels, count lines (node)', baseline, ''),
    row(
      `lint qrels (1M lines, median of ${repetitions})`,
      lint,
      `${(lint!.seconds / baseline!.seconds).toFixed(2)}× baseline   target ≤ 0.3 s`,
    ),
  ];
}
