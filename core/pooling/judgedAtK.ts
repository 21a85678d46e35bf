// judged@k: the share of a run's top k documents (trec_eval's order) that have a label — the pooling-bias figure.
// A run that was not in the pool, or a deeper cut than the pool's, reaches documents nobody judged, and trec_eval
// silently counts them as not relevant. As trec_eval's P@k, the denominator is k even when the run returns fewer.
import type { RunRanking } from './runRanking.ts';

export interface JudgedAtK {
  k: number;
  /** Per query of the run, in the run's order of first appearance. */
  queries: { qid: string; judged: number; value: number }[];
  /** The mean over the run's queries. */
  mean: number;
}

/** `isJudged(qid, docid)`: whether the pair has a label in the chosen label source. */
export function judgedAtK(
  ranking: RunRanking,
  k: number,
  isJudged: (qid: string, docid: string) => boolean,
): JudgedAtK {
  const queries: JudgedAtK['queries'] = [];
  for (const [qid, documents] of ranking.queries) {
    let judged = 0;
    for (const document of documents.slice(0, k)) if (isJudged(qid, document.docid)) judged++;
    queries.push({ qid, judged, value: judged / k });
  }
  const mean = queries.length === 0 ? 0 : queries.reduce((sum, q) => sum + q.value, 0) / queries.length;
  return { k, queries, mean };
}
