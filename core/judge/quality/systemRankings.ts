// The runs of a study ranked twice — evaluated with the people's qrels and with the judge's — and how alike the two
// rankings are (Kendall's τ_b, τ_ap): what matters when a judge's labels are to build a test collection is that
// it orders the systems as the people would (Voorhees 2000). Each run is evaluated as `qrels-studio eval` evaluates
// it (core/metrics/evaluate.ts, trec_eval's rules: relevant = label ≥ 1, unjudged = not relevant, the scale's gains
// for nDCG when it declares some), and its score is the mean over the queries of BOTH qrels, a query one side has
// no label for counting 0 on that side (trec_eval's -c), so the two rankings average over the same queries.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { displayQueryId } from '../../formats/queryIdCache.ts';
import { readQrels } from '../../formats/trecQrels.ts';
import { evaluateRunFile } from '../../metrics/evaluate.ts';
import { MeasureSpecError, selectMeasures } from '../../metrics/measureSelection.ts';
import type { PairLabel } from '../../store/port/agreementPort.ts';
import type { JudgeRankings, QrelsPairs, RankedSystem, TauApMode } from './judgeQualityTypes.ts';
import { kendallTau } from './kendallTau.ts';
import { symmetricTauAp, tauAp } from './tauAp.ts';

/** The measure a report ranks by when neither `--measure` nor the study's `measures` names one. */
export const defaultRankingMeasure = 'map';

/** A run to rank: as the study names it, and its file. */
export interface RunToRank {
  run: string;
  file: string;
}

const pairKey = (l: { qid: string; docid: string }) => `${l.qid}\u0000${l.docid}`;

/** The two qrels the runs are evaluated with, by the `pairs` rule (judgeQualityTypes.ts QrelsPairs). */
export function qrelsForRankings(
  people: readonly PairLabel[],
  judge: readonly PairLabel[],
  pairs: QrelsPairs,
): { people: PairLabel[]; judge: PairLabel[] } {
  if (pairs === 'each') return { people: [...people], judge: [...judge] };
  const judged = new Set(judge.map(pairKey));
  const peoples = new Set(people.map(pairKey));
  return {
    people: pairs === 'common' ? people.filter((l) => judged.has(pairKey(l))) : [...people],
    judge: judge.filter((l) => peoples.has(pairKey(l))),
  };
}

/** 1 = the highest score; tied scores share the mean of the positions they span. */
export function ranksOf(scores: readonly number[]): number[] {
  const order = [...scores.keys()].sort((a, b) => scores[b]! - scores[a]!);
  const ranks = new Array<number>(scores.length);
  for (let start = 0; start < order.length; ) {
    let end = start;
    while (end + 1 < order.length && scores[order[end + 1]!] === scores[order[start]!]) end++;
    for (let i = start; i <= end; i++) ranks[order[i]!] = (start + end) / 2 + 1;
    start = end + 1;
  }
  return ranks;
}

/** A readable error for a measure a ranking cannot use (unknown, a set, or several values). */
export class RankingMeasureError extends Error {}

/** The measure's one trec_eval selection; an error unless it gives exactly one value per run. */
function rankingMeasure(measure: string) {
  let selection: ReturnType<typeof selectMeasures>;
  try {
    selection = selectMeasures([measure]);
  } catch (error) {
    if (error instanceof MeasureSpecError) throw new RankingMeasureError(`--measure ${measure}: ${error.message}`);
    throw error;
  }
  const [selected, ...more] = selection.measures;
  const cutoffs = selected?.cutoffs.length ?? 0;
  if (selected === undefined || more.length > 0 || cutoffs > 1) {
    throw new RankingMeasureError(
      `--measure ${measure}: systems are ranked by one value, and '${measure}' gives several` +
        (selected && cutoffs > 1 ? ` (name one cutoff, as in ${selected.measure.name}.${selected.cutoffs[0]})` : ''),
    );
  }
  return selection.measures;
}

/**
 * Each run's mean of `measure` with `labels` as qrels, over `queries` (latin1 ids) — 0 where a query has no value —
 * and the run tags (`runids`, filled from the first evaluation).
 */
async function scoreRuns(
  labels: readonly PairLabel[],
  runs: readonly RunToRank[],
  measure: string,
  qrelsFile: string,
  queries: Set<string>,
  gains: ReadonlyMap<number, number> | undefined,
  runids: string[],
): Promise<number[]> {
  const measures = rankingMeasure(measure);
  if (labels.length === 0) return runs.map(() => 0);
  await writeFile(qrelsFile, labels.map((l) => `${l.qid} 0 ${l.docid} ${l.label}\n`).join(''));
  const qrels = await readQrels(qrelsFile);
  const scores: number[] = [];
  for (const run of runs) {
    const evaluation = await evaluateRunFile(
      qrels,
      run.file,
      {
        measures,
        relevanceLevel: 1,
        maxRetrieved: Number.POSITIVE_INFINITY,
        complete: true,
        ...(gains && { gains }),
      },
      run.run,
    );
    runids[scores.length] ??= displayQueryId(evaluation.runid);
    let sum = 0;
    for (const q of evaluation.queries) if (queries.has(q.qid)) sum += q.values[0]?.value ?? 0;
    scores.push(queries.size === 0 ? 0 : sum / queries.size);
  }
  return scores;
}

/** The query ids of labels as the qrels reader keys them (latin1 of the UTF-8 bytes). */
function qrelsQueryIds(labels: readonly PairLabel[]): string[] {
  return labels.map((l) => Buffer.from(l.qid, 'utf8').toString('latin1'));
}

/**
 * The runs evaluated with both qrels, ranked, and the rankings' τ_b and τ_ap (the people's ranking the truth, or
 * the mean of both directions with `tauAp: 'symmetric'`).
 */
export async function systemRankings(options: {
  people: readonly PairLabel[];
  judge: readonly PairLabel[];
  runs: readonly RunToRank[];
  measure: string;
  pairs: QrelsPairs;
  tauAp: TauApMode;
  gains?: ReadonlyMap<number, number>;
}): Promise<JudgeRankings> {
  const qrels = qrelsForRankings(options.people, options.judge, options.pairs);
  const queries = new Set([...qrelsQueryIds(qrels.people), ...qrelsQueryIds(qrels.judge)]);
  const folder = await mkdtemp(join(tmpdir(), 'qrels-studio-judge-rankings-'));
  let people: number[];
  let judge: number[];
  const runids: string[] = [];
  try {
    people = await scoreRuns(
      qrels.people,
      options.runs,
      options.measure,
      join(folder, 'people.qrels'),
      queries,
      options.gains,
      runids,
    );
    judge = await scoreRuns(
      qrels.judge,
      options.runs,
      options.measure,
      join(folder, 'judge.qrels'),
      queries,
      options.gains,
      runids,
    );
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
  const peopleRanks = ranksOf(people);
  const judgeRanks = ranksOf(judge);
  const systems: RankedSystem[] = options.runs.map((run, i) => ({
    run: run.run,
    runid: runids[i] ?? run.run,
    people: people[i]!,
    judge: judge[i]!,
    peopleRank: peopleRanks[i]!,
    judgeRank: judgeRanks[i]!,
  }));
  return {
    measure: options.measure,
    pairs: options.pairs,
    peopleQrels: qrels.people.length,
    judgeQrels: qrels.judge.length,
    systems,
    tau: kendallTau(people, judge),
    tauAp: options.tauAp === 'symmetric' ? symmetricTauAp(people, judge) : tauAp(people, judge),
    tauApMode: options.tauAp,
  };
}
