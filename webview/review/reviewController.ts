// The Review view's logic without React: the review's state, the item on screen, the rubric and verdict being
// given (a verdict other than the first needs a reason; an edit needs the edited text), and the move to the next item
// once the host has stored the verdict.
import type { ReviewItemView, ReviewQueue, ReviewState } from '../../core/review/reviewSession.ts';
import type { ReviewSummary } from '../../core/review/reviewSummary.ts';
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
  /** What the diff compares the version under review with: the host's choice, the source, or another version. */
  compareWith?: 'source' | number;
}

/**
 * The answers a new item starts with: one's own verdict's rubric, else an LLM critic's (pre-filled, to confirm or
 * change; in a blind review the critic is not sent before one's own verdict, so nothing is pre-filled then).
 */
function draftOf(item: ReviewItemView | null | undefined): ReviewDraft {
  const critic = item?.others.find((o) => o.annotator.startsWith('llm:'));
  return { rubric: { ...(item?.mine?.rubric ?? critic?.rubric ?? {}) }, dimension: 0, reason: '' };
}

export class ReviewController {
  readonly #messenger: HostMessenger;
  #snapshot: ReviewSnapshot = { position: 0, draft: draftOf(undefined), busy: false };
  readonly #listeners = new Set<() => void>();
  #navigation = 0;

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
    const navigation = ++this.#navigation;
    const reply = await this.#messenger.request('review/itemAt', { position: target });
    if (navigation !== this.#navigation) return;
    if (!reply.ok) {
      this.#update({ error: reply.error.message });
      return;
    }
    this.#update({
      item: reply.value,
      position: target,
      draft: draftOf(reply.value),
      error: undefined,
      compareWith: undefined,
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

  /** What the diff compares the version under review with (undefined: the host's choice). */
  compareWith(against: 'source' | number | undefined): void {
    this.#update({ compareWith: against });
  }

  move(delta: number): void {
    if (!this.#snapshot.busy) void this.show(this.#snapshot.position + delta);
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
    const item = this.#snapshot.item;
    const reviewing = item?.versions.find((v) => v.id === item.reviewing);
    if (reviewing) this.#draft({ editing: reviewing.text, pending: 'edit' });
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
    const { item, draft } = this.#snapshot;
    if (!item) return;
    this.#update({ busy: true, error: undefined });
    const reply = await this.#messenger.request('review/commit', {
      position: item.position,
      itemId: item.itemId,
      versionId: item.reviewing,
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
