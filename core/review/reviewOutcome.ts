// What the verdicts on one review item decide — a pure function of its versions and verdicts, so the Review view,
// the summary and the export agree.
//
// The item as the items file has it now is its latest generated version, the round's root; the round is that root
// and every version made from it (edits, edits of edits, through `based_on`). Only verdicts on versions of the round
// count: when the generator's text changes, earlier verdicts judged another text, and the item is to review again.
// Each person's latest counting verdict is their outcome:
//   - accepting (the review's first verdict) a version: that version's text is accepted;
//   - `edit`: the text the edit made is accepted;
//   - any other verdict (reject, …): that verdict.
// An outcome's category is the verdict it amounts to: `edit` when the accepted text is not the root's (someone edited
// it), the accepting verdict when it is, else the verdict. Two outcomes agree when their categories and accepted
// texts are the same: a reviewer who accepts another's edit agrees with that edit.
// The final verdict: the adjudicator's outcome when there is one; else the reviewers' common outcome once `required`
// reviewers have one (`pending` before); `disputed` when they differ; `unreviewed` without any. LLM critics
// (`llm:…`) pre-fill the rubric and never count: the latest critic's verdict is kept apart (`critic`), so the summary
// and the export can show it as the critic's.

export interface VersionRecord {
  id: number;
  text: string;
  author: string;
  at: string;
  /** The version an edit was made from; null for a generated version. */
  basedOn: number | null;
}

export interface VerdictRecord {
  id: number;
  annotator: string;
  verdict: string;
  rubric: Record<string, string>;
  reason: string | null;
  /** The version judged (for an edit: the version edited). */
  versionId: number;
  at: string;
}

export interface ReviewRules {
  /** The review's verdicts; the first accepts. */
  verdicts: readonly string[];
  adjudicator?: string;
  /** Reviewers whose outcomes make an item final (the review's overlap, else its annotators, else 1). */
  required: number;
}

export interface Outcome {
  verdict: VerdictRecord;
  /** The verdict it amounts to (see above). */
  category: string;
  /** The text accepted (accepting verdicts and edits). */
  text?: string;
}

/** The outcomes that leave an item undecided. */
export const openOutcomes = ['disputed', 'pending', 'unreviewed'] as const;

export interface ItemOutcome {
  /** The latest generated version: the item as the items file has it. */
  root: VersionRecord;
  /** The root and the versions made from it, oldest first. */
  round: VersionRecord[];
  /** Each reviewer's latest verdict on the round (not the adjudicator's, not a critic's), by name. */
  reviewers: Map<string, Outcome>;
  adjudication?: Outcome;
  /** The latest LLM critic's verdict on the round: shown as the critic's, never counted. */
  critic?: Outcome;
  /** A verdict name, or disputed / pending / unreviewed. */
  final: string;
  /** The accepted text when the final verdict accepts, else the root's. */
  finalText: string;
}

/** The version an `edit` verdict made (same reviewer, same time, made from the version it judged). */
export function versionMadeBy(verdict: VerdictRecord, versions: readonly VersionRecord[]): VersionRecord | undefined {
  if (verdict.verdict !== 'edit') return undefined;
  return versions.find((v) => v.basedOn === verdict.versionId && v.author === verdict.annotator && v.at === verdict.at);
}

/** The round of an item: its latest generated version and everything made from it. */
export function reviewRound(versions: readonly VersionRecord[]): { root: VersionRecord; round: VersionRecord[] } {
  const sorted = [...versions].sort((a, b) => a.id - b.id);
  const root = sorted.filter((v) => v.basedOn === null).at(-1) ?? sorted[0]!;
  const members = new Set([root.id]);
  const round = [root];
  for (const v of sorted) {
    if (v.id > root.id && v.basedOn !== null && members.has(v.basedOn)) {
      members.add(v.id);
      round.push(v);
    }
  }
  return { root, round };
}

export function itemOutcome(
  versions: readonly VersionRecord[],
  verdicts: readonly VerdictRecord[],
  rules: ReviewRules,
): ItemOutcome {
  const { root, round } = reviewRound(versions);
  const inRound = new Map(round.map((v) => [v.id, v]));
  const accepting = rules.verdicts[0];
  const outcomeOf = (verdict: VerdictRecord): Outcome => {
    let text: string | undefined;
    if (verdict.verdict === 'edit') {
      text = versionMadeBy(verdict, round)?.text;
    } else if (verdict.verdict === accepting) {
      text = inRound.get(verdict.versionId)!.text;
    }
    if (text === undefined) return { verdict, category: verdict.verdict };
    return { verdict, category: text === root.text ? accepting! : 'edit', text };
  };
  const latest = new Map<string, VerdictRecord>();
  for (const v of [...verdicts].sort((a, b) => a.id - b.id)) {
    if (inRound.has(v.versionId)) latest.set(v.annotator, v);
  }
  const reviewers = new Map<string, Outcome>();
  let adjudication: Outcome | undefined;
  let criticVerdict: VerdictRecord | undefined;
  for (const [annotator, verdict] of latest) {
    if (annotator.startsWith('llm:')) {
      if (criticVerdict === undefined || verdict.id > criticVerdict.id) criticVerdict = verdict;
      continue;
    }
    if (annotator === rules.adjudicator) adjudication = outcomeOf(verdict);
    else reviewers.set(annotator, outcomeOf(verdict));
  }
  const outcomes = [...reviewers.values()];
  const same = (a: Outcome, b: Outcome) => a.category === b.category && a.text === b.text;
  let decided: Outcome | undefined = adjudication;
  let final: string;
  if (adjudication) final = adjudication.category;
  else if (outcomes.length === 0) final = 'unreviewed';
  else if (!outcomes.every((o) => same(o, outcomes[0]!))) final = 'disputed';
  else if (outcomes.length < rules.required) final = 'pending';
  else {
    decided = outcomes[0]!;
    final = decided.category;
  }
  return {
    root,
    round,
    reviewers,
    ...(adjudication && { adjudication }),
    ...(criticVerdict && { critic: outcomeOf(criticVerdict) }),
    final,
    finalText: decided?.text ?? root.text,
  };
}
