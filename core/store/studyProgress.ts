// How far a study's labelling is: its pairs, how many have a current label, and per annotator how many pairs they
// have labelled (and were assigned). The store counts (StudiesPort.progressCounts: grouped in the database, as
// `current_judgment` defines a current label — a retracted, undone, judgment is none — so that a study of a million
// pairs is counted in well under a second); the rules of who counts where are here.
import type { ProgressCounts } from './port/studiesPort.ts';
import type { StudyStore } from './studyStore.ts';

export interface AnnotatorProgress {
  name: string;
  kind: 'human' | 'llm';
  /**
   * Pairs assigned to them; null when the study assigns no pair to anyone, and for an LLM judge or the adjudicator
   * that none is assigned to (they may label every pair).
   */
  assigned: number | null;
  /** Pairs they have a current label for (an LLM judge: or a parsed suggestion, what a judge run stores). */
  judged: number;
}

export interface StudyProgress {
  pairs: number;
  /** Pairs with a current label by at least one annotator, LLM judges (and their suggestions) included. */
  judgedByAnyone: number;
  /** Pairs with a current label by at least one human annotator. */
  judgedByHumans: number;
  /**
   * The study file's annotators and everyone who has labelled or been assigned a pair of the study: humans first,
   * then LLM judges, each by name.
   */
  annotators: AnnotatorProgress[];
}

/**
 * The progress of study `studyName` (a StoreError naming the known studies when there is none).
 *
 * The store groups the pairs by the annotators with a judgment of them that is not retracted (a handful of rows,
 * whatever the number of pairs). An annotator has a current label for a pair exactly when they have such a
 * judgment (the current one is the latest of them), which is what `current_judgment` shows.
 */
export async function studyProgress(store: StudyStore, studyName: string): Promise<StudyProgress> {
  return progressOf(await store.studies.progressCounts(studyName));
}

/** The progress the counts of one study make. */
export function progressOf(counts: ProgressCounts): StudyProgress {
  const { pairs, annotators: everyone } = counts;
  const kindOf = new Map(everyone.map((a) => [a.id, a.kind]));
  const judgedBy = new Map<number, number>();
  let judgedByAnyone = 0;
  let judgedByHumans = 0;
  for (const { annotators: list, pairs: count } of counts.judgedGroups) {
    const ids = new Set(list);
    judgedByAnyone += count;
    if ([...ids].some((id) => kindOf.get(id) === 'human')) judgedByHumans += count;
    for (const id of ids) judgedBy.set(id, (judgedBy.get(id) ?? 0) + count);
  }
  // An LLM judge's labels are mostly suggestions (what a judge run stores): a pair it suggested a label for counts
  // as judged by it, and by anyone when nobody judged it, as its labels do in agreement and exports.
  if (counts.suggestions !== undefined) {
    for (const [id, count] of counts.suggestions.byAnnotator) if (kindOf.get(id) === 'llm') judgedBy.set(id, count);
    judgedByAnyone += counts.suggestions.onlySuggested;
  }
  const assignedTo = new Map(counts.assigned);
  const people = declaredPeople(counts.model);
  const declared = new Set(people.annotators);
  // Assignments share the pairs among the annotators; an LLM judge runs over every pair, and the adjudicator may
  // label any (as their Label view counts): neither has a share of their own unless given one.
  const unassigned = (name: string, kind: 'human' | 'llm') =>
    assignedTo.size > 0 && kind === 'human' && name !== people.adjudicator ? 0 : null;
  const annotators: AnnotatorProgress[] = everyone
    .filter((a) => declared.delete(a.name) || judgedBy.has(a.id) || assignedTo.has(a.id))
    .map((a) => ({
      name: a.name,
      kind: a.kind,
      assigned: assignedTo.get(a.id) ?? unassigned(a.name, a.kind),
      judged: judgedBy.get(a.id) ?? 0,
    }));
  // Declared annotators who have never judged or been assigned anything are not in the annotator table yet.
  for (const name of declared) {
    const kind = name.startsWith('llm:') ? 'llm' : 'human';
    annotators.push({ name, kind, assigned: unassigned(name, kind), judged: 0 });
  }
  annotators.sort(
    (a, b) => (a.kind === b.kind ? 0 : a.kind === 'human' ? -1 : 1) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
  return { pairs, judgedByAnyone, judgedByHumans, annotators };
}

/** The `annotators` and `adjudicator` of the study as last synced from its study file (the model sync stored). */
function declaredPeople(model: unknown): { annotators: string[]; adjudicator?: string } {
  const { annotators, adjudicator } = (model ?? {}) as { annotators?: unknown; adjudicator?: unknown };
  return {
    annotators: Array.isArray(annotators) ? annotators.filter((name): name is string => typeof name === 'string') : [],
    ...(typeof adjudicator === 'string' && { adjudicator }),
  };
}
