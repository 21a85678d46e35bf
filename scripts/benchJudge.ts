// The LLM judge on 1,000 pairs (see core/judge/judgeStudy.ts): a real study database, the real `openai` SDK through
// the chat client, and the OpenAI-compatible test server on 127.0.0.1 answering every call after 100 ms. With 16
// calls in flight the endpoint alone needs 1,000 × 0.1 s / 16 = 6.25 s: the bound. bound / wall says how much of
// the run is the endpoint's latency and not the judge's own work (prompts, parsing, one SQLite transaction per call
// and per suggestion); target ≥ 0.9. The same job is then run again: every call comes from the cache, and the number
// of requests the server sees must be 0.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createChatClient } from '../core/judge/chatClient.ts';
import { defaultPromptTemplate } from '../core/judge/defaultPrompts.ts';
import { judgeStudy } from '../core/judge/judgeStudy.ts';
import { buildLargeStudy } from '../test/core/labelling/largeStudy.ts';

export interface JudgeBench {
  pairs: number;
  concurrency: number;
  latencyMs: number;
  /** The run, from the first call to the last suggestion written. */
  wallSeconds: number;
  /** pairs × latency / concurrency: the endpoint's own time. */
  bound: number;
  /** Chat requests the server received in the run. */
  requests: number;
  /** The same job run again. */
  rerunSeconds: number;
  rerunRequests: number;
}

export async function benchJudge(root: string, dataDir: string): Promise<JudgeBench> {
  const pairs = 1_000;
  const concurrency = 16;
  const latencyMs = 100;
  const folder = join(dataDir, 'judge-1k');
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  const study = await buildLargeStudy({
    folder,
    nativeDir: join(root, 'dist', 'native'),
    queries: 100,
    perQuery: pairs / 100,
    extra: '  judge "bench-model" { temperature 0 }',
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
    const served = async (): Promise<number> => ((await (await fetch(stats)).json()) as { requests: number }).requests;
    const server = { baseURL, requests: served };
    const client = createChatClient({ baseURL: server.baseURL, apiKey: '' });
    const prompt = { ...defaultPromptTemplate('graded-relevance'), output: 'label' as const };
    const options = { concurrency, client, prompt, prices: {} };
    let started = performance.now();
    const report = await judgeStudy(store, study.study, options);
    const wallSeconds = (performance.now() - started) / 1000;
    const requests = await server.requests();
    if (report.suggestions !== pairs) {
      throw new Error(`expected ${pairs} suggestions, found ${report.suggestions} (failures: ${report.failures})`);
    }
    started = performance.now();
    await judgeStudy(store, study.study, options);
    const rerunSeconds = (performance.now() - started) / 1000;
    return {
      pairs,
      concurrency,
      latencyMs,
      wallSeconds,
      bound: (pairs * latencyMs) / 1000 / concurrency,
      requests,
      rerunSeconds,
      rerunRequests: (await server.requests()) - requests,
    };
  } finally {
    child.kill('SIGTERM');
    await once(child, 'exit');
    await store.close();
  }
}

if (import.meta.main) {
  const root = join(import.meta.dirname, '..');
  const bench = await benchJudge(root, join(root, 'bench-data'));
  console.log(
    `judge, ${bench.pairs.toLocaleString('en')} pairs, ${bench.latencyMs} ms per call, ${bench.concurrency} in flight: ` +
      `${bench.wallSeconds.toFixed(2)} s, bound ${bench.bound.toFixed(2)} s, ` +
      `${(bench.bound / bench.wallSeconds).toFixed(2)}× bound/wall   target ≥ 0.9`,
  );
  console.log(
    `  run again: ${bench.rerunSeconds.toFixed(2)} s, ${bench.rerunRequests} requests   target 0 (${bench.requests} the first time)`,
  );
}
