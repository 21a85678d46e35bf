// The suggestions of pairs whose batch lines were just recorded: each pair's votes read as the online run reads a
// cached vote (judgeStudy.ts) — every vote's cache key from the pair's prompt, its answered call if there is one —
// and the majority written (judgeVote.ts pairSuggestion). A vote answered online or by another batch counts the same.
import { JudgeCallStore, judgeCacheKey } from '../judgeCallStore.ts';
import { selectJudgePairs } from '../judgePairs.ts';
import {
  interpretAnswer,
  type PairVote,
  pairSuggestion,
  renderPairPrompt,
  voteCallRequest,
  voteParametersOf,
} from '../judgeVote.ts';
import type { BatchRun } from './batchRun.ts';

/** Writes the suggestions of `pairIds`; returns how many were written. */
export async function writeBatchSuggestions(run: BatchRun, pairIds: ReadonlySet<number>): Promise<number> {
  if (pairIds.size === 0) return 0;
  const { store, study, setup, studyId, annotator, endpoint, options, now } = run;
  const calls = new JudgeCallStore(store.judge);
  const parametersFor = voteParametersOf(setup);
  const { pairs } = await selectJudgePairs(store, study, studyId, { pairIds }, setup.output);
  let written = 0;
  for (const pair of pairs) {
    const rendered = await renderPairPrompt(store, study, studyId, setup, options.prompt, pair);
    const votes: (PairVote | undefined)[] = [];
    for (let voteIndex = 0; voteIndex < setup.votesPerPair; voteIndex++) {
      const parameters = parametersFor(rendered.shape, voteIndex);
      const hit = await calls.cached(
        judgeCacheKey(voteCallRequest(setup, endpoint, parameters, rendered.promptHash, voteIndex)),
      );
      if (hit === undefined) continue;
      const reading = interpretAnswer(study, setup, hit.rawOutput, rendered.shape);
      votes[voteIndex] = {
        callId: hit.id,
        answered: true,
        label: reading.ok ? reading.label : null,
        ...(reading.ok && reading.rationale !== undefined && { rationale: reading.rationale }),
      };
    }
    const suggestion = pairSuggestion(pair.pairId, annotator, setup.votesPerPair, votes, now());
    if (suggestion === undefined) continue;
    await calls.replaceSuggestion(suggestion);
    written++;
  }
  return written;
}
