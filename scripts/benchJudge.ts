// The LLM judge at the scale of a track (issue 22, "big jobs, steady"; see core/judge/judgeStudy.ts): 100,000 pairs
// × 3 votes online, 64 calls in flight, against the OpenAI-compatible test server on 127.0.0.1 answering every call
// after 100 ms — a real study database, the real `openai` SDK through the chat client. The endpoint alone needs
// 300,000 × 0.1 s / 64 = 469 s: the bound. bound / wall says how much of the run is the endpoint's latency and not
// the judge's own work (paging pairs, prompts, parsing, the record's transactions); target ≥ 0.9. Memory must stay
// flat: the judge keeps what is in flight and a bounded look-ahead, never the whole job, so the RSS when a tenth of
// the pairs are done and the peak RSS of the whole run are reported side by side. The same job is then run again:
// every call comes from the cache, and the server must see 0 requests.
// The record stays usable meanwhile: a labelling session in another process (this file run as `label-commits`)
// commits a label every 50 ms and reads the judge's totals every second, once before the judge runs and once while
// it writes; its p95 commit latency while the judge writes / without is reported (target: close to 1×).
// The CPU time per call of the judge's process and of the server's is reported too: on a shared 2-core machine the
// wall-clock ratio depends on what else runs, the CPU per call does not (the bound needs < 1.56 ms per call).
// QRELS_BENCH_JUDGE_PAIRS shrinks it for a quick run (a multiple of 100; default 100,000).
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance as nodePerformance } from 'node:perf_hooks';
import { createChatClient } from '../core/judge/chatClient.ts';
import { defaultPromptTemplate } from '../core/judge/defaultPrompts.ts';
import { judgeStudy } from '../core/judge/judgeStudy.ts';
import { SqliteStudyStore } from '../core/store/sqlite/sqliteStudyStore.ts';
import { locateNativeBinding } from '../core/store/sqliteDatabase.ts';
import { studyDatabasePath } from '../core/store/studyDatabase.ts';
import { buildLargeStudy } from '../test/core/labelling/largeStudy.ts';

export interface JudgeBench {
  pairs: number;
  votes: number;
  concurrency: number;
  latencyMs: number;
  /** The run, from the first call to the last suggestion written. */
  wallSeconds: number;
  /** pairs × votes × latency / concurrency: the endpoint's own time. */
  bound: number;
  /** Chat requests the server received in the run, and the connections they came on. */
  requests: number;
  connections: number;
  /** RSS (MiB) when a tenth of the votes were done, and the most seen during the run. */
  rssAtTenthMiB: number;
  peakRssMiB: number;
  /** CPU time (user + system) per call of the judge's process and of the server's. */
  judgeCpuMsPerCall: number;
  serverCpuMsPerCall: number;
  /** The judge's event loop during the run: the share of the time it was busy, and how late a 10 ms timer ran
   * (p99, max): a slot whose answer arrives while the loop is busy waits that long before its next call starts. */
  eventLoop: { utilization: number; delayP99Ms: number; delayMaxMs: number };
  /** A labelling session's commits (another process): p95 latency without a judge run and while one writes. */
  labelCommitP95Ms: { without: number; during: number };
  /** The session's read of one row (a control: what the busier machine alone adds), without and during. */
  controlReadP95Ms: { without: number; during: number };
  /** The same session's read of the judge's call totals while the judge writes (p95). */
  totalsReadP95Ms: number;
  /** The same job run again. */
  rerunSeconds: number;
  rerunRequests: number;
}

/** What the labelling session (this file run as `label-commits`) measured. */
interface LabelCommits {
  commits: number;
  commitP95Ms: number;
  totalsP95Ms: number;
  /** A read of one row, beside each commit: how much of a slower commit is only a busier CPU. */
  controlP95Ms: number;
}

const p95 = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? 0;
};

/** Starts the labelling session on `studyFile`'s record; `stop()` ends it and returns what it measured. */
function labellingSession(root: string, studyFile: string, perQuery: number): { stop(): Promise<LabelCommits> } {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      join(root, 'scripts', 'benchJudge.ts'),
      'label-commits',
      studyFile,
      join(root, 'dist', 'native'),
      String(perQuery),
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (text: string) => {
    output += text;
  });
  const exited = once(child, 'close');
  return {
    async stop() {
      child.stdin!.end();
      await exited;
      return JSON.parse(output) as LabelCommits;
    },
  };
}

/** The labelling session: a label committed every 50 ms (the judge's totals read every second) until stdin closes. */
async function labelCommits(studyFile: string, nativeDir: string, perQuery: number): Promise<void> {
  const store = await SqliteStudyStore.open(studyDatabasePath(studyFile), {
    nativeBinding: locateNativeBinding(nativeDir),
  });
  const studyId = await store.studies.studyId('large');
  let open = true;
  process.stdin.resume();
  process.stdin.on('end', () => {
    open = false;
  });
  const commits: number[] = [];
  const totals: number[] = [];
  const control: number[] = [];
  for (let i = 0; open; i++) {
    // Query q0's pairs (rank r is document r − 1), one after another.
    let started = performance.now();
    await store.labels.addJudgment({
      study: 'large',
      qid: 'q0',
      docid: `d${String(i % perQuery).padStart(8, '0')}`,
      annotator: 'alice',
      label: i % 3,
      source: 'manual',
      createdAt: new Date(),
    });
    commits.push(performance.now() - started);
    // The judge's totals once a second (as a progress display would): they add up the whole record.
    if (i % 20 === 0) {
      started = performance.now();
      await store.judge.callTotals(studyId);
      totals.push(performance.now() - started);
    }
    started = performance.now();
    await store.studies.studyId('large');
    control.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await store.close();
  const measured: LabelCommits = {
    commits: commits.length,
    commitP95Ms: p95(commits),
    totalsP95Ms: p95(totals),
    controlP95Ms: p95(control),
  };
  process.stdout.write(JSON.stringify(measured));
}

/** The period of the event-loop delay samples. */
const loopSampleMs = 10;

export function judgeBenchPairs(): number {
  const wanted = Number(process.env.QRELS_BENCH_JUDGE_PAIRS ?? 100_000);
  if (!Number.isInteger(wanted) || wanted < 100 || wanted % 100 !== 0) {
    throw new Error(
      `QRELS_BENCH_JUDGE_PAIRS: expected a multiple of 100, found '${process.env.QRELS_BENCH_JUDGE_PAIRS}'`,
    );
  }
  return wanted;
}

export async function benchJudge(root: string, dataDir: string, pairs = judgeBenchPairs()): Promise<JudgeBench> {
  const votes = 3;
  const concurrency = 64;
  const latencyMs = 100;
  const folder = join(dataDir, 'judge-online');
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  const study = await buildLargeStudy({
    folder,
    nativeDir: join(root, 'dist', 'native'),
    queries: 100,
    perQuery: pairs / 100,
    extra: `  annotators alice\n  judge "bench-model" { temperature 0 votes ${votes} }`,
  });
  // The judge asks the record through the storage port, as the CLI does.
  const store = study.store;
  // The endpoint runs in its own process (benchOpenAiServer.ts), as a real one would, and counts what it receives.
  const child = spawn(process.execPath, [join(root, 'scripts', 'benchOpenAiServer.ts'), String(latencyMs)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const [line] = (await once(child.stdout!, 'data')) as [Buffer];
    const { baseURL, stats } = JSON.parse(line.toString()) as { baseURL: string; stats: string };
    const serverStats = async () =>
      (await (await fetch(stats)).json()) as { requests: number; connections: number; cpuMs: number };
    const served = async (): Promise<number> => (await serverStats()).requests;
    const client = createChatClient({ baseURL, apiKey: '' });
    const prompt = { ...defaultPromptTemplate('graded-relevance'), output: 'label' as const };
    const total = pairs * votes;
    let rssAtTenth = 0;
    let peakRss = 0;
    let lastSample = 0;
    const sample = (done: number) => {
      // Sampled every 1,000 votes: memoryUsage().rss is a system call.
      if (done - lastSample < 1_000 && done !== total) return;
      lastSample = done;
      const rss = process.memoryUsage.rss();
      peakRss = Math.max(peakRss, rss);
      if (rssAtTenth === 0 && done >= total / 10) rssAtTenth = rss;
    };
    const options = {
      concurrency,
      client,
      prompt,
      prices: {},
      onProgress: (progress: { done: number }) => sample(progress.done),
    };
    // The labelling session alone, for as long as it takes to commit some 60 labels.
    const alone = labellingSession(root, study.studyFile, pairs / 100);
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    const without = await alone.stop();
    const during = labellingSession(root, study.studyFile, pairs / 100);
    const serverBefore = await serverStats();
    const cpuBefore = process.cpuUsage();
    const loopDelay = monitorEventLoopDelay({ resolution: loopSampleMs });
    loopDelay.enable();
    const loopBefore = nodePerformance.eventLoopUtilization();
    let started = performance.now();
    const report = await judgeStudy(store, study.study, options);
    const wallSeconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const loop = nodePerformance.eventLoopUtilization(loopBefore);
    loopDelay.disable();
    // The histogram holds each sample's whole interval: what is beyond the sampling period is the delay.
    const lateMs = (nanoseconds: number) => Math.max(0, nanoseconds / 1e6 - loopSampleMs);
    const serverAfter = await serverStats();
    const withJudge = await during.stop();
    const requests = serverAfter.requests - serverBefore.requests;
    if (report.suggestions !== pairs) {
      throw new Error(`expected ${pairs} suggestions, found ${report.suggestions} (failures: ${report.failures})`);
    }
    started = performance.now();
    await judgeStudy(store, study.study, { concurrency, client, prompt, prices: {} });
    const rerunSeconds = (performance.now() - started) / 1000;
    const mib = (bytes: number) => bytes / 2 ** 20;
    return {
      pairs,
      votes,
      concurrency,
      latencyMs,
      wallSeconds,
      bound: (total * latencyMs) / 1000 / concurrency,
      requests,
      connections: serverAfter.connections - serverBefore.connections,
      judgeCpuMsPerCall: (cpu.user + cpu.system) / 1000 / requests,
      eventLoop: {
        utilization: loop.utilization,
        delayP99Ms: lateMs(loopDelay.percentile(99)),
        delayMaxMs: lateMs(loopDelay.max),
      },
      serverCpuMsPerCall: (serverAfter.cpuMs - serverBefore.cpuMs) / requests,
      labelCommitP95Ms: { without: without.commitP95Ms, during: withJudge.commitP95Ms },
      totalsReadP95Ms: withJudge.totalsP95Ms,
      controlReadP95Ms: { without: without.controlP95Ms, during: withJudge.controlP95Ms },
      rssAtTenthMiB: mib(rssAtTenth),
      peakRssMiB: mib(peakRss),
      rerunSeconds,
      rerunRequests: (await served()) - serverAfter.requests,
    };
  } finally {
    child.kill('SIGTERM');
    await once(child, 'exit');
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The bench's lines, for bench.ts and a run of this file alone. */
export function judgeBenchLines(bench: JudgeBench): string[] {
  const name = `judge ${bench.pairs.toLocaleString('en')} pairs × ${bench.votes} votes, ${bench.latencyMs} ms/call, concurrency ${bench.concurrency}`;
  return [
    `${name}: ${bench.wallSeconds.toFixed(1)} s, bound ${bench.bound.toFixed(1)} s, ` +
      `${(bench.bound / bench.wallSeconds).toFixed(2)} bound/wall   target ≥ 0.9`,
    `  CPU per call: judge ${bench.judgeCpuMsPerCall.toFixed(3)} ms, server ${bench.serverCpuMsPerCall.toFixed(3)} ms ` +
      `(the bound allows ${(bench.latencyMs / bench.concurrency).toFixed(2)} ms on one core); ` +
      `${bench.connections} connections for ${bench.requests.toLocaleString('en')} requests (kept alive)`,
    `  judge's event loop: busy ${(100 * bench.eventLoop.utilization).toFixed(0)}% of the run, a timer late by ` +
      `${bench.eventLoop.delayP99Ms.toFixed(1)} ms p99 (max ${bench.eventLoop.delayMaxMs.toFixed(0)} ms); ` +
      `a call slot's turn ${((bench.wallSeconds * 1000 * bench.concurrency) / bench.requests).toFixed(1)} ms ` +
      `for the endpoint's ${bench.latencyMs} ms`,
    `  labelling while the judge writes: p95 commit ${bench.labelCommitP95Ms.during.toFixed(1)} ms vs ` +
      `${bench.labelCommitP95Ms.without.toFixed(1)} ms without ` +
      `(${(bench.labelCommitP95Ms.during / bench.labelCommitP95Ms.without).toFixed(2)}×), ` +
      `call totals read p95 ${bench.totalsReadP95Ms.toFixed(1)} ms   target ≈ 1×`,
    `  (control, a one-row read: p95 ${bench.controlReadP95Ms.during.toFixed(2)} ms vs ${bench.controlReadP95Ms.without.toFixed(2)} ms without)`,
    `  RSS at a tenth of the votes ${bench.rssAtTenthMiB.toFixed(0)} MiB, peak ${bench.peakRssMiB.toFixed(0)} MiB ` +
      `(${(bench.peakRssMiB / bench.rssAtTenthMiB).toFixed(2)}×)   target flat`,
    `  re-run of the finished job: ${bench.rerunSeconds.toFixed(1)} s, ${bench.rerunRequests} requests   target 0 ` +
      `(${bench.requests.toLocaleString('en')} the first time)`,
  ];
}

if (import.meta.main && process.argv[2] === 'label-commits') {
  await labelCommits(process.argv[3]!, process.argv[4]!, Number(process.argv[5]));
} else if (import.meta.main) {
  const root = join(import.meta.dirname, '..');
  const bench = await benchJudge(root, join(root, 'bench-data'));
  for (const line of judgeBenchLines(bench)) console.log(line);
}
