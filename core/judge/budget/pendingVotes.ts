// The calls a judge run would send, one pair at a time, without sending any: the pairs the run selects
// (judgePairs.ts), each prompt rendered and each vote keyed exactly as the online and the batch runs do
// (judgeVote.ts), and the votes the cache already answers left out (they cost nothing). What a budget's estimate is
// made from (costEstimate.ts), before an online run or a batch upload. Prompts are rendered one pair at a time and
// dropped once yielded: only the pairs' ids and their queries are held, never the job's prompts.
import type { StudyModel } from '../../dsl/model.ts';
import type { StudyStore } from '../../store/studyStore.ts';
import { JudgeCallStore, judgeCacheKey } from '../judgeCallStore.ts';
import { type PairSelection, selectJudgePairs } from '../judgePairs.ts';
import type { JudgeRunPrompt, JudgeSetup } from '../judgeSetup.ts';
import { renderPairPrompt, voteCallRequest, voteParametersOf } from '../judgeVote.ts';
import type { RequestToEstimate } from './costEstimate.ts';

export interface PendingVotesOptions extends PairSelection {
  setup: JudgeSetup;
  prompt: JudgeRunPrompt;
  /** Normalised (endpointApproval.ts normaliseEndpoint): part of the cache key. */
  endpoint: string;
}

/** A pair's prompt and how many of its votes are still to send. */
export interface PendingPair extends RequestToEstimate {
  pairId: number;
  qid: string;
  docid: string;
}

/** The selected pairs in query order, each with its prompt and its votes not yet answered (calls 0: all cached). */
export async function* pendingVotes(
  store: StudyStore,
  study: StudyModel,
  options: PendingVotesOptions,
): AsyncGenerator<PendingPair> {
  const { setup, prompt, endpoint } = options;
  const studyId = await store.studies.studyId(study.name);
  const calls = new JudgeCallStore(store.judge);
  const parametersOf = voteParametersOf(setup);
  const { pairs } = await selectJudgePairs(
    store,
    study,
    studyId,
    {
      ...(options.limit !== undefined && { limit: options.limit }),
      ...(options.onlyUnlabelled !== undefined && { onlyUnlabelled: options.onlyUnlabelled }),
      ...(options.pairIds !== undefined && { pairIds: options.pairIds }),
    },
    setup.output,
  );
  for (const pair of pairs) {
    const rendered = await renderPairPrompt(store, study, studyId, setup, prompt, pair);
    let toSend = 0;
    for (let voteIndex = 0; voteIndex < setup.votesPerPair; voteIndex++) {
      const parameters = parametersOf(rendered.shape, voteIndex);
      const key = judgeCacheKey(voteCallRequest(setup, endpoint, parameters, rendered.promptHash, voteIndex));
      if ((await calls.cached(key)) === undefined) toSend++;
    }
    yield {
      pairId: pair.pairId,
      qid: pair.qid,
      docid: pair.docid,
      prompt: rendered.prompt,
      calls: toSend,
      ...(setup.judge.maxTokens !== undefined && { maxTokens: setup.judge.maxTokens }),
      responseFormat: parametersOf(rendered.shape, 0).responseFormat,
    };
  }
}
