// The suggestions of pairs whose batch lines were just recorded: each pair's votes read as the online run reads a
// cached vote (judgeStudy.ts) — every vote's cache key from the pair's prompt, its answered call if there is one —
// and the majority written (judgeVote.ts pairSuggestion). A vote answered online or by another batch counts the same.
import type { SuggestionRecord } from '../../store/port/judgePort.ts';
import { judgeCacheKey } from '../judgeCallStore.ts';
import { judgePairPages } from '../judgePairPages.ts';
import {
  interpretAnswer,
  type PairVote,
  pairSuggestion,
  renderPromptOf,
  voteCallRequest,
  voteParametersOf,
} from '../judgeVote.ts';
import type { BatchRun } from './batchRun.ts';

/** Pairs read, rendered and looked up together. */
const pairsPerSlice = 256;

/** Writes the suggestions of `pairIds`; returns how many were written. */
export async function writeBatchSuggestions(run: BatchRun, pairIds: ReadonlySet<number>): Promise<number> {
  if (pairIds.size === 0) return 0;
  const { store, study, setup, studyId, annotator, endpoint, options, now } = run;
  const parametersFor = voteParametersOf(setup);
  let written = 0;
  // A slice of pairs' documents and cache entries in one read each.
  for await (const page of judgePairPages(store, study, studyId, { pairIds }, setup.output, pairsPerSlice)) {
    const slice = page.pairs;
    if (slice.length === 0) continue;
    const documents = await store.judge.documentsToJudge(
      studyId,
      slice.map((pair) => pair.docid),
    );
    const asks = slice.map((pair) => {
      const row = documents.get(pair.docid);
      if (row === undefined) throw new Error(`the corpus has no document '${pair.docid}' any more`);
      const rendered = renderPromptOf(row, study, setup, options.prompt, pair);
      const keys = Array.from({ length: setup.votesPerPair }, (_, voteIndex) =>
        judgeCacheKey(
          voteCallRequest(setup, endpoint, parametersFor(rendered.shape, voteIndex), rendered.promptHash, voteIndex),
        ),
      );
      return { pair, rendered, keys };
    });
    const answered = await store.judge.cachedCalls(asks.flatMap((a) => a.keys));
    const suggestions: SuggestionRecord[] = [];
    for (const { pair, rendered, keys } of asks) {
      const votes: (PairVote | undefined)[] = keys.map((key) => {
        const hit = answered.get(key);
        if (hit === undefined) return undefined;
        const reading = interpretAnswer(study, setup, hit.rawOutput, rendered.shape);
        return {
          callId: hit.id,
          answered: true,
          label: reading.ok ? reading.label : null,
          ...(reading.ok && reading.rationale !== undefined && { rationale: reading.rationale }),
        };
      });
      const suggestion = pairSuggestion(pair.pairId, annotator, setup.votesPerPair, votes, now());
      if (suggestion !== undefined) suggestions.push({ ...suggestion, createdAt: suggestion.createdAt.toISOString() });
    }
    // A page's suggestions in one transaction (a group commit), not one each.
    await store.judge.recordCalls(suggestions.map((suggestion) => ({ suggestion })));
    written += suggestions.length;
  }
  return written;
}
