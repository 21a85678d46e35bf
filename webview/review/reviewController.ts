// The Review view's logic without React: the review's state, the item on screen, the rubric and verdict being
// given (a verdict other than the first needs a reason; an edit needs the edited text), and the move to the next item
// once the host has stored the verdict.
import type { ReviewItemView, ReviewQueue, ReviewState, ReviewSummary } from '../../core/review/reviewTypes.ts';
import type { HostMessenger } from '../common/hostMessenger.ts';

export interface ReviewDraft {
  rubric: Record<string, string>;
  /** The rubric dimension the keys 1 … 9 rate. */
  dimension: number;
  reason: string;
  /** The edited text, while editing. */
  editing?: string;
  /** A verdict chosen before its reason was written. */
  pending?: string;
}

export interface ReviewSnapshot {
  state?: ReviewState;
  item?: ReviewItemView | null;
  position: number;
  draft: ReviewDraft;
  busy: boolean;
  error?: string;
  status?: string;
  summary?: ReviewSummary;
  /** The version the diff compares the one judged with (undefined: the source, else the generated text). */
  compareWith?: number;
  /**
   * The version the verdict judges, when not the one the host put under review: any current version one sees (the
   * adjudicator of two different edits may accept the earlier one).
   */
  judging?: number;
}

type ReviewRubric = NonNullable<ReviewState['review']['rubric']>;

/**
 * The answers a new item starts with: one's own verdict's rubric, else an LLM critic's (pre-filled, to confirm or
 * change; in a blind review the critic is not sent before one's own verdict, so nothing is pre-filled then) — only
 * the dimensions and levels the review declares now, since the host refuses any other.
 */
function draftOf(item: ReviewItemView | null | undefined, rubric: ReviewRubric | undefined): ReviewDraft {
  const critic = item?.others.find((o) => o.annotator.startsWith('llm:'));
  const given = item?.mine?.rubric ?? critic?.rubric ?? {};
  const declared = new Set(rubric?.dimensions.map((d) => d.name));
  const kept = Object.entries(given).filter(([name, level]) => declared.has(name) && rubric!.levels.includes(level));
  return { rubric: Object.fromEntries(kept), dimension: 0, reason: '' };
}

/** The version the verdict judges: the one picked, else the host's. */
export function judgedVersion(item: ReviewItemView, judging: number | undefined): ReviewItemView['versions'][number] {
  const picked = item.versions.find((v) => v.id === judging && v.current);
  return picked ?? item.versions.find((v) => v.id === item.reviewing)!;
}

export class ReviewController {
  readonly #messenger: HostMessenger;
  #snapshot: ReviewSnapshot = { position: 0, draft: draftOf(undefined, undefined), busy: false };
  readonly #listeners = new Set<() => void>();
  #navigation = 0;
  /** The position last asked for: keys pressed faster than the host answers move from there, not from the screen. */
  #target = 0;

  constructor(messenger: HostMessenger) {
    this.#messenger = messenger;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  snapshot = (): ReviewSnapshot => this.#snapshot;

  #update(patch: Partial<ReviewSnapshot>): void {
    this.#snapshot = { ...this.#snapshot, ...patch };
    for (const listener of this.#listeners) listener();
  }

  start(): void {
    this.#messenger.ready();
    void this.#load();
  }

  async #load(): Promise<void> {
    const reply = await this.#messenger.request('review/state', {});
    if (!reply.ok) {
      this.#update({ error: reply.error.message });
      return;
    }
    this.#update({ state: reply.value });
    await this.show(0);
  }

  async show(position: number): Promise<void> {
    const state = this.#snapshot.state;
    if (!state) return;
    const target = Math.max(0, Math.min(position, state.length));
    this.#target = target;
    const navigation = ++this.#navigation;
    const reply = await this.#messenger.request('review/itemAt', { position: target });
    if (navigation !== this.#navigation) return;
    if (!reply.ok) {
      this.#target = this.#snapshot.position;
      this.#update({ error: reply.error.message });
      return;
    }
    this.#update({
      item: reply.value,
      position: target,
      draft: draftOf(reply.value, this.#snapshot.state?.review.rubric),
      error: undefined,
      compareWith: undefined,
      judging: undefined,
    });
    if (reply.value === null) void this.loadSummary();
  }

  /** The review's summary (shown at the end of the items). */
  async loadSummary(): Promise<void> {
    const reply = await this.#messenger.request('review/summary', {});
    this.#update(reply.ok ? { summary: reply.value } : { error: reply.error.message });
  }

  /** Picks the queue: every item, one's items still to review, or the disputed ones; then its first item. */
  async setQueue(queue: ReviewQueue): Promise<void> {
    if (this.#snapshot.busy) return;
    const reply = await this.#messenger.request('review/queue', { queue });
    if (!reply.ok) {
      this.#update({ error: reply.error.message });
      return;
    }
    this.#update({ state: reply.value, summary: undefined });
    await this.show(0);
  }

  /** The version the diff compares the one judged with (undefined: the source, else the generated text). */
  compareWith(against: number | undefined): void {
    this.#update({ compareWith: against });
  }

  /** Picks the current version the verdict judges (and an edit starts from); an edit under way is dropped. */
  judge(versionId: number): void {
    const { item, draft } = this.#snapshot;
    if (!item?.versions.some((v) => v.id === versionId && v.current)) return;
    this.#update({
      judging: versionId === item.reviewing ? undefined : versionId,
      compareWith: undefined,
      draft: { ...draft, editing: undefined, pending: draft.pending === 'edit' ? undefined : draft.pending },
    });
  }

  move(delta: number): void {
    if (!this.#snapshot.busy) void this.show(this.#target + delta);
  }

  #draft(patch: Partial<ReviewDraft>): void {
    this.#update({ draft: { ...this.#snapshot.draft, ...patch } });
  }

  rate(level: string, dimension = this.#snapshot.draft.dimension): void {
    const name = this.#snapshot.state?.review.rubric?.dimensions[dimension]?.name;
    if (name === undefined) return;
    this.#draft({ rubric: { ...this.#snapshot.draft.rubric, [name]: level }, dimension });
  }

  selectDimension(delta: number): void {
    const count = this.#snapshot.state?.review.rubric?.dimensions.length ?? 0;
    if (count === 0) return;
    this.#draft({ dimension: (this.#snapshot.draft.dimension + delta + count) % count });
  }

  setReason(reason: string): void {
    this.#draft({ reason });
  }

  startEdit(): void {
    const { item, judging } = this.#snapshot;
    if (item) this.#draft({ editing: judgedVersion(item, judging).text, pending: 'edit' });
  }

  setEdited(text: string): void {
    this.#draft({ editing: text });
  }

  cancelEdit(): void {
    this.#draft({ editing: undefined, pending: undefined });
  }

  /**
   * A verdict chosen: stored (then the next item) — or held when it needs a reason not written yet (true: the view
   * should put the caret in the reason box).
   */
  choose(verdict: string): boolean {
    const { state, item, draft, busy } = this.#snapshot;
    if (!state || !item || busy) return false;
    if (verdict === 'edit' && draft.editing === undefined) {
      this.startEdit();
      return false;
    }
    if (verdict !== state.review.verdicts[0] && draft.reason.trim() === '') {
      this.#update({
        draft: { ...draft, pending: verdict },
        error: `The verdict '${verdict}' needs a reason: write it, then press Ctrl+Enter.`,
      });
      return true;
    }
    void this.#commit(verdict);
    return false;
  }

  async #commit(verdict: string): Promise<void> {
    const { item, draft, judging } = this.#snapshot;
    if (!item) return;
    this.#update({ busy: true, error: undefined });
    const reply = await this.#messenger.request('review/commit', {
      position: item.position,
      itemId: item.itemId,
      versionId: judgedVersion(item, judging).id,
      verdict,
      rubric: draft.rubric,
      ...(draft.reason.trim() !== '' && { reason: draft.reason.trim() }),
      ...(verdict === 'edit' && draft.editing !== undefined && { text: draft.editing }),
    });
    if (!reply.ok) {
      this.#update({ busy: false, error: reply.error.message });
      return;
    }
    this.#update({
      busy: false,
      state: reply.value.state,
      status: `Stored '${verdict}' for ${item.itemId}${verdict === 'edit' ? ` (version ${reply.value.item.versions.at(-1)!.number})` : ''}`,
    });
    await this.show(item.position + 1);
  }
}
