// `npm run bench`: times what users run on generated data and prints each as a ratio to a baseline measured in the
// same run — a real peer where there is one (trec_eval -O2, sqlite3's .import, psql \copy), with the repetitions of
// ours and theirs interleaved, so the numbers mean something on a noisy machine. Not a test: it asserts nothing.
//   data: 10,000 queries × 100 judged documents (1M qrels lines) and 1M-line runs (see each bench's own header)
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { benchAgreement } from './benchAgreement.ts';
import { random, writeLines } from './benchData.ts';
import { benchEval, generateEvalBenchData } from './benchEval.ts';
import { benchEventLoop } from './benchEventLoop.ts';
import { benchJudge, judgeBenchLines } from './benchJudge.ts';
import { batchBenchRows, benchJudgeBatch } from './benchJudgeBatch.ts';
import { benchJudgeEstimate, judgeEstimateBenchLines } from './benchJudgeEstimate.ts';
import { benchLabelling, percentile } from './benchLabelling.ts';
import { benchLanguageServer } from './benchLanguageServer.ts';
import { benchLint } from './benchLint.ts';
import { benchPostgres } from './benchPostgres.ts';
import { benchStore } from './benchStore.ts';

const root = join(import.meta.dirname, '..');
const dataDir = join(root, 'bench-data');
const qrelsFile = join(dataDir, 'qrels-10k-x-100.txt');
const runFile = join(dataDir, 'run-10k-x-100.trec');
const repetitions = Number(process.env.BENCH_REPETITIONS ?? 5);

async function generate(): Promise<void> {
  if (existsSync(qrelsFile) && existsSync(runFile)) return;
  mkdirSync(dataDir, { recursive: true });
  const next = random(20261121);
  // Each query judges 100 of its 400 candidate documents (graded 0–3) and retrieves 100 of them, half judged.
  await writeLines(qrelsFile, (write) => {
    for (let q = 0; q < 10000; q++) {
      for (let d = 0; d < 100; d++) {
        const label = next() < 0.6 ? 0 : 1 + Math.floor(next() * 3);
        write(`q${q} 0 doc${q * 400 + d * 2} ${label}\n`);
      }
    }
  });
  await writeLines(runFile, (write) => {
    for (let q = 0; q < 10000; q++) {
      for (let r = 0; r < 100; r++) {
        const score = (30 - r * 0.25 - next() * 0.1).toFixed(6);
        write(`q${q} Q0 doc${q * 400 + r * 3} ${r + 1} ${score} bench\n`);
      }
    }
  });
}

await generate();
if (!existsSync(join(root, 'dist', 'cli.cjs'))) throw new Error("dist/cli.cjs is missing: run 'npm run build' first");
const megabytes = (file: string): string => (statSync(file).size / 1e6).toFixed(0);
console.log(
  `data: ${qrelsFile} (${megabytes(qrelsFile)} MB), ${runFile} (${megabytes(runFile)} MB); median of ${repetitions}`,
);

// lint of the 1M-line qrels with MS MARCO-length ids, interleaved with a plain read of the file (see benchLint.ts).
for (const line of benchLint(root, (await generateEvalBenchData(dataDir)).qrels, repetitions, dataDir))
  console.log(line);

// eval against the real trec_eval -O2 on MS MARCO-length ids, interleaved (see benchEval.ts).
for (const line of (await benchEval(root, dataDir, repetitions)).lines) console.log(line);

// The language server over LSP (see benchLanguageServer.ts): first diagnostics after didOpen and after a one-line
// edit of the 1M-line qrels document, as ratios to a plain parse (lines, then fields) of the same text.
const server = await benchLanguageServer(root, qrelsFile, 5);
const editsSorted = [...server.editSeconds].sort((a, b) => a - b);
const editMedian = editsSorted[Math.floor(editsSorted.length / 2)]!;
const lspRow = (name: string, seconds: number, target: string): string =>
  `${name.padEnd(44)} ${seconds.toFixed(3).padStart(7)} s  ${server.peakMiB.toFixed(0).padStart(5)} MiB  ` +
  `${(seconds / server.plainParseSeconds).toFixed(2).padStart(6)}× plain parse   ${target}`;
console.log(
  `${'baseline: plain parse of the qrels text'.padEnd(44)} ${server.plainParseSeconds.toFixed(3).padStart(7)} s`,
);
console.log(lspRow('LSP didOpen → diagnostics (1M-line qrels)', server.openSeconds, 'target ≤ 1 s'));
console.log(
  lspRow(
    `LSP one-line edit → diagnostics (median of ${server.editSeconds.length})`,
    editMedian,
    `target ≤ 0.1 s (all: ${server.editSeconds.map((s) => s.toFixed(3)).join(', ')})`,
  ),
);

// The task database (see benchStore.ts): the document import interleaved with sqlite3's .import of the same rows,
// as ratios (wall, peak RSS); the qrels import and pooling.
for (const line of await benchStore(root, dataDir)) console.log(line);

// PostgreSQL (see benchPostgres.ts): import against psql \copy, 8 annotator processes' commit latency.
for (const line of await benchPostgres(dataDir)) console.log(line);

// The Label view (see benchLabelling.ts): key press → label stored → next pair painted on a 1M-pair study, against a
// move to the next pair with no label written, interleaved in the same run.
const labelling = await benchLabelling(dataDir, join(root, 'dist', 'native'));
const labelP50 = percentile(labelling.labelMs, 50);
const labelP95 = percentile(labelling.labelMs, 95);
const moveP50 = percentile(labelling.moveMs, 50);
const moveP95 = percentile(labelling.moveMs, 95);
console.log(
  `Label view, ${labelling.pairs.toLocaleString('en')} pairs (study built in ${labelling.buildSeconds.toFixed(1)} s, ` +
    `session opened in ${labelling.openSeconds.toFixed(2)} s), ${labelling.labelMs.length} labels:`,
);
console.log(
  `${'  key → stored → next pair painted'.padEnd(44)} p50 ${labelP50.toFixed(1).padStart(5)} ms  p95 ${labelP95.toFixed(1).padStart(5)} ms  ` +
    `${(labelP95 / moveP95).toFixed(2)}× (p95)   target p95 < 50 ms`,
);
console.log(
  `${'  baseline: j → next pair painted, no label'.padEnd(44)} p50 ${moveP50.toFixed(1).padStart(5)} ms  p95 ${moveP95.toFixed(1).padStart(5)} ms`,
);

// The LLM judge at track scale (see benchJudge.ts): 100,000 pairs × 3 votes against an OpenAI-compatible server in
// its own process on 127.0.0.1 answering in 100 ms, 64 calls at a time (QRELS_BENCH_JUDGE_PAIRS shrinks it): bound
// ratio, CPU per call, a labelling session's commits while the judge writes, RSS at a tenth and at the peak, and a
// re-run that must make no request.
const judging = await benchJudge(root, dataDir);
for (const line of judgeBenchLines(judging)) console.log(line);

// A judge budget's estimate at track scale (see benchJudgeEstimate.ts): 100,000 pairs × 3 votes counted, nothing sent.
for (const line of judgeEstimateBenchLines(await benchJudgeEstimate(root, dataDir))) console.log(line);

// The Batch API judge (see benchJudgeBatch.ts): a 100,000-line batch round trip through the CLI against the local
// Files + Batch server — submit, status until every line is recorded; wall time and the CLI's peak RSS.
for (const line of batchBenchRows(await benchJudgeBatch(root, dataDir))) console.log(line);

// Agreement (see benchAgreement.ts): 1M labels by 4 annotators read from a label file (into the units × annotators
// matrix: the baseline), then Krippendorff's ordinal α and every pairwise Cohen's κ.
const agreement = await benchAgreement(dataDir);
console.log(
  `${'agree: read 1M labels (4 annotators)'.padEnd(44)} ${agreement.readSeconds.toFixed(3).padStart(7)} s  (baseline)`,
);
console.log(
  `${'  α ordinal + all pairwise κ (6 pairs × 3)'.padEnd(44)} ${agreement.computeSeconds.toFixed(3).padStart(7)} s  ` +
    `${(agreement.computeSeconds / agreement.readSeconds).toFixed(3)}× reading   target < 1 s`,
);
console.log(
  `${'  the whole agree summary'.padEnd(44)} ${agreement.summarySeconds.toFixed(3).padStart(7)} s  ` +
    `${(agreement.summarySeconds / agreement.readSeconds).toFixed(3)}× reading`,
);

// The extension host's event loop (see benchEventLoop.ts): the longest block while a Label view opens on a 1M-pair
// study and while the Agreement view is computed, with the store in the calling thread (before the storage port)
// and in the worker thread the extension now uses.
for (const row of await benchEventLoop(dataDir, root)) {
  const target = row.name.includes('worker') ? 'target ≤ 50 ms' : '(the thread is blocked: for comparison)';
  console.log(
    `${row.name.padEnd(44)} ${row.seconds.toFixed(3).padStart(7)} s  longest event-loop block ${row.longestBlockMs.toFixed(1).padStart(7)} ms   ${target}`,
  );
}
