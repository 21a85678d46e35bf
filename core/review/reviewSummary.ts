// What a review decided (reviewOutcome.ts for one item): each item's final verdict, the counts per taxonomy type, the
// reviewers' agreement on verdicts (the agreement core: the verdicts their outcomes amount to, as nominal
// categories, one unit per item), and the accepted items written out as JSONL with their accepted text, versions and
// verdict history (`qrels-studio export REVIEW.assess --review OUT`).
import { summariseAgreement } from '../agreement/agreementSummary.ts';
import { judgeTarget } from '../agreement/agreementTarget.ts';
import { ReliabilityBuilder, type ReliabilityData } from '../agreement/reliabilityData.ts';
import type { ReviewModel } from '../dsl/model.ts';
import { writeAtomically } from '../store/studyExports.ts';
import type { StudyStore } from '../store/studyStore.ts';
import { type ItemOutcome, itemOutcome, openOutcomes, versionMadeBy } from './reviewOutcome.ts';
import { type ItemRecords, reviewRules } from './reviewRecords.ts';
import type { ReviewOutcome, ReviewSummary } from './reviewTypes.ts';

export type { HistoryEntry, ReviewOutcome, ReviewSummary } from './reviewTypes.ts';

/**
 * The statistic a review's `agreement … target T` names, on verdicts (nominal categories), and whether it meets
 * the target: only when its bootstrap interval's lower bound does (agreementTarget.ts, as the Agreement view).
 */
function targetOf(review: ReviewModel, verdicts: ReliabilityData): ReviewSummary['agreement']['target'] {
  const declared = review.agreement.find((a) => a.target !== undefined);
  if (!declared || declared.target === undefined) return undefined;
  const statistic =
    declared.metric === 'krippendorff'
      ? "Krippendorff's α (nominal)"
      : declared.metric === 'cohen'
        ? "Cohen's κ (mean over pairs of reviewers)"
        : declared.metric === 'fleiss'
          ? "Fleiss' κ"
          : 'percent agreement';
  const judged = judgeTarget(verdicts, { metric: declared.metric, level: 'nominal', target: declared.target });
  return {
    statistic,
    value: judged.value,
    target: declared.target,
    verdict: judged.verdict,
    ...(judged.note !== undefined && { note: judged.note }),
  };
}

/** An item's final verdict, versions (numbered from 1) and verdict history, as the export writes them. */
function describe(outcome: ItemOutcome, { item, versions, verdicts }: ItemRecords, review: ReviewModel): ReviewOutcome {
  const number = new Map(versions.map((v, i) => [v.id, i + 1]));
  const current = new Set(outcome.round.map((v) => v.id));
  return {
    itemId: item.itemId,
    parent: item.parent,
    type: item.type,
    model: item.model,
    final: outcome.final,
    text: outcome.finalText,
    ...(outcome.critic && {
      critic: {
        annotator: outcome.critic.verdict.annotator,
        verdict: outcome.critic.verdict.verdict,
        reason: outcome.critic.verdict.reason,
      },
    }),
    versions: versions.map((v) => ({
      version: number.get(v.id)!,
      text: v.text,
      author: v.author,
      at: v.at,
      ...(v.basedOn !== null && { basedOn: number.get(v.basedOn)! }),
    })),
    history: verdicts.map((v) => {
      const made = versionMadeBy(v, versions);
      return {
        annotator: v.annotator,
        role: v.annotator.startsWith('llm:')
          ? 'critic'
          : v.annotator === review.adjudicator
            ? 'adjudicator'
            : 'reviewer',
        verdict: v.verdict,
        rubric: v.rubric,
        reason: v.reason,
        version: number.get(v.versionId)!,
        ...(made && { made: number.get(made.id)! }),
        current: current.has(v.versionId),
        at: v.at,
      };
    }),
  };
}

/** Every item of the review with its final verdict and history, in import order. */
export async function reviewOutcomes(store: StudyStore, review: ReviewModel): Promise<ReviewOutcome[]> {
  return itemOutcomes(await store.reviews.records(review.name), review).map(({ outcome }) => outcome);
}

function itemOutcomes(records: readonly ItemRecords[], review: ReviewModel) {
  const rules = reviewRules(review);
  return records.map((stored) => {
    const decided = itemOutcome(stored.versions, stored.verdicts, rules);
    return { decided, outcome: describe(decided, stored, review) };
  });
}

export interface SummaryScope {
  /** The items to summarise (default: all). */
  only?: (outcome: ItemOutcome) => boolean;
  /** What `only` keeps, for the reader. */
  scope?: string;
}

export async function reviewSummary(
  store: StudyStore,
  review: ReviewModel,
  scope: SummaryScope = {},
): Promise<ReviewSummary> {
  return summariseReview(await store.reviews.records(review.name), review, scope);
}

/** The summary of `records` (every item of `review` with its versions and verdicts). */
export function summariseReview(
  records: readonly ItemRecords[],
  review: ReviewModel,
  scope: SummaryScope = {},
): ReviewSummary {
  const rules = reviewRules(review);
  const outcomes = itemOutcomes(records, review).filter(({ decided }) => scope.only?.(decided) ?? true);
  const byType = new Map<string, Record<string, number>>();
  // An item no person has judged shows the critic's verdict, as the critic's, rather than `unreviewed`.
  const shownFinal = ({ decided, outcome }: (typeof outcomes)[number]): string =>
    outcome.final === 'unreviewed' && decided.critic ? `critic ${decided.critic.verdict.verdict}` : outcome.final;
  for (const item of outcomes) {
    const type = item.outcome.type ?? '(none)';
    const counts = byType.get(type) ?? {};
    const final = shownFinal(item);
    counts[final] = (counts[final] ?? 0) + 1;
    byType.set(type, counts);
  }
  // The categories: the verdicts, `edit` (an accepted edit) even where the review declares no edit verdict, and any
  // verdict stored before the study file stopped declaring it (it still counts, under its own name).
  const stored = outcomes.flatMap(({ decided }) => [...decided.reviewers.values()].map((o) => o.category));
  const categories = [...new Set([...rules.verdicts, 'edit', ...stored])];
  const finals = outcomes.map(({ outcome }) => outcome.final);
  const critics = [...new Set(outcomes.map(shownFinal).filter((f) => f.startsWith('critic ')))].sort();
  const shownOutcomes = [
    ...new Set([...rules.verdicts, ...finals.filter((f) => !(openOutcomes as readonly string[]).includes(f))]),
    ...critics,
    ...openOutcomes,
  ];
  const builder = new ReliabilityBuilder();
  for (const { decided, outcome } of outcomes) {
    for (const [annotator, o] of decided.reviewers) {
      builder.add(outcome.type ?? '', outcome.itemId, annotator, categories.indexOf(o.category));
    }
  }
  const verdicts = builder.build(categories.map((_, i) => i));
  const agreement = summariseAgreement(verdicts);
  // Verdicts are nominal categories: only the nominal α means something here, and the summary has no Fleiss' κ.
  const target = targetOf(review, verdicts);
  const notes = agreement.notes.filter((n) => !/^(krippendorff\.(ordinal|interval|ratio)|fleiss\.kappa) /.test(n));
  return {
    review: review.name,
    items: outcomes.length,
    ...(scope.scope !== undefined && { scope: scope.scope }),
    outcomes: shownOutcomes,
    types: [...byType].sort(([a], [b]) => (a < b ? -1 : 1)).map(([type, counts]) => ({ type, counts })),
    required: rules.required,
    agreement: {
      n_units: agreement.n_units,
      n_annotators: agreement.n_annotators,
      percent_agreement: agreement.percent_agreement,
      krippendorff: { nominal: agreement.krippendorff.nominal },
      cohen: agreement.cohen,
      notes,
      ...(target && { target }),
    },
  };
}

/**
 * The accepted items (final verdict accepting or `edit`: the accepted text is the one written), one JSON object a
 * line, with every version, the verdict history (who, in which role, on which version, whether it judged the
 * current text) and the critic's latest verdict on the current text (`critic`, null without one). Undecided items (disputed, pending, unreviewed) are left out.
 */
export async function exportReviewed(store: StudyStore, review: ReviewModel, file: string): Promise<number> {
  const accepting = new Set([reviewRules(review).verdicts[0]!, 'edit']);
  const accepted = (await reviewOutcomes(store, review)).filter((o) => accepting.has(o.final));
  return writeAtomically(
    file,
    accepted.map(
      (o) =>
        `${JSON.stringify({
          item_id: o.itemId,
          parent_id: o.parent,
          type: o.type,
          model: o.model,
          text: o.text,
          final_verdict: o.final,
          versions: o.versions,
          verdicts: o.history,
          critic: o.critic ?? null,
        })}\n`,
    ),
  );
}
