// RBP by topic for the normal output (`rbp@0.8` with `rbp_residual@0.8`, named in namedMeasures.ts): rbp_eval's
// reading of the files, its ties, its topics and its mean, over the whole ranking — the numbers `--as rbp_eval -q`
// prints, unrounded.
import { fullDepth, type RbpValue } from './rankBiasedPrecision.ts';
import { defaultRbpEvalOptions, evaluateRbp } from './rbpEval.ts';
import { readRbpQrels, readRbpRun } from './rbpEvalInput.ts';

export interface RbpTopicValues {
  /** The run's judged topics in the order of their first line (lower-cased, as rbp_eval prints them; latin1). */
  topics: { topic: string; values: RbpValue[] }[];
  /** Per persistence, the mean over those topics (rbp_eval's `q= all` line; NaN when none is judged). */
  mean: RbpValue[];
}

/**
 * RBP and its residual per topic at each persistence (in (0, 1) or [0, 1]), relevance as rbp_eval's default
 * (-a: binary at grade ≥ 1 unless a grade is written with a '.'). `complete` adds each judged topic the run lacks
 * as an empty ranking (RBP 0, residual 1) and averages over all judged topics: trec_eval's -c, which rbp_eval
 * does not have (it averages over the run's judged topics only). A negative grade (TREC's −2 junk), which
 * rbp_eval refuses, is read as 0: judged, not relevant.
 */
export async function rbpTopicValues(
  qrelsFile: string,
  runFile: string,
  persistences: readonly number[],
  options: { complete?: boolean } = {},
): Promise<RbpTopicValues> {
  const run = await readRbpRun(runFile);
  const qrels = await readRbpQrels(qrelsFile, { negativeGradesAsZero: true });
  const evaluation = evaluateRbp(qrels, run, {
    ...defaultRbpEvalOptions,
    persistences: [...persistences],
    depths: [fullDepth],
  });
  const topics = evaluation.topics.flatMap(({ qid, atDepths }) =>
    atDepths ? [{ topic: qid, values: atDepths[0]!.byPersistence }] : [],
  );
  if (!options.complete) return { topics, mean: evaluation.averages[0]!.byPersistence };
  for (const qid of qrels.topics.keys()) {
    if (!run.topics.has(qid)) topics.push({ topic: qid, values: persistences.map(() => ({ value: 0, residual: 1 })) });
  }
  const mean = persistences.map((_, k) => {
    let value = 0;
    let residual = 0;
    for (const topic of topics) {
      value += topic.values[k]!.value;
      residual += topic.values[k]!.residual;
    }
    return { value: value / topics.length, residual: residual / topics.length };
  });
  return { topics, mean };
}
