// Capped recall@k (TARGET, after BEIR — Thakur et al. 2021): the relevant documents in the top k over min(k, |gold|),
// so a query with more relevant documents than k can still reach 1. Relevant: label ≥ the relevance level (-l, as
// trec_eval). Macro (`capped_recall_k`): the mean over queries with a relevant document; micro
// (`capped_recall_k` micro line): Σ found / Σ min(k, |gold|) over them.
import type { InstructionCase, InstructionMeasure, InstructionOptions } from './instructionMeasure.ts';

function counts(c: InstructionCase, options: InstructionOptions): Record<string, [number, number]> {
  const gold = new Set([...c.labels].filter(([, l]) => l >= options.relevanceLevel).map(([docid]) => docid));
  const result: Record<string, [number, number]> = {};
  for (const k of options.cutoffs) {
    let found = 0;
    for (const d of c.ranking.slice(0, k)) if (gold.has(d.docid)) found++;
    result[`capped_recall_${k}`] = [found, Math.min(k, gold.size)];
  }
  return result;
}

export const cappedRecall: InstructionMeasure = {
  name: 'capped_recall',
  help: 'capped recall@k (TARGET): relevant documents in the top k / min(k, |relevant|); cutoffs as capped_recall.5,10 (default 10)',
  needsBaseline: false,
  valueNames: (options) => options.cutoffs.map((k) => `capped_recall_${k}`),
  compute(c, options) {
    const values: Record<string, number | null> = {};
    for (const [name, [found, cap]] of Object.entries(counts(c, options)))
      values[name] = cap === 0 ? null : found / cap;
    return values;
  },
  micro: counts,
};
