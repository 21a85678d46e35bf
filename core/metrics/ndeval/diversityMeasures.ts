// The intent-aware measures of ndeval (TREC Web diversity task), as pure functions of one topic: its judgments per
// subtopic and the run's ranking. Semantics follow ndeval 4.5 exactly (read from its source, written anew):
// - a grade > 0 is relevant to its subtopic (binary: every positive grade counts 1);
// - a subtopic counts ("actual subtopics") only if some document is relevant to it;
// - the gain of a document is the sum, over its subtopics, of (1 − α)^(times the subtopic was seen before);
// - α-DCG and ERR-IA are divided by an "ideal ideal" (every subtopic covered at every rank), the n- forms by
//   the same measure of a greedy ideal ranking (ties resolved towards the larger docno, as ndeval does);
// - measures are kept at ranks 1…20 only (ndeval's DEPTH); NRBP and MAP-IA read the whole ranking.
import { compareBytes } from './ndevalRun.ts';

/** ndeval's depth: the cutoffs 5, 10 and 20 read the first 20 ranks. */
export const diversityDepth = 20;

export interface DiversityParameters {
  /** Redundancy intolerance of α-nDCG and NRBP (ndeval -alpha, 0.5). */
  alpha: number;
  /** Patience of NRBP (ndeval -beta, 0.5). */
  beta: number;
}

export const defaultDiversityParameters: DiversityParameters = { alpha: 0.5, beta: 0.5 };

/** One topic's diversity judgments. */
export interface DiversityTopic {
  topic: number;
  /** 1 + the largest subtopic number judged. */
  subtopics: number;
  /** Each judged docno's relevance per subtopic (1 relevant, 0 not). */
  relevance: Map<string, Uint8Array>;
  /** Relevant documents per subtopic. */
  relevantPerSubtopic: Int32Array;
  /** Subtopics with at least one relevant document. */
  actualSubtopics: number;
}

/** The measures ndeval prints for a topic, each at ranks 1…20 where it has a cutoff (index k−1 is @k). */
export interface DiversityScores {
  errIA: Float64Array;
  nerrIA: Float64Array;
  alphaDcg: Float64Array;
  alphaNdcg: Float64Array;
  nrbp: number;
  nnrbp: number;
  mapIA: number;
  precisionIA: Float64Array;
  subtopicRecall: Float64Array;
}

/** Groups judgments by topic (ascending), keeping the last grade given to a (topic, subtopic, docno). */
export function diversityTopics(
  judgments: readonly { topic: number; subtopic: number; docno: string; grade: number }[],
): DiversityTopic[] {
  const byTopic = new Map<number, { subtopics: number; lines: (typeof judgments)[number][] }>();
  for (const judgment of judgments) {
    let entry = byTopic.get(judgment.topic);
    if (!entry) {
      entry = { subtopics: 0, lines: [] };
      byTopic.set(judgment.topic, entry);
    }
    entry.subtopics = Math.max(entry.subtopics, judgment.subtopic + 1);
    entry.lines.push(judgment);
  }
  const topics: DiversityTopic[] = [];
  for (const topic of [...byTopic.keys()].sort((a, b) => a - b)) {
    const { subtopics, lines } = byTopic.get(topic)!;
    const relevance = new Map<string, Uint8Array>();
    const relevantPerSubtopic = new Int32Array(subtopics);
    for (const { docno, subtopic, grade } of lines) {
      let vector = relevance.get(docno);
      if (!vector) {
        vector = new Uint8Array(subtopics);
        relevance.set(docno, vector);
      }
      const relevant = grade > 0 ? 1 : 0;
      vector[subtopic] = relevant;
      // As ndeval, a repeated line counts again here (lint reports the repetition).
      relevantPerSubtopic[subtopic]! += relevant;
    }
    const actualSubtopics = relevantPerSubtopic.reduce((count, n) => count + (n !== 0 ? 1 : 0), 0);
    topics.push({ topic, subtopics, relevance, relevantPerSubtopic, actualSubtopics });
  }
  return topics;
}

/**
 * The novelty-discounted gain of each ranked document: a subtopic contributes (1 − α)^k the k-th time after its
 * first. Summed over subtopics in subtopic order, as ndeval does, so the doubles are the same.
 */
export function noveltyGains(
  ranking: readonly (Uint8Array | undefined)[],
  subtopics: number,
  alpha: number,
): Float64Array {
  const subtopicGain = new Float64Array(subtopics).fill(1);
  const gains = new Float64Array(ranking.length);
  for (const [rank, relevance] of ranking.entries()) {
    if (!relevance) continue;
    let gain = 0;
    for (let s = 0; s < subtopics; s++) {
      if (relevance[s]) {
        gain += subtopicGain[s]!;
        subtopicGain[s]! *= 1 - alpha;
      }
    }
    gains[rank] = gain;
  }
  return gains;
}

/**
 * The greedy ideal ranking: at each rank the document with the largest novelty gain, ties to the larger docno.
 * (Finding the true ideal is NP-hard; ndeval's greedy is the reference.) Documents relevant to nothing gain 0 at
 * every rank and only ever come last, so they are left out.
 */
export function idealRanking(topic: DiversityTopic, alpha: number): Uint8Array[] {
  const candidates = [...topic.relevance.entries()]
    .filter(([, vector]) => vector.some((r) => r !== 0))
    .sort(([a], [b]) => compareBytes(a, b))
    .map(([, vector]) => vector);
  const subtopicGain = new Float64Array(topic.subtopics).fill(1);
  const placed = new Uint8Array(candidates.length);
  const ranking: Uint8Array[] = [];
  for (let rank = 0; rank < candidates.length; rank++) {
    let best = -1;
    let bestGain = 0;
    for (let i = 0; i < candidates.length; i++) {
      if (placed[i]) continue;
      let gain = 0;
      const vector = candidates[i]!;
      for (let s = 0; s < topic.subtopics; s++) if (vector[s]) gain += subtopicGain[s]!;
      // Candidates are in ascending docno order, so '>=' gives ties to the larger docno.
      if (best === -1 || gain >= bestGain) [best, bestGain] = [i, gain];
    }
    placed[best] = 1;
    const chosen = candidates[best]!;
    ranking.push(chosen);
    for (let s = 0; s < topic.subtopics; s++) if (chosen[s]) subtopicGain[s]! *= 1 - alpha;
  }
  return ranking;
}

/** log(2)/log(rank+2) for rank ≥ 1 (0-based), 1 at the top: DCG's discount as ndeval computes it. */
function discount(index: number): number {
  return index === 0 ? 1 : Math.log(2) / Math.log(index + 2);
}

/**
 * Cumulative measure at ranks 1…20, divided from rank 2 on by the same measure of the "ideal ideal" ranking in
 * which each rank covers every subtopic (ndeval leaves rank 1 undivided; the cutoffs it prints are 5, 10, 20).
 */
function cumulativeOverIdealIdeal(
  gains: Float64Array,
  actualSubtopics: number,
  alpha: number,
  weight: (index: number) => number,
  combine: (gain: number, w: number) => number,
): Float64Array {
  const values = new Float64Array(diversityDepth);
  if (actualSubtopics === 0) return values;
  const idealIdeal = new Float64Array(diversityDepth);
  for (let i = 0; i < diversityDepth && i < gains.length; i++) values[i] = combine(gains[i]!, weight(i));
  let idealIdealGain = actualSubtopics;
  for (let i = 0; i < diversityDepth; i++) {
    idealIdeal[i] = combine(idealIdealGain, weight(i));
    idealIdealGain *= 1 - alpha;
  }
  for (let i = 1; i < diversityDepth; i++) {
    values[i]! += values[i - 1]!;
    idealIdeal[i]! += idealIdeal[i - 1]!;
  }
  for (let i = 1; i < diversityDepth; i++) values[i]! /= idealIdeal[i]!;
  return values;
}

/** α-DCG@1…20 with ndeval's collection-independent ("ideal ideal") normalisation. */
export function alphaDcgAtRanks(gains: Float64Array, actualSubtopics: number, alpha: number): Float64Array {
  return cumulativeOverIdealIdeal(gains, actualSubtopics, alpha, discount, (gain, w) => gain * w);
}

/** ERR-IA@1…20 with ndeval's collection-independent normalisation (its ERR-IA is 1/rank-discounted). */
export function errIAAtRanks(gains: Float64Array, actualSubtopics: number, alpha: number): Float64Array {
  return cumulativeOverIdealIdeal(
    gains,
    actualSubtopics,
    alpha,
    (i) => i + 1,
    (gain, w) => gain / w,
  );
}

/** Novelty- and rank-biased precision over the whole ranking. */
export function nrbp(gains: Float64Array, actualSubtopics: number, parameters: DiversityParameters): number {
  if (actualSubtopics === 0) return 0;
  let sum = 0;
  let decay = 1;
  for (const gain of gains) {
    sum += gain * decay;
    decay *= parameters.beta;
  }
  return sum * ((1 - (1 - parameters.alpha) * parameters.beta) / actualSubtopics);
}

/** Intent-aware precision@1…20: relevant (document, subtopic) pairs over rank × actual subtopics. */
export function precisionIAAtRanks(ranking: readonly (Uint8Array | undefined)[], topic: DiversityTopic): Float64Array {
  const values = new Float64Array(diversityDepth);
  if (topic.actualSubtopics === 0) return values;
  let count = 0;
  for (let i = 0; i < diversityDepth; i++) {
    const relevance = ranking[i];
    if (relevance) for (let s = 0; s < topic.subtopics; s++) if (relevance[s]) count++;
    values[i] = count / ((i + 1) * topic.actualSubtopics);
  }
  return values;
}

/** Subtopic recall@1…20: the share of actual subtopics covered by the top k. */
export function subtopicRecallAtRanks(
  ranking: readonly (Uint8Array | undefined)[],
  topic: DiversityTopic,
): Float64Array {
  const values = new Float64Array(diversityDepth);
  if (topic.actualSubtopics === 0) return values;
  const seen = new Uint8Array(topic.subtopics);
  let count = 0;
  for (let i = 0; i < diversityDepth; i++) {
    const relevance = ranking[i];
    if (relevance) {
      for (let s = 0; s < topic.subtopics; s++) {
        if (relevance[s] && !seen[s]) [seen[s], count] = [1, count + 1];
      }
    }
    values[i] = count / topic.actualSubtopics;
  }
  return values;
}

/** Intent-aware MAP: the mean over actual subtopics of each subtopic's average precision. */
export function mapIA(ranking: readonly (Uint8Array | undefined)[], topic: DiversityTopic): number {
  if (topic.actualSubtopics === 0) return 0;
  const found = new Int32Array(topic.subtopics);
  const total = new Float64Array(topic.subtopics);
  for (const [i, relevance] of ranking.entries()) {
    if (!relevance) continue;
    for (let s = 0; s < topic.subtopics; s++) {
      if (relevance[s]) {
        found[s]!++;
        total[s]! += found[s]! / (i + 1);
      }
    }
  }
  let sum = 0;
  for (let s = 0; s < topic.subtopics; s++) {
    if (topic.relevantPerSubtopic[s]) sum += total[s]! / topic.relevantPerSubtopic[s]!;
  }
  return sum / topic.actualSubtopics;
}

/** The ideal ranking's α-DCG, ERR-IA and NRBP: what the n- forms divide by. Computed once per topic. */
export interface DiversityIdeal {
  alphaDcg: Float64Array;
  errIA: Float64Array;
  nrbp: number;
}

export function diversityIdeal(topic: DiversityTopic, parameters: DiversityParameters): DiversityIdeal {
  const gains = noveltyGains(idealRanking(topic, parameters.alpha), topic.subtopics, parameters.alpha);
  return {
    alphaDcg: alphaDcgAtRanks(gains, topic.actualSubtopics, parameters.alpha),
    errIA: errIAAtRanks(gains, topic.actualSubtopics, parameters.alpha),
    nrbp: nrbp(gains, topic.actualSubtopics, parameters),
  };
}

/**
 * Every ndeval measure of one topic for a ranked list of docnos. A topic without any relevant document scores 0
 * everywhere except nNRBP, which is 0/0 in ndeval (printed "-nan"): kept as NaN here.
 */
export function diversityScores(
  topic: DiversityTopic,
  docnos: readonly string[],
  parameters: DiversityParameters,
  ideal: DiversityIdeal = diversityIdeal(topic, parameters),
): DiversityScores {
  const ranking = docnos.map((docno) => topic.relevance.get(docno));
  const gains = noveltyGains(ranking, topic.subtopics, parameters.alpha);
  const alphaDcg = alphaDcgAtRanks(gains, topic.actualSubtopics, parameters.alpha);
  const errIA = errIAAtRanks(gains, topic.actualSubtopics, parameters.alpha);
  const alphaNdcg = new Float64Array(diversityDepth);
  const nerrIA = new Float64Array(diversityDepth);
  // As ndeval: normalised only where the run scores (so 0 stays 0 even when the ideal is 0 too).
  for (let i = 0; i < diversityDepth; i++) {
    if (alphaDcg[i] !== 0) {
      alphaNdcg[i] = alphaDcg[i]! / ideal.alphaDcg[i]!;
      nerrIA[i] = errIA[i]! / ideal.errIA[i]!;
    }
  }
  const runNrbp = nrbp(gains, topic.actualSubtopics, parameters);
  return {
    errIA,
    nerrIA,
    alphaDcg,
    alphaNdcg,
    nrbp: runNrbp,
    nnrbp: runNrbp / ideal.nrbp,
    mapIA: mapIA(ranking, topic),
    precisionIA: precisionIAAtRanks(ranking, topic),
    subtopicRecall: subtopicRecallAtRanks(ranking, topic),
  };
}

/** Scores of a run topic that has no judgments: ndeval prints it with zeros (and does not count it in the mean). */
export function zeroDiversityScores(): DiversityScores {
  const zeros = () => new Float64Array(diversityDepth);
  return {
    errIA: zeros(),
    nerrIA: zeros(),
    alphaDcg: zeros(),
    alphaNdcg: zeros(),
    nrbp: 0,
    nnrbp: 0,
    mapIA: 0,
    precisionIA: zeros(),
    subtopicRecall: zeros(),
  };
}

/** One column of ndeval's CSV: its header, our measure name (for the normal output), and its value. */
export interface DiversityColumn {
  header: string;
  name: string;
  value: (scores: DiversityScores) => number;
}

const cutoffs = [5, 10, 20] as const;

function atCutoffs(header: string, name: string, pick: (s: DiversityScores) => Float64Array): DiversityColumn[] {
  return cutoffs.map((k) => ({ header: `${header}@${k}`, name: `${name}@${k}`, value: (s) => pick(s)[k - 1]! }));
}

/** ndeval's columns in its order, each with the name the normal output uses. */
export const diversityColumns: readonly DiversityColumn[] = [
  ...atCutoffs('ERR-IA', 'err_ia', (s) => s.errIA),
  ...atCutoffs('nERR-IA', 'nerr_ia', (s) => s.nerrIA),
  ...atCutoffs('alpha-DCG', 'alpha_dcg', (s) => s.alphaDcg),
  ...atCutoffs('alpha-nDCG', 'alpha_ndcg', (s) => s.alphaNdcg),
  { header: 'NRBP', name: 'nrbp', value: (s) => s.nrbp },
  { header: 'nNRBP', name: 'nnrbp', value: (s) => s.nnrbp },
  { header: 'MAP-IA', name: 'map_ia', value: (s) => s.mapIA },
  ...atCutoffs('P-IA', 'p_ia', (s) => s.precisionIA),
  ...atCutoffs('strec', 'strec', (s) => s.subtopicRecall),
];
