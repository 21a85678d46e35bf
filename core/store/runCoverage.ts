// What a pooled or scored run names that the study does not hold: documents pooled from a run that are not in the
// study's corpus (a run over another corpus, or ids in another form — `doc1` against `doc1:0` chunks), and whether
// any of a run's query ids is one of the study's queries. The CLI turns these into warnings (core/pooling/
// runWarnings.ts): trec_eval would silently score such a run as retrieving nothing relevant.
import { notInCorpusWarning } from '../pooling/runWarnings.ts';
import type { PoolReport } from './studyDatabase.ts';
import type { StudyStore } from './studyStore.ts';

/** The study's query ids (for a run's: does any match?). */
export async function studyQueryIds(store: StudyStore, studyName: string): Promise<Set<string>> {
  return new Set(await store.studies.queryIds(studyName));
}

/** The warnings of an import's or a pool's runs: each run's pooled documents the corpus lacks. */
export async function poolWarnings(
  store: StudyStore,
  studyName: string,
  pools: readonly PoolReport[],
): Promise<string[]> {
  if (pools.length === 0) return [];
  const coverage = await store.imports.pooledNotInCorpus(
    studyName,
    pools.map((pool) => pool.run),
  );
  return pools.flatMap((pool, i) => {
    const warning = notInCorpusWarning(pool.run, coverage[i]!);
    return warning === undefined ? [] : [warning];
  });
}
