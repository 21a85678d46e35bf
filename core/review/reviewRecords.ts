// The rules a review's block sets (verdicts, adjudicator, reviewers per item), and its items as stored — each with its
// versions and verdicts (the storage port's reviews.records / reviews.item): what reviewOutcome.ts decides from, for
// the session, the summary and the export.
import type { ReviewModel } from '../dsl/model.ts';
import type { ReviewItemRecords, ReviewItemRow } from '../store/port/reviewsPort.ts';
import type { ReviewRules } from './reviewOutcome.ts';

/** The verdicts of a review that declares none. */
export const defaultVerdicts = ['accept', 'edit', 'reject'];

export function verdictsOf(review: ReviewModel): string[] {
  return review.verdicts.length > 0 ? review.verdicts : defaultVerdicts;
}

/**
 * The rules of `review`. Reviewers per item: its `overlap`, else every annotator it names, else one — never more
 * than the annotators it names.
 */
export function reviewRules(review: ReviewModel): ReviewRules {
  const named = review.annotators.filter((a) => a !== review.adjudicator).length;
  const wanted = review.overlap ?? (named > 0 ? named : 1);
  return {
    verdicts: verdictsOf(review),
    ...(review.adjudicator !== undefined && { adjudicator: review.adjudicator }),
    required: Math.max(1, named > 0 ? Math.min(wanted, named) : wanted),
  };
}

/** An item as stored (row id, item id, parent, type, model, source). */
export type ItemRow = ReviewItemRow;

/** An item with its versions and verdicts. */
export type ItemRecords = ReviewItemRecords;
