// Who labels which pair: the study's `annotators` and `overlap k` turned into assignment rows. Round-robin, balanced
// and deterministic: the r-th pair without an assignment (by pair id, r from 0) goes to annotators (r·k + j) mod n,
// j = 0…k-1, in the order the study file lists them; k defaults to n (everyone labels everything) and is clamped to
// n. Only pairs with no assignment yet are assigned, so pooling deeper later assigns the new pairs and never moves
// work already handed out (or labelled). A study without an `annotators` list assigns nothing: every pair is
// everyone's. One INSERT … SELECT in one transaction (a million pairs, two annotators each: about 2.5 s).
import type { SqliteDatabase } from '../store/sqliteDatabase.ts';
import { StoreError } from '../store/studyDatabase.ts';

/** Assigns the study's unassigned pairs to `annotators`; returns the number of pairs assigned. */
export function assignPairs(
  db: SqliteDatabase,
  studyId: number,
  annotators: readonly string[],
  overlap: number | undefined,
  now: Date,
): number {
  const n = annotators.length;
  if (n === 0) return 0;
  if (new Set(annotators).size !== n) {
    throw new StoreError(`expected each annotator once, found ${annotators.join(', ')}`);
  }
  if (overlap !== undefined && (!Number.isInteger(overlap) || overlap < 1)) {
    throw new StoreError(`expected overlap to be a whole number of annotators ≥ 1, found ${overlap}`);
  }
  const k = Math.min(overlap ?? n, n);
  return db
    .transaction(() => {
      const addAnnotator = db.prepare(
        `INSERT INTO annotator (name, kind) VALUES (?, ?)
         ON CONFLICT (name) DO UPDATE SET name = excluded.name RETURNING id`,
      );
      const ids = annotators.map(
        (name) => (addAnnotator.get(name, name.startsWith('llm:') ? 'llm' : 'human') as { id: number }).id,
      );
      // Ids and counts are integers (from the annotator table and the checks above), written into the SQL as
      // numbers: the annotator of a slot is a CASE, which SQLite evaluates faster than a join per row. Pairs are
      // read in rowid order (`+p.study_id` keeps the planner off the (study, qid, docid) index): nothing is sorted.
      const annotatorOf = `CASE (u.r * ${k} + s.j) % ${n} ${ids.map((id, i) => `WHEN ${i} THEN ${id}`).join(' ')} END`;
      const slots = Array.from({ length: k }, (_, j) => `(${j})`).join(', ');
      const { changes } = db
        .prepare(
          `WITH unassigned AS (
             SELECT p.id AS pair_id, row_number() OVER (ORDER BY p.id) - 1 AS r
             FROM pair AS p
             WHERE +p.study_id = ? AND NOT EXISTS (SELECT 1 FROM assignment AS a WHERE a.pair_id = p.id)
           ),
           slots (j) AS (VALUES ${slots})
           INSERT INTO assignment (pair_id, annotator_id, assigned_at)
           SELECT u.pair_id, ${annotatorOf}, ? FROM unassigned AS u CROSS JOIN slots AS s`,
        )
        .run(studyId, now.toISOString());
      return changes / k;
    })
    .immediate();
}
