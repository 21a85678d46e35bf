// `--from human-else-llm` / `export qrels "…" from human-else-llm` (FollowTable's final qrels): the people's label
// where a person labelled or adjudicated the pair — the adjudicated label, else the people's majority (ties to the
// lower label) — and the LLM's label on the pairs no person saw. The LLM is the study's one LLM label source (a judge
// the tool ran, or labels imported `kind llm`); with several, the rule cannot tell whose, and says so.
// A judge whose block declares a gate (`accept when …`) fills pairs only if it passes it: the export command checks
// that first (core/judge/quality/judgeQualityReport.ts checkHumanElseLlmExport), since the gate needs the study
// file's model and runs, which a label source is not given.
import {
  adjudicatedLabels,
  compareBytes,
  judgeLabels,
  knownAnnotators,
  type LabelSource,
  majorityLabels,
} from './labelSources.ts';
import { StoreError } from './studyDatabase.ts';

export const humanElseLlmSource: LabelSource = {
  id: 'human-else-llm',
  takesArgument: false,
  description: "the people's label (adjudicated, else majority) where a person labelled the pair, else the LLM's",
  async labels(store, studyId) {
    const llms = await knownAnnotators(store, studyId, 'llm');
    if (llms.length > 1) {
      throw new StoreError(
        `human-else-llm: several LLM label sources (${llms.join(', ')}); export one with --from llm:NAME or annotator:NAME`,
      );
    }
    const key = (l: { qid: string; docid: string }) => `${l.qid}\u0000${l.docid}`;
    const human = await adjudicatedLabels(store, studyId);
    const adjudicated = new Set(human.map(key));
    human.push(...(await majorityLabels(store, studyId)).filter((l) => !adjudicated.has(key(l))));
    const seen = new Set(human.map(key));
    const llm = llms.length === 1 ? await judgeLabels(store, studyId, llms[0]!) : [];
    return [...human, ...llm.filter((l) => !seen.has(key(l)))].sort(
      (a, b) => compareBytes(a.qid, b.qid) || compareBytes(a.docid, b.docid),
    );
  },
};
