// Warnings about a run that does not fit the study, phrased for the CLI (`pool`, `import`, `judged`): pooled
// documents the corpus lacks, and a run none of whose query ids is a study query. Both are what trec_eval would
// score silently — a document nobody can be shown, a run that matches nothing — so they are said once, with
// examples, instead of per line.
import type { RunRanking } from './runRanking.ts';

const list = (ids: readonly string[], total: number) =>
  ids.map((id) => `'${id}'`).join(', ') + (total > ids.length ? ', …' : '');

/** When a run pooled documents the study's (non-empty) corpus does not hold; undefined otherwise. */
export function notInCorpusWarning(
  run: string,
  found: { corpusSize: number; missing: number; examples: readonly string[] },
): string | undefined {
  // Before the corpus is imported every document is missing: that is the order of work, not a problem.
  if (found.corpusSize === 0 || found.missing === 0) return undefined;
  const documents = found.missing === 1 ? '1 pooled document is' : `${found.missing} pooled documents are`;
  return (
    `warning: ${run}: ${documents} not in the corpus (${list(found.examples, found.missing)}): they are pooled ` +
    'but cannot be shown to annotators; is the run over another corpus, or are its ids in another form?'
  );
}

/** When none of the run's query ids is one of the study's queries (and the study has some); undefined otherwise. */
export function noMatchingQueryWarning(
  run: string,
  ranking: RunRanking,
  studyQueries: ReadonlySet<string>,
): string | undefined {
  if (studyQueries.size === 0 || ranking.queries.size === 0) return undefined;
  for (const qid of ranking.queries.keys()) if (studyQueries.has(qid)) return undefined;
  const runIds = [...ranking.queries.keys()].slice(0, 3);
  const studyIds = [...studyQueries].sort().slice(0, 3);
  return (
    `warning: ${run}: none of its ${ranking.queries.size} query ids (${list(runIds, ranking.queries.size)}) is a ` +
    `query of the study (${list(studyIds, studyQueries.size)}): every value below is over queries the study does ` +
    'not have'
  );
}
