// The pairs an online run asks about, a page at a time (the storage port's pairsToJudgePage, in the Label view's query
// order), so a 100,000-pair run never holds the whole study: each page's pairs that can be judged, with their query's
// values, and those that cannot (with why — the same reasons as judgePairs.ts gives for a whole selection).
import type { StudyModel } from '../dsl/model.ts';
import type { PairsToJudgeCursor } from '../store/port/judgePort.ts';
import type { StudyStore } from '../store/studyStore.ts';
import { type JudgePair, judgePairOf, type PairSelection, type QueryValues, type SkippedPair } from './judgePairs.ts';

export interface PairPage {
  pairs: JudgePair[];
  skipped: SkippedPair[];
}

/**
 * The selected pairs, page by page (at most `pageSize` rows of the store each): `limit` counts the pairs taken,
 * judgeable or not, as selectJudgePairs does; `pairIds` keeps only those pairs.
 */
export async function* judgePairPages(
  store: StudyStore,
  study: StudyModel,
  studyId: number,
  options: PairSelection,
  output: 'label' | 'conditions',
  pageSize: number,
): AsyncGenerator<PairPage> {
  let after: PairsToJudgeCursor | undefined;
  let taken = 0;
  do {
    const remaining = options.limit !== undefined ? options.limit - taken : Number.POSITIVE_INFINITY;
    if (remaining <= 0) return;
    // Without a pair filter the store stops at the limit itself; with one, filtered-out rows do not count.
    const limit = options.pairIds === undefined ? Math.min(pageSize, remaining) : pageSize;
    const page = await store.judge.pairsToJudgePage(studyId, {
      limit,
      ...(after !== undefined && { after }),
      ...(options.onlyUnlabelled !== undefined && { onlyUnlabelled: options.onlyUnlabelled }),
    });
    after = page.next;
    const fieldsOf = new Map(page.queries.map((q) => [q.qid, q]));
    const queries = new Map<string, QueryValues>();
    const out: PairPage = { pairs: [], skipped: [] };
    for (const row of page.pairs) {
      if (options.pairIds !== undefined && !options.pairIds.has(row.pairId)) continue;
      if (taken >= (options.limit ?? Number.POSITIVE_INFINITY)) break;
      taken++;
      const judged = judgePairOf(row, study, fieldsOf, queries, output);
      if ('reason' in judged) out.skipped.push(judged);
      else out.pairs.push(judged);
    }
    yield out;
  } while (after !== undefined);
}
