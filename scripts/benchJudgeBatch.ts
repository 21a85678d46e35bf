// A 100,000-line Batch API round trip (issue 22 "Must show"): a real study database of 100,000 pairs, the CLI as
// users run it (bin/qrels-studio.cjs judge --batch, a process of its own with benchPeakMemory.cjs preloaded for its
// peak RSS) against the local Files + Batch server (test/core/judge/openAiBatchServer.ts), itself in another process
// as a real endpoint would be. Timed: from the CLI's start to every line of the output file recorded as a call in
// the study's record (the write, upload, batch creation, polls, download and recording). The server answers a batch
// as soon as it is polled, so what is timed is ours, not a 24-hour window. The baseline, in the same run: the same
// input files sent by the bare `openai` SDK (upload, create, poll, read the output) — the transport and the server's
// work with nothing rendered or recorded. A re-run must send nothing. QRELS_BENCH_BATCH_LINES shrinks the job.
//   node scripts/benchJudgeBatch.ts            the bench (needs dist/: npm run package)
//   node scripts/benchJudgeBatch.ts serve      the server process alone (prints {"baseURL","stats"})
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import OpenAI from 'openai';
import { SqliteStudyStore } from '../core/store/sqlite/sqliteStudyStore.ts';
import { locateNativeBinding } from '../core/store/sqliteDatabase.ts';
import { studyDatabasePath } from '../core/store/studyDatabase.ts';
import { startCliProcess } from '../test/helpers.ts';
import { random, writeNumberedLines } from './benchData.ts';

export interface BatchBench {
  lines: number;
  /** From the CLI's start until every line was recorded. */
  seconds: number;
  /** The CLI processes' highest peak RSS. */
  peakMiB: number;
  /** Calls in the record after the run. */
  recorded: number;
  /** Requests the server received, by route. */
  routes: Record<string, number>;
  /** Requests of any route the re-run sent besides reading status (0 expected for batches and files created). */
  rerunCreated: number;
  rerunSeconds: number;
  /**
   * The baseline: the same input files (as the server stored them) sent by the bare SDK — upload, create, poll,
   * read every output line — with nothing rendered or recorded.
   */
  baselineSeconds: number;
  /** The first job's CLI runs: which, how long, peak RSS. */
  runs: { command: 'submit' | 'status'; seconds: number; peakMiB: number }[];
}

/** The Files + Batch server in this process, for the bench to start as a child. */
async function serve(): Promise<void> {
  const { startOpenAiBatchServer } = await import('../test/core/judge/openAiBatchServer.ts');
  const server = await startOpenAiBatchServer({
    respondLine: ({ line }) => ({
      content: JSON.stringify({ rationale: 'The passage answers part of the query.', label: line % 3 }),
      usage: { prompt_tokens: 300, completion_tokens: 20 },
    }),
  });
  const stats = createServer((_request, response) => {
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify(Object.fromEntries(server.routeCounts())));
  });
  await new Promise<void>((resolve) => stats.listen(0, '127.0.0.1', resolve));
  const { port } = stats.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ baseURL: server.baseURL, stats: `http://127.0.0.1:${port}/` })}\n`);
  process.on('SIGTERM', () => {
    stats.close();
    void server.close().then(() => process.exit(0));
  });
}

/**
 * The study: `queries` queries of a few words, each with `perQuery` documents of about 120 words from its run (a
 * batch line is then about 1.3 KB, as a passage judge's is); imported by the CLI as a user would.
 */
async function writeStudy(folder: string, queries: number, perQuery: number): Promise<void> {
  writeFileSync(
    join(folder, 'batch.assess'),
    `study "batch-bench" {
  queries "queries.jsonl" { id: qid  text: query }
  corpus  "corpus.jsonl"  { id: docid  body: text }
  pool    "run.trec" depth ${perQuery}
  scale ordinal { 0 "No" key "0"  1 "Partly" key "1"  2 "Yes" key "2" }
  judge "bench-model" { temperature 0 }
}
`,
  );
  const next = random(20261126);
  const vocabulary = Array.from({ length: 2000 }, (_, i) => `w${i.toString(36)}`);
  const words = (n: number) => Array.from({ length: n }, () => vocabulary[Math.floor(next() * 2000)]).join(' ');
  await writeNumberedLines(
    join(folder, 'queries.jsonl'),
    queries,
    (q) => `${JSON.stringify({ qid: `q${q}`, query: words(6) })}\n`,
  );
  await writeNumberedLines(
    join(folder, 'corpus.jsonl'),
    queries * perQuery,
    (d) => `${JSON.stringify({ docid: `d${d}`, text: words(120) })}\n`,
  );
  await writeNumberedLines(join(folder, 'run.trec'), queries * perQuery, (i) => {
    const q = Math.floor(i / perQuery);
    const rank = (i % perQuery) + 1;
    return `q${q} Q0 d${i} ${rank} ${(1000 - rank).toFixed(3)} bench\n`;
  });
}

/** The baseline (see BatchBench): the CLI's input files sent again by the SDK alone; its seconds. */
async function sdkRoundTrip(baseURL: string, folder: string): Promise<number> {
  const sdk = new OpenAI({ baseURL, apiKey: 'none', maxRetries: 0 });
  const inputs: string[] = [];
  for await (const file of sdk.files.list({ purpose: 'batch' })) {
    const path = join(folder, `baseline-${file.id}.jsonl`);
    await pipeline(
      Readable.fromWeb((await sdk.files.content(file.id)).body as WebReadableStream),
      createWriteStream(path),
    );
    inputs.push(path);
  }
  const started = performance.now();
  for (const path of inputs) {
    const file = await sdk.files.create({
      file: await OpenAI.toFile(createReadStream(path), 'baseline.jsonl'),
      purpose: 'batch',
    });
    let batch = await sdk.batches.create({
      input_file_id: file.id,
      endpoint: '/v1/chat/completions',
      completion_window: '24h',
    });
    while (!['completed', 'failed', 'expired', 'cancelled'].includes(batch.status)) {
      batch = await sdk.batches.retrieve(batch.id);
    }
    const output = (await sdk.files.content(batch.output_file_id!)).body as WebReadableStream;
    let lines = 0;
    for await (const line of createInterface({ input: Readable.fromWeb(output), crlfDelay: Infinity })) {
      if (line !== '') lines++;
    }
    if (lines !== batch.request_counts?.total)
      throw new Error(`baseline: ${lines} output lines of ${batch.request_counts?.total}`);
  }
  const seconds = (performance.now() - started) / 1000;
  for (const path of inputs) rmSync(path);
  return seconds;
}

/** Runs the CLI with its peak RSS reported (benchPeakMemory.cjs); resolves with its output and peak. */
async function runCli(root: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const preload = ['--require', join(root, 'scripts', 'benchPeakMemory.cjs')];
  const { status, stdout, stderr } = await startCliProcess(args, cwd, env, preload).finished;
  const peak = /bench-peak-rss-kib (\d+)\s*$/.exec(stderr);
  if (status !== 0) throw new Error(`qrels-studio ${args.join(' ')} exited with ${status}:\n${stderr}`);
  return { stdout, stderr, peakMiB: peak ? Number(peak[1]) / 1024 : Number.NaN };
}

export async function benchJudgeBatch(root: string, dataDir: string): Promise<BatchBench> {
  const queries = Math.max(1, Math.round(Number(process.env.QRELS_BENCH_BATCH_LINES ?? 100_000) / 100));
  const perQuery = 100;
  const lines = queries * perQuery;
  const folder = join(dataDir, 'judge-batch-100k');
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  await writeStudy(folder, queries, perQuery);
  const child = spawn(process.execPath, [join(root, 'scripts', 'benchJudgeBatch.ts'), 'serve'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const [line] = (await once(child.stdout!, 'data')) as [Buffer];
    const { baseURL, stats } = JSON.parse(line.toString()) as { baseURL: string; stats: string };
    /** The study's record, opened between the CLI's runs. */
    const withStore = async <T>(read: (store: SqliteStudyStore) => Promise<T>): Promise<T> => {
      const store = await SqliteStudyStore.open(studyDatabasePath(join(folder, 'batch.assess')), {
        nativeBinding: locateNativeBinding(join(root, 'dist', 'native')),
      });
      try {
        return await read(store);
      } finally {
        await store.close();
      }
    };
    const recordedBatches = () =>
      withStore(async (store) => store.judgeBatches.batches(await store.studies.studyId('batch-bench')));
    const routes = async () => (await (await fetch(stats)).json()) as Record<string, number>;
    const env: NodeJS.ProcessEnv = { ...process.env, QRELS_STUDIO_CONFIG_DIR: join(folder, 'config') };
    delete env.OPENAI_API_KEY;
    delete env.OPENAI_BASE_URL;
    const endpoint = ['--endpoint', baseURL, '--allow-endpoint', baseURL];
    await runCli(root, ['import', 'batch.assess'], folder, env);
    const submit = ['judge', 'batch.assess', '--batch', ...endpoint];
    const status = ['judge', 'batch.assess', '--batch-status', ...endpoint];
    /** Submits, then looks at the status until no batch is open, as a user would; the highest peak RSS. */
    const runs: BatchBench['runs'] = [];
    const timed = async (command: 'submit' | 'status') => {
      const started = performance.now();
      const run = await runCli(root, command === 'submit' ? submit : status, folder, env);
      runs.push({ command, seconds: (performance.now() - started) / 1000, peakMiB: run.peakMiB });
      return run;
    };
    const job = async (): Promise<number> => {
      let peak = (await timed('submit')).peakMiB;
      for (let look = 0; ; look++) {
        const run = await timed('status');
        peak = Math.max(peak, run.peakMiB);
        const batches = await recordedBatches();
        if (batches.length > 0 && batches.every((b) => b.recordedAt !== null)) break;
        if (look > 20) throw new Error(`the batch job is still open after ${look} looks:\n${run.stdout}`);
      }
      return peak;
    };

    let started = performance.now();
    const peakMiB = await job();
    const seconds = (performance.now() - started) / 1000;
    const firstRuns = runs.splice(0);
    const first = await routes();

    started = performance.now();
    const rerunPeak = await job();
    const rerunSeconds = (performance.now() - started) / 1000;
    const second = await routes();
    const created = (r: Record<string, number>) => (r['files.create'] ?? 0) + (r['batches.create'] ?? 0);

    const baselineSeconds = await sdkRoundTrip(baseURL, folder);
    const recorded = await withStore(async (store) =>
      store.judge.callTotals(await store.studies.studyId('batch-bench')),
    ).then((t) => t.calls);
    if (recorded !== lines) throw new Error(`expected ${lines} calls recorded, found ${recorded}`);
    return {
      lines,
      seconds,
      peakMiB: Math.max(peakMiB, rerunPeak),
      recorded,
      routes: first,
      rerunCreated: created(second) - created(first),
      rerunSeconds,
      runs: firstRuns,
      baselineSeconds,
    };
  } finally {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
}

/** The bench's rows, as scripts/bench.ts prints them. */
export function batchBenchRows(bench: BatchBench): string[] {
  return [
    `${'baseline: the same batch files, bare SDK'.padEnd(44)} ${bench.baselineSeconds.toFixed(3).padStart(7)} s`,
    `${`judge --batch, ${bench.lines.toLocaleString('en')} lines: all recorded`.padEnd(44)} ${bench.seconds.toFixed(3).padStart(7)} s  ${bench.peakMiB.toFixed(0).padStart(5)} MiB  ` +
      `${(bench.seconds / bench.baselineSeconds).toFixed(2)}× baseline  ` +
      `(${bench.recorded.toLocaleString('en')} calls, ${bench.routes['batches.retrieve'] ?? 0} polls, ` +
      `${bench.routes['batches.create'] ?? 0} batches)`,
    `${'  re-run of the finished batch job'.padEnd(44)} ${bench.rerunSeconds.toFixed(3).padStart(7)} s  ` +
      `${bench.rerunCreated} uploads or batches created   target 0`,
    `  runs: ${bench.runs.map((r) => `${r.command} ${r.seconds.toFixed(1)} s ${r.peakMiB.toFixed(0)} MiB`).join(', ')}`,
  ];
}

if (import.meta.main) {
  if (process.argv[2] === 'serve') await serve();
  else {
    const root = join(import.meta.dirname, '..');
    for (const row of batchBenchRows(await benchJudgeBatch(root, join(root, 'bench-data')))) console.log(row);
  }
}
