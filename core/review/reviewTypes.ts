// What the Review view and its host say to each other (webview/protocol.ts's `review/*`): the session's view models
// and the summary. Types only (and the queue names): no store, no SQL, so the webview can import it.
import type { AgreementSummary } from '../agreement/agreementSummary.ts';
import type { TargetVerdict } from '../agreement/agreementTarget.ts';
import type { ReviewFinding } from './findings/finding.ts';
import type { DiffPart } from './textDiff.ts';

/**
 * Which items a session goes through: all; those still to review (no verdict of one's own on their current text and
 * not decided without it — for the adjudicator, the disputed ones not yet settled); the disputed ones.
 */
export type ReviewQueue = 'all' | 'todo' | 'disputed';
export const reviewQueues: readonly ReviewQueue[] = ['all', 'todo', 'disputed'];

export interface ReviewView {
  studyFile: string;
  review: string;
  title?: string;
  annotator: string;
  taxonomy: { code: string; label: string }[];
  rubric?: { levels: string[]; dimensions: { name: string; description?: string }[] };
  verdicts: string[];
  blind: boolean;
  adjudicator?: string;
  /** Reviewers per item for a final verdict. */
  required: number;
}

export interface ReviewVersionView {
  id: number;
  /** Numbered from 1 among the versions the reviewer sees (a blind reviewer's gaps would tell of others' edits). */
  number: number;
  text: string;
  author: string;
  at: string;
  /** The version an edit was made from. */
  basedOn?: number;
  /** A version of the item as the items file has it now (not an earlier generated text or its edits). */
  current: boolean;
  /** The automatic findings on this version's text (current versions only: a verdict may judge any of them). */
  findings?: ReviewFinding[];
}

export interface ReviewVerdictView {
  annotator: string;
  verdict: string;
  rubric: Record<string, string>;
  reason?: string;
  at: string;
  versionId: number;
  /** What the verdict amounts to (reviewOutcome.ts): `edit` for accepting an edited text. */
  category?: string;
}

export interface ReviewItemView {
  position: number;
  itemId: string;
  parent?: string;
  /** The parent query's text (the review's `queries`). */
  parentText?: string;
  type?: string;
  typeLabel?: string;
  model?: string;
  source?: string;
  /** The versions this reviewer may see, oldest first (in a blind review, others' edits only after one's verdict). */
  versions: ReviewVersionView[];
  /** The version under review by default: the latest of the current text's versions one may see (a verdict may judge
   * any version of the current text one sees: the adjudicator may accept one reviewer's edit over a later one). */
  reviewing: number;
  /** The version under review against the source (a rewrite) or against the generated text (once edited). */
  diff: DiffPart[];
  diffAgainst?: 'source' | 'original';
  /** The findings on the version under review (`reviewing`); each current version carries its own. */
  findings: ReviewFinding[];
  /** The item's table set by label (the review's `tables`), when it declares one. */
  tables?: { compliant: number; violating: number; offTopic: number };
  /** One's verdict on the current text. */
  mine?: ReviewVerdictView;
  /** One's latest verdict when it judged an earlier text of the item (the items file changed since). */
  earlier?: ReviewVerdictView;
  others: ReviewVerdictView[];
  /** Blind mode is hiding others' verdicts and edits of this item now. */
  hidden: boolean;
  /** What the verdicts decide so far (not while hidden): the final verdict, reviewers counted and required. */
  status?: { final: string; reviewers: number; required: number };
}

export interface ReviewState {
  review: ReviewView;
  queue: ReviewQueue;
  /** Items in the queue. */
  length: number;
  /** Items of the review with this reviewer's verdict on their current text. */
  reviewed: number;
  /** Items of the review. */
  items: number;
}

export interface ReviewCommit {
  position: number;
  itemId: string;
  /** The version under review when the verdict was given (the item's `reviewing`). */
  versionId: number;
  verdict: string;
  rubric?: Record<string, string>;
  reason?: string;
  /** The edited text (the `edit` verdict). */
  text?: string;
}

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
