// The budget's estimate of a judge job at the scale of a track (issue 22 item 2: "100,000 pairs must estimate in
// seconds"): a real study database of 100,000 pairs whose documents are passages of about 2 KB (a few hundred words,
// like a TREC RAG segment), the default graded-relevance prompt, 3 votes, gpt-4o-mini (o200k_base). The estimate
// renders every prompt, counts its tokens and asks the cache for each vote — nothing is sent. Reported: seconds,
// pairs per second, tokens counted, and the RSS before and at the end (prompts are streamed, never all held).
// QRELS_BENCH_JUDGE_PAIRS shrinks it (a multiple of 100; default 100,000).
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { estimateJudgeJob } from '../core/judge/budget/jobEstimate.ts';
import { defaultPromptTemplate } from '../core/judge/defaultPrompts.ts';
import { judgeSetup } from '../core/judge/judgeSetup.ts';
import { locateNativeBinding, openDatabase } from '../core/store/sqliteDatabase.ts';
import { studyDatabasePath } from '../core/store/studyDatabase.ts';
import { buildLargeStudy } from '../test/core/labelling/largeStudy.ts';
import { judgeBenchPairs } from './benchJudge.ts';

export interface EstimateBench {
  pairs: number;
  calls: number;
  seconds: number;
  /** CPU time of the estimate (this process): what it costs on a busy machine, where the wall time says little. */
  cpuSeconds: number;
  inputTokens: number;
  rssBeforeMiB: number;
  peakRssMiB: number;
}

/** Words for the passages: a seeded walk over a vocabulary, so that passages differ as real ones do. */
const vocabulary = (
  'the a of to and in that is for on with as by was it from at this be are which or an have has not were their ' +
  'retrieval evaluation relevance judgment assessor pool depth system ranking query document passage collection ' +
  'track participant run metric precision recall ndcg average mean reciprocal rank judged unjudged bias variance ' +
  'language model prompt label grade score annotator agreement kappa correlation kendall tau budget token cost ' +
  '2019 2020 2021 2022 2023 2024 12.5 percent significant baseline improvement table figure section results'
).split(' ');

export async function benchJudgeEstimate(
  root: string,
  dataDir: string,
  pairs = judgeBenchPairs(),
): Promise<EstimateBench> {
  const folder = join(dataDir, 'judge-estimate');
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  const nativeDir = join(root, 'dist', 'native');
  const study = await buildLargeStudy({
    folder,
    nativeDir,
    queries: 100,
    perQuery: pairs / 100,
    extra: '  judge "gpt-4o-mini" { temperature 0  max_tokens 200  votes 3 }',
  });
  const db = openDatabase(studyDatabasePath(study.studyFile), { nativeBinding: locateNativeBinding(nativeDir) });
  try {
    let seed = 42;
    const next = () => {
      seed = (seed * 16807) % 2147483647;
      return seed;
    };
    const update = db.prepare('UPDATE document SET body = ? WHERE study_id = ? AND docid = ?');
    db.exec('BEGIN');
    for (let i = 0; i < pairs; i++) {
      const words: string[] = [];
      for (let w = 0; w < 320; w++) words.push(vocabulary[next() % vocabulary.length]!);
      update.run(`${words.join(' ')}.`, study.studyId, `d${String(i).padStart(8, '0')}`);
    }
    db.exec('COMMIT');
  } finally {
    db.close();
  }
  const prompt = { ...defaultPromptTemplate('graded-relevance'), output: 'label' as const };
  const rssBefore = process.memoryUsage.rss();
  let peak = rssBefore;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 100);
  try {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const estimate = await estimateJudgeJob(study.store, study.study, {
      setup: judgeSetup(study.study, { prompt }),
      prompt,
      endpoint: 'https://api.openai.com/v1',
      prices: { 'gpt-4o-mini': { inputPerMillion: 0.15, outputPerMillion: 0.6 } },
      mode: 'online',
    });
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const cpuSeconds = (used.user + used.system) / 1e6;
    peak = Math.max(peak, process.memoryUsage.rss());
    if (estimate.calls !== pairs * 3) throw new Error(`expected ${pairs * 3} calls, found ${estimate.calls}`);
    return {
      pairs,
      calls: estimate.calls,
      seconds,
      cpuSeconds,
      inputTokens: estimate.inputTokens,
      rssBeforeMiB: rssBefore / 2 ** 20,
      peakRssMiB: peak / 2 ** 20,
    };
  } finally {
    clearInterval(timer);
    await study.store.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

export function judgeEstimateBenchLines(bench: EstimateBench): string[] {
  return [
    `judge budget estimate, ${bench.pairs.toLocaleString('en')} pairs × 3 votes (~2 KB passages, o200k_base): ` +
      `${bench.seconds.toFixed(1)} s (${bench.cpuSeconds.toFixed(1)} s CPU), ${Math.round(bench.pairs / bench.seconds).toLocaleString('en')} pairs/s, ` +
      `${bench.inputTokens.toLocaleString('en')} input tokens counted   target: seconds`,
    `  RSS ${bench.rssBeforeMiB.toFixed(0)} MiB before, peak ${bench.peakRssMiB.toFixed(0)} MiB   target flat`,
  ];
}

if (import.meta.main) {
  const root = join(import.meta.dirname, '..');
  for (const line of judgeEstimateBenchLines(await benchJudgeEstimate(root, join(root, 'bench-data'))))
    console.log(line);
}
