// What a review decided (reviewOutcome.ts for one item): each item's final verdict, the counts per taxonomy type, the
// reviewers' agreement on verdicts (the agreement core: the verdicts their outcomes amount to, as nominal
// categories, one unit per item), and the accepted items written out as JSONL with their accepted text, versions and
// verdict history (`qrels-studio export REVIEW.assess --review OUT`).
import { type AgreementSummary, summariseAgreement } from '../agreement/agreementSummary.ts';
import { judgeTarget, type TargetVerdict } from '../agreement/agreementTarget.ts';
import { ReliabilityBuilder, type ReliabilityData } from '../agreement/reliabilityData.ts';
import type { ReviewModel } from '../dsl/model.ts';
import type { SqliteDatabase } from '../store/sqliteDatabase.ts';
import { writeAtomically } from '../store/studyExports.ts';
import { type ItemOutcome, itemOutcome, openOutcomes, versionMadeBy } from './reviewOutcome.ts';
import { type ItemRecords, type ItemRow, ReviewRecords, reviewRules } from './reviewRecords.ts';

export interface HistoryEntry {
  annotator: string;
  /** reviewer, adjudicator, or critic (an LLM judge's pre-filled rating). */
  role: 'reviewer' | 'adjudicator' | 'critic';
  verdict: string;
  rubric: Record<string, string>;
  reason: string | null;
  /** The version judged, numbered from 1 (for an edit: the version edited). */
  version: number;
  /** The version an edit made. */
  made?: number;
  /** It judges the item as the items file has it now (not an earlier generated text). */
  current: boolean;
  at: string;
}

export interface ReviewOutcome {
  itemId: string;
  parent: string | null;
  type: string | null;
  model: string | null;
  final: string;
  /** The accepted text (accept, edit), else the latest generated one. */
  text: string;
  /** Every version, oldest first. */
  versions: { version: number; text: string; author: string; at: string; basedOn?: number }[];
  history: HistoryEntry[];
  /** The LLM critic's latest verdict on the current text (it never decides; an item only it judged is unreviewed). */
  critic?: { annotator: string; verdict: string; reason: string | null };
}

export interface ReviewSummary {
  review: string;
  /** Items summarised (all of the review's, or those of `scope`). */
  items: number;
  /** What the summary is restricted to, when it is (a blind reviewer's: the items they reviewed). */
  scope?: string;
  /**
   * The columns of `types`: the review's verdicts, then `critic <verdict>` (items no person has judged yet, by the
   * LLM critic's verdict), then disputed, pending and unreviewed (items neither a person nor the critic judged).
   */
  outcomes: string[];
  /** Per type (taxonomy code, or "(none)"): how many items ended with each final verdict. */
  types: { type: string; counts: Record<string, number> }[];
  /** Reviewers per item for a final verdict. */
  required: number;
  /** Reviewer agreement on verdicts (null values with reasons in notes when undefined). */
  agreement: Pick<AgreementSummary, 'n_units' | 'n_annotators' | 'percent_agreement' | 'cohen' | 'notes'> & {
    krippendorff: { nominal: number | null };
    /** The review's `agreement … target T`: the statistic it names (on verdicts: nominal), its value, the verdict. */
    target?: { statistic: string; value: number | null; target: number; verdict: TargetVerdict; note?: string };
  };
}

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
function describe(
  item: ItemRow,
  outcome: ItemOutcome,
  { versions, verdicts }: ItemRecords,
  review: ReviewModel,
): ReviewOutcome {
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
export function reviewOutcomes(db: SqliteDatabase, studyId: number, review: ReviewModel): ReviewOutcome[] {
  return itemOutcomes(db, studyId, review).map(({ outcome }) => outcome);
}

function itemOutcomes(db: SqliteDatabase, studyId: number, review: ReviewModel) {
  const records = new ReviewRecords(db);
  const rules = reviewRules(review);
  return records.items(studyId).map((item) => {
    const stored = records.records(item.id);
    const decided = itemOutcome(stored.versions, stored.verdicts, rules);
    return { decided, outcome: describe(item, decided, stored, review) };
  });
}

export interface SummaryScope {
  /** The items to summarise (default: all). */
  only?: (outcome: ItemOutcome) => boolean;
  /** What `only` keeps, for the reader. */
  scope?: string;
}

export function reviewSummary(
  db: SqliteDatabase,
  studyId: number,
  review: ReviewModel,
  scope: SummaryScope = {},
): ReviewSummary {
  const rules = reviewRules(review);
  const outcomes = itemOutcomes(db, studyId, review).filter(({ decided }) => scope.only?.(decided) ?? true);
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
export function exportReviewed(
  db: SqliteDatabase,
  studyId: number,
  review: ReviewModel,
  file: string,
): Promise<number> {
  const accepting = new Set([reviewRules(review).verdicts[0]!, 'edit']);
  const accepted = reviewOutcomes(db, studyId, review).filter((o) => accepting.has(o.final));
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
