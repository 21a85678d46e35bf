// How far a study's labelling is: its pairs, how many have a current label, and per annotator how many pairs they
// have labelled (and were assigned). Counted with GROUP BY in SQLite, as `current_judgment` defines a current label
// (a retracted, undone, judgment is none), so that a study of a million pairs is counted in well under a second.
import type { StudyDatabase } from './studyDatabase.ts';

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

interface AnnotatorRow {
  id: number;
  name: string;
  kind: 'human' | 'llm';
}

/**
 * The progress of study `studyName` (a StoreError naming the known studies when there is none).
 *
 * One streaming pass over the judgment index (pair, annotator, time), grouped per pair (the index's order, no sort):
 * each pair's annotators with a judgment that is not retracted, as a list ("1,3"; "1,1,3" after a relabel), then
 * the pairs counted per distinct list — a handful of rows, whatever the number of pairs. An annotator has a current
 * label for a pair exactly when they have such a judgment (the current one is the latest of them), which is what
 * `current_judgment` shows; asking the view row by row would cost a correlated subquery per judgment (2–3× slower
 * on a million pairs).
 */
export function studyProgress(database: StudyDatabase, studyName: string): StudyProgress {
  const studyId = database.studyId(studyName);
  const db = database.db;
  const pairs = db.prepare('SELECT count(*) FROM pair WHERE study_id = ?').pluck().get(studyId) as number;
  const everyone = db.prepare('SELECT id, name, kind FROM annotator ORDER BY id').all() as AnnotatorRow[];
  const kindOf = new Map(everyone.map((a) => [a.id, a.kind]));
  const groups = db
    .prepare(
      `SELECT annotators, count(*) FROM (
         SELECT group_concat(j.annotator_id) AS annotators
         FROM judgment AS j CROSS JOIN pair AS p ON p.id = j.pair_id
         WHERE p.study_id = ? AND j.id NOT IN (SELECT judgment_id FROM judgment_retraction)
         GROUP BY j.pair_id
       ) GROUP BY annotators`,
    )
    .raw()
    .all(studyId) as [string, number][];
  const judgedBy = new Map<number, number>();
  let judgedByAnyone = 0;
  let judgedByHumans = 0;
  for (const [list, count] of groups) {
    const ids = new Set(list.split(',').map(Number));
    judgedByAnyone += count;
    if ([...ids].some((id) => kindOf.get(id) === 'human')) judgedByHumans += count;
    for (const id of ids) judgedBy.set(id, (judgedBy.get(id) ?? 0) + count);
  }
  // An LLM judge's labels are mostly suggestions (what a judge run stores): a pair it suggested a label for counts
  // as judged by it, and by anyone when nobody judged it, as its labels do in agreement and exports.
  const suggested = db
    .prepare('SELECT EXISTS (SELECT 1 FROM suggestion AS sg JOIN pair AS p ON p.id = sg.pair_id WHERE p.study_id = ?)')
    .pluck()
    .get(studyId);
  if (suggested === 1) {
    const byJudge = db
      .prepare(
        `SELECT annotator_id, count(*) FROM (
           SELECT sg.annotator_id, sg.pair_id FROM suggestion AS sg CROSS JOIN pair AS p ON p.id = sg.pair_id
           WHERE p.study_id = @study AND sg.label IS NOT NULL
           UNION
           SELECT j.annotator_id, j.pair_id FROM judgment AS j CROSS JOIN pair AS p ON p.id = j.pair_id
           WHERE p.study_id = @study AND j.id NOT IN (SELECT judgment_id FROM judgment_retraction)
             AND j.annotator_id IN (SELECT annotator_id FROM suggestion)
         ) GROUP BY annotator_id`,
      )
      .raw()
      .all({ study: studyId }) as [number, number][];
    for (const [id, count] of byJudge) if (kindOf.get(id) === 'llm') judgedBy.set(id, count);
    judgedByAnyone += db
      .prepare(
        `SELECT count(DISTINCT sg.pair_id) FROM suggestion AS sg CROSS JOIN pair AS p ON p.id = sg.pair_id
         WHERE p.study_id = ? AND sg.label IS NOT NULL AND NOT EXISTS (
           SELECT 1 FROM judgment AS j WHERE j.pair_id = sg.pair_id
             AND j.id NOT IN (SELECT judgment_id FROM judgment_retraction))`,
      )
      .pluck()
      .get(studyId) as number;
  }
  const assignedTo = new Map(
    db
      .prepare(
        `SELECT s.annotator_id, count(*) FROM assignment AS s JOIN pair AS p ON p.id = s.pair_id
         WHERE p.study_id = ? GROUP BY s.annotator_id`,
      )
      .raw()
      .all(studyId) as [number, number][],
  );
  const people = declaredPeople(database, studyId);
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

/** The `annotators` and `adjudicator` of the study as last synced from its study file (the model syncStudies stored). */
function declaredPeople(database: StudyDatabase, studyId: number): { annotators: string[]; adjudicator?: string } {
  const model = database.db.prepare('SELECT model FROM study WHERE id = ?').pluck().get(studyId) as string;
  const { annotators, adjudicator } = JSON.parse(model) as { annotators?: unknown; adjudicator?: unknown };
  return {
    annotators: Array.isArray(annotators) ? annotators.filter((name): name is string => typeof name === 'string') : [],
    ...(typeof adjudicator === 'string' && { adjudicator }),
  };
}
