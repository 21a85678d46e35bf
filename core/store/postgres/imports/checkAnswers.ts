// The answers a label file carries, checked against the study as SQLite's import checks them (core/store/sqlite/
// studyDatabase.ts, checkAnswers: the same rules, the same messages).
import { type AnswerRules, StoreError } from '../../studyDatabase.ts';

/** A staged judgment's answers, with where each was read, and its query as stored (undefined: not in the study). */
export interface StagedAnswers {
  qid: string;
  query:
    | { qid: string; text: string; instruction: string | null; type: string | null; metadata: string | null }
    | undefined;
  conditions: boolean[] | undefined;
  conditionsAt: string;
  aspects: Record<string, boolean | number> | undefined;
  aspectsAt: string;
}

/** Refuses answers the study does not accept (without `rules`, a study with no conditions and no aspects). */
export function checkAnswers(row: StagedAnswers, study: string, rules: AnswerRules | undefined): void {
  const aspects = rules?.aspects ?? new Map<string, readonly number[] | undefined>();
  for (const [name, answer] of Object.entries(row.aspects ?? {})) {
    if (!aspects.has(name)) {
      const declared = [...aspects.keys()].join(', ') || 'none';
      throw new StoreError(`${row.aspectsAt}: expected an aspect of study '${study}' (${declared}), found '${name}'`);
    }
    const levels = aspects.get(name);
    if (levels) {
      if (typeof answer !== 'number' || !levels.includes(answer)) {
        throw new StoreError(
          `${row.aspectsAt}: expected aspect '${name}' to be one of its levels (${levels.join(', ')}), found ${answer}`,
        );
      }
    } else if (typeof answer !== 'boolean') {
      throw new StoreError(`${row.aspectsAt}: expected aspect '${name}' to be true or false, found ${answer}`);
    }
  }
  const conditions = row.conditions ?? [];
  if (conditions.length === 0) return;
  const count = row.query && rules ? rules.conditionCount(row.query) : 0;
  if (conditions.length !== count) {
    throw new StoreError(
      `${row.conditionsAt}: expected ${count} condition answer${count === 1 ? '' : 's'} for query '${row.qid}', ` +
        `found ${conditions.length}`,
    );
  }
}
