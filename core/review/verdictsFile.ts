// Review verdicts recorded outside VS Code (`qrels-studio import REVIEW.assess --verdicts FILE`): JSON Lines, one
// verdict a line —
//   {"item_id": "i7", "verdict": "reject", "reason": "drops the date", "reviewer": "alice"}
//   {"item_id": "i8", "verdict": "edit", "reason": "typo", "reviewer": "alice", "text": "the edited text"}
// with an optional "rubric" ({"dimension": "level"}). `reviewer` may be left out when the command names one
// (--annotator NAME). A verdict judges the item as the items file has it now, as the Review view's do; the rules are
// the view's (a declared verdict, a reason for all but the accepting one, an edit's new text, a named reviewer).
// All or nothing: every line is checked before anything is written, and a problem is an ImportError at its line and
// column. A line repeating the reviewer's current verdict on the item is left out, so importing a file twice
// records nothing new.
import { isJsonObject } from '../data/fieldPath.ts';
import { decodeLine } from '../data/lineText.ts';
import { isBlankText } from '../data/recordFormat.ts';
import type { ReviewModel } from '../dsl/model.ts';
import { lineBatches } from '../importers/lineSource.ts';
import { ImportError, type SourcePosition } from '../importers/types.ts';
import type { NewReviewVerdict } from '../store/port/reviewsPort.ts';
import type { StudyStore } from '../store/studyStore.ts';
import { itemOutcome } from './reviewOutcome.ts';
import { reviewRules } from './reviewRecords.ts';

export interface VerdictsImport {
  /** Verdicts written. */
  recorded: number;
  /** Lines that repeated a reviewer's current verdict. */
  unchanged: number;
}

const fields = ['item_id', 'verdict', 'reason', 'reviewer', 'text', 'rubric'] as const;

/** The 1-based column of `field`'s value on a JSON line (1 when it cannot be found). */
function valueColumn(line: string, field: string): number {
  const key = line.indexOf(`"${field}"`);
  if (key < 0) return 1;
  const colon = line.indexOf(':', key + field.length + 2);
  let at = colon < 0 ? key : colon + 1;
  while (line[at] === ' ' || line[at] === '\t') at++;
  return [...line.slice(0, at)].length + 1;
}

const describe = (value: unknown): string =>
  value === undefined
    ? 'no such field'
    : typeof value === 'string'
      ? value.trim() === ''
        ? 'an empty value'
        : `'${value.length > 60 ? `${value.slice(0, 60)}…` : value}'`
      : Array.isArray(value)
        ? 'an array'
        : value === null
          ? 'null'
          : typeof value;

/**
 * Checks every verdict of `path` (`shown` in positions) against `review`'s items (imported) and rules, then records
 * them in one transaction. `reviewer` is who made the verdicts whose line names none.
 */
export async function importReviewVerdicts(
  store: StudyStore,
  review: ReviewModel,
  path: string,
  options: { shown?: string; reviewer?: string; now?: () => Date } = {},
): Promise<VerdictsImport> {
  const file = options.shown ?? path;
  const rules = reviewRules(review);
  const items = new Map((await store.reviews.records(review.name)).map((stored) => [stored.item.itemId, stored]));
  const dimensions = review.rubric?.dimensions.map((d) => d.name) ?? [];
  const levels = review.rubric?.levels ?? [];
  const toStore: NewReviewVerdict[] = [];
  const seen = new Map<string, number>();
  let unchanged = 0;
  for await (const batch of lineBatches(path)) {
    for (const raw of batch) {
      const { text: line } = decodeLine(raw.bytes, raw.start, raw.end, raw.number);
      if (isBlankText(line)) continue;
      const at = (field?: string): SourcePosition => ({
        file,
        line: raw.number,
        column: field === undefined ? 1 : valueColumn(line, field),
        ...(field !== undefined && { field }),
      });
      let record: unknown;
      try {
        record = JSON.parse(line);
      } catch (error) {
        const position = /position (\d+)/.exec(String(error));
        throw new ImportError(
          { file, line: raw.number, column: position ? Number(position[1]) + 1 : 1 },
          'a JSON object (one verdict a line)',
          `invalid JSON (${String((error as Error).message).replace(/ in JSON at position \d+.*$/, '')})`,
        );
      }
      if (!isJsonObject(record)) {
        throw new ImportError(at(), 'a JSON object (one verdict a line)', describe(record));
      }
      const object = record as Record<string, unknown>;
      const unknown = Object.keys(object).find((k) => !(fields as readonly string[]).includes(k));
      if (unknown !== undefined) {
        const key = line.indexOf(`"${unknown}"`);
        throw new ImportError(
          { file, line: raw.number, column: key < 0 ? 1 : [...line.slice(0, key)].length + 1, field: unknown },
          `a field among ${fields.join(', ')}`,
          `'${unknown}'`,
        );
      }
      const text = (field: (typeof fields)[number], expected: string): string | undefined => {
        const value = object[field];
        if (value === undefined || value === null) return undefined;
        if (typeof value !== 'string') throw new ImportError(at(field), expected, describe(value));
        return value;
      };
      const itemId = text('item_id', 'an item id');
      const item = itemId === undefined ? undefined : items.get(itemId);
      if (item === undefined) {
        throw new ImportError(
          at(itemId === undefined ? undefined : 'item_id'),
          `an item of review '${review.name}' in 'item_id'`,
          describe(itemId),
        );
      }
      const verdict = text('verdict', 'a verdict');
      if (verdict === undefined || !rules.verdicts.includes(verdict)) {
        throw new ImportError(
          at(verdict === undefined ? undefined : 'verdict'),
          `a verdict of the review (${rules.verdicts.join(', ')}) in 'verdict'`,
          describe(verdict),
        );
      }
      const reviewer = text('reviewer', "a reviewer's name")?.trim() || options.reviewer;
      if (reviewer === undefined || reviewer.startsWith('llm:')) {
        throw new ImportError(
          at(reviewer === undefined ? undefined : 'reviewer'),
          "a person's name in 'reviewer' (or --annotator NAME for every line)",
          describe(reviewer ?? object.reviewer),
        );
      }
      if (review.annotators.length > 0 && !review.annotators.includes(reviewer) && review.adjudicator !== reviewer) {
        throw new ImportError(
          at(object.reviewer === undefined ? undefined : 'reviewer'),
          `a reviewer of '${review.name}' (${[...review.annotators, ...(review.adjudicator ? [review.adjudicator] : [])].join(', ')})`,
          `'${reviewer}'`,
        );
      }
      const reason = text('reason', 'a reason')?.trim() ?? '';
      if (verdict !== rules.verdicts[0] && reason === '') {
        throw new ImportError(
          at(object.reason === undefined ? undefined : 'reason'),
          `a reason for the verdict '${verdict}'`,
          describe(object.reason),
        );
      }
      const rubricValue = object.rubric ?? {};
      if (!isJsonObject(rubricValue)) {
        throw new ImportError(at('rubric'), 'an object {"dimension": "level"}', describe(rubricValue));
      }
      const rubric: Record<string, string> = {};
      for (const [dimension, level] of Object.entries(rubricValue as Record<string, unknown>)) {
        if (!dimensions.includes(dimension)) {
          throw new ImportError(
            at('rubric'),
            dimensions.length > 0 ? `a rubric dimension (${dimensions.join(', ')})` : 'no rubric (the review has none)',
            `'${dimension}'`,
          );
        }
        if (typeof level !== 'string' || !levels.includes(level)) {
          throw new ImportError(at('rubric'), `a level (${levels.join(', ')}) for '${dimension}'`, describe(level));
        }
        rubric[dimension] = level;
      }
      const key = `${reviewer}\u0000${itemId}`;
      const first = seen.get(key);
      if (first !== undefined) {
        throw new ImportError(
          at('item_id'),
          'one verdict per reviewer and item',
          `a second verdict by '${reviewer}' on '${itemId}' (first on line ${first})`,
          { file, line: first },
        );
      }
      seen.set(key, raw.number);
      // The item as the items file has it now: the latest generated version.
      const { versions, verdicts } = item;
      const outcome = itemOutcome(versions, verdicts, rules);
      const root = outcome.root;
      let edited: string | undefined;
      if (verdict === 'edit') {
        edited = text('text', 'the edited text')?.trim() ?? '';
        if (edited === '' || edited === root.text.trim()) {
          throw new ImportError(
            at(object.text === undefined ? undefined : 'text'),
            "the edited text in 'text', different from the item's",
            edited === '' ? describe(object.text) : 'the item’s own text',
          );
        }
      } else if (object.text !== undefined) {
        throw new ImportError(at('text'), "no 'text' (only an edit has one)", `a 'text' with the verdict '${verdict}'`);
      }
      // The reviewer's current verdict already says this: nothing to record.
      const current = reviewer === rules.adjudicator ? outcome.adjudication : outcome.reviewers.get(reviewer);
      if (
        current !== undefined &&
        current.verdict.verdict === verdict &&
        (current.verdict.reason ?? '') === reason &&
        (verdict !== 'edit' || current.text === edited) &&
        JSON.stringify(current.verdict.rubric) === JSON.stringify(rubric)
      ) {
        unchanged++;
        continue;
      }
      toStore.push({
        item: item.item.id,
        versionId: root.id,
        root: root.id,
        reviewer,
        verdict,
        rubric,
        reason: reason === '' ? null : reason,
        ...(edited !== undefined && { text: edited }),
      });
    }
  }
  if (toStore.length > 0) {
    await store.reviews.recordVerdicts(review.name, toStore, (options.now?.() ?? new Date()).toISOString());
  }
  return { recorded: toStore.length, unchanged };
}
