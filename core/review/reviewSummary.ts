// What a review decided: each item's final verdict — the adjudicator's latest when there is one, else the verdict
// every (human) reviewer's latest agrees on, else `disputed` (or `unreviewed`) — per taxonomy type, the agreement
// on verdicts (the agreement core: verdicts as nominal categories), and the accepted items written out as JSONL with
// their latest version and verdict history (`qrels-studio export REVIEW.assess --review OUT`).
import { type AgreementSummary, summariseAgreement } from '../agreement/agreementSummary.ts';
import { ReliabilityBuilder } from '../agreement/reliabilityData.ts';
import type { ReviewModel } from '../dsl/model.ts';
import type { SqliteDatabase } from '../store/sqliteDatabase.ts';
import { writeAtomically } from '../store/studyExports.ts';
import { defaultVerdicts } from './reviewSession.ts';

export interface VerdictRecord {
  annotator: string;
  verdict: string;
  rubric: Record<string, string>;
  reason: string | null;
  version: number;
  at: string;
}

export interface ReviewOutcome {
  itemId: string;
  parent: string | null;
  type: string | null;
  model: string | null;
  final: string;
  /** The latest version's text, and every version (oldest first). */
  text: string;
  versions: { text: string; author: string; at: string }[];
  history: VerdictRecord[];
}

export interface ReviewSummary {
  review: string;
  items: number;
  /** Per type (taxonomy code, or "(none)"): how many items ended with each final verdict. */
  types: { type: string; counts: Record<string, number> }[];
  /** Reviewer agreement on verdicts (null values with reasons in notes when undefined). */
  agreement: Pick<
    AgreementSummary,
    'n_units' | 'n_annotators' | 'percent_agreement' | 'krippendorff' | 'cohen' | 'notes'
  >;
}

export function reviewOutcomes(db: SqliteDatabase, studyId: number, review: ReviewModel): ReviewOutcome[] {
  const items = db
    .prepare('SELECT id, item_id, parent_id, type, model FROM review_item WHERE study_id = ? ORDER BY id')
    .all(studyId) as {
    id: number;
    item_id: string;
    parent_id: string | null;
    type: string | null;
    model: string | null;
  }[];
  const versions = db.prepare(
    'SELECT id, text, author, created_at FROM review_item_version WHERE item_id = ? ORDER BY id',
  );
  const verdicts = db.prepare(
    `SELECT a.name AS annotator, d.verdict, d.rubric, d.rationale, d.version_id, d.created_at
     FROM review_verdict AS d JOIN review_item_version AS v ON v.id = d.version_id
     JOIN annotator AS a ON a.id = d.annotator_id WHERE v.item_id = ? ORDER BY d.id`,
  );
  return items.map((item) => {
    const itemVersions = versions.all(item.id) as { id: number; text: string; author: string; created_at: string }[];
    const history = (
      verdicts.all(item.id) as {
        annotator: string;
        verdict: string;
        rubric: string | null;
        rationale: string | null;
        version_id: number;
        created_at: string;
      }[]
    ).map((v) => ({
      annotator: v.annotator,
      verdict: v.verdict,
      rubric: v.rubric ? (JSON.parse(v.rubric) as Record<string, string>) : {},
      reason: v.rationale,
      version: itemVersions.findIndex((x) => x.id === v.version_id) + 1,
      at: v.created_at,
    }));
    const latest = new Map<string, string>();
    for (const v of history) latest.set(v.annotator, v.verdict);
    const adjudicated = review.adjudicator !== undefined ? latest.get(review.adjudicator) : undefined;
    // An LLM critic pre-fills; the people decide.
    const reviewers = [...latest]
      .filter(([name]) => name !== review.adjudicator && !name.startsWith('llm:'))
      .map(([, verdict]) => verdict);
    const final =
      adjudicated ??
      (reviewers.length === 0 ? 'unreviewed' : reviewers.every((v) => v === reviewers[0]) ? reviewers[0]! : 'disputed');
    return {
      itemId: item.item_id,
      parent: item.parent_id,
      type: item.type,
      model: item.model,
      final,
      text: itemVersions.at(-1)!.text,
      versions: itemVersions.map((v) => ({ text: v.text, author: v.author, at: v.created_at })),
      history,
    };
  });
}

export function reviewSummary(db: SqliteDatabase, studyId: number, review: ReviewModel): ReviewSummary {
  const outcomes = reviewOutcomes(db, studyId, review);
  const byType = new Map<string, Record<string, number>>();
  for (const o of outcomes) {
    const type = o.type ?? '(none)';
    const counts = byType.get(type) ?? {};
    counts[o.final] = (counts[o.final] ?? 0) + 1;
    byType.set(type, counts);
  }
  const verdicts = review.verdicts.length > 0 ? review.verdicts : defaultVerdicts;
  const builder = new ReliabilityBuilder();
  for (const o of outcomes) {
    const latest = new Map<string, string>();
    for (const v of o.history) if (v.annotator !== review.adjudicator) latest.set(v.annotator, v.verdict);
    for (const [annotator, verdict] of latest)
      builder.add(o.type ?? '', o.itemId, annotator, verdicts.indexOf(verdict));
  }
  const agreement = summariseAgreement(builder.build(verdicts.map((_, i) => i)));
  return {
    review: review.name,
    items: outcomes.length,
    types: [...byType].sort(([a], [b]) => (a < b ? -1 : 1)).map(([type, counts]) => ({ type, counts })),
    agreement: {
      n_units: agreement.n_units,
      n_annotators: agreement.n_annotators,
      percent_agreement: agreement.percent_agreement,
      krippendorff: agreement.krippendorff,
      cohen: agreement.cohen,
      notes: agreement.notes,
    },
  };
}

/** The accepted items (final verdict accept or edit: the edited version is the accepted one), one JSON object a line. */
export function exportReviewed(
  db: SqliteDatabase,
  studyId: number,
  review: ReviewModel,
  file: string,
): Promise<number> {
  const verdicts = review.verdicts.length > 0 ? review.verdicts : defaultVerdicts;
  const accepting = new Set([verdicts[0]!, 'edit']);
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
        })}\n`,
    ),
  );
}
