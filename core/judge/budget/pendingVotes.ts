// The calls a judge run would send, one pair at a time, without sending any: the pairs the run selects, a page at a
// time as the online run reads them (judgePairPages.ts: a page's documents and its votes' cache entries in one read
// each), each prompt rendered and each vote keyed exactly as the online and the batch runs do (judgeVote.ts), and
// the votes the cache already answers left out (they cost nothing). What a budget's estimate is made from
// (costEstimate.ts), before an online run or a batch upload. The votes an open batch holds are left out too: neither
// a batch submit nor an online run sends them again (the batch has paid for them). At most one page of prompts is held, never the job's.
import type { StudyModel } from '../../dsl/model.ts';
import type { StudyStore } from '../../store/studyStore.ts';
import { judgeCacheKey } from '../judgeCallStore.ts';
import { judgePairPages } from '../judgePairPages.ts';
import type { JudgePair, PairSelection } from '../judgePairs.ts';
import type { JudgeRunPrompt, JudgeSetup } from '../judgeSetup.ts';
import { type RenderedPrompt, renderPromptOf, voteCallRequest, voteParametersOf } from '../judgeVote.ts';
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

/** Pairs read per page: a page's documents and its votes' cache entries are one read each. */
const pageSize = 512;

/** The selected pairs in query order, each with its prompt and its votes not yet answered (calls 0: all cached). */
export async function* pendingVotes(
  store: StudyStore,
  study: StudyModel,
  options: PendingVotesOptions,
): AsyncGenerator<PendingPair> {
  const { setup, prompt, endpoint } = options;
  const studyId = await store.studies.studyId(study.name);
  const parametersOf = voteParametersOf(setup);
  const selection: PairSelection = {
    ...(options.limit !== undefined && { limit: options.limit }),
    ...(options.onlyUnlabelled !== undefined && { onlyUnlabelled: options.onlyUnlabelled }),
    ...(options.pairIds !== undefined && { pairIds: options.pairIds }),
  };
  for await (const page of judgePairPages(store, study, studyId, selection, setup.output, pageSize)) {
    const documents = await store.judge.documentsToJudge(
      studyId,
      page.pairs.map((pair) => pair.docid),
    );
    const rendered: { pair: JudgePair; prompt: RenderedPrompt; keys: string[] }[] = [];
    for (const pair of page.pairs) {
      const row = documents.get(pair.docid);
      if (row === undefined) continue; // deleted since the page was read: the run skips it too
      const text = renderPromptOf(row, study, setup, prompt, pair);
      const keys = Array.from({ length: setup.votesPerPair }, (_, voteIndex) =>
        judgeCacheKey(
          voteCallRequest(setup, endpoint, parametersOf(text.shape, voteIndex), text.promptHash, voteIndex),
        ),
      );
      rendered.push({ pair, prompt: text, keys });
    }
    const pageKeys = rendered.flatMap((r) => r.keys);
    const cached = await store.judge.cachedCalls(pageKeys);
    const held = new Set(await store.judgeBatches.keysInOpenBatches(pageKeys.filter((key) => !cached.has(key))));
    for (const { pair, prompt: text, keys } of rendered) {
      yield {
        pairId: pair.pairId,
        qid: pair.qid,
        docid: pair.docid,
        prompt: text.prompt,
        calls: keys.filter((key) => !cached.has(key) && !held.has(key)).length,
        ...(setup.judge.maxTokens !== undefined && { maxTokens: setup.judge.maxTokens }),
        responseFormat: parametersOf(text.shape, 0).responseFormat,
      };
    }
  }
}
