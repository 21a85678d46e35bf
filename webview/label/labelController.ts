// The Label view's logic without React: it asks the host for the session, shows one pair at a time, commits a label
// and moves on only once the host has replied that the label is stored, and keeps the next pairs prefetched so the
// next one paints at once. Nothing here matters after a reload: the host owns the database and the cursor; what
// this holds is a cache of the host's answers (pairs by queue position) and the answers being typed (toggles, note).
// React subscribes with useSyncExternalStore (subscribe/snapshot).
//
// Replies come back while keys keep arriving, so every answer is checked against what the view is doing now before
// it is used: a session (re)load starts a new epoch (answers for the previous session are dropped, whatever they
// were), only the latest navigation paints (an earlier fetch may resolve after a later cache hit), a neighbouring
// chunk is shown only while its pair is, and `busy` is owned by the action that set it (commit, undo, reorder,
// load), never cleared by an unrelated failure.
//
// A label decision has one commit id (a UUID made here) until the host confirms it. When the study's record cannot
// take the commit now (the PostgreSQL server is gone, SQLite is busy: the reply's `retry`), the view stays on the
// pair with the choice shown, says it cannot save (`unsaved`, until it can), refuses to move on, and sends the same
// commit — same id, so it is stored once even if an earlier attempt was committed without its reply — again with
// backoff until the host confirms it; then it says saved and goes on as after any commit. Any other failure is shown
// as it is and not retried.
import type { AspectAnswer } from '../../core/dsl/evaluateDerive.ts';
import type { CommitLabel, DocumentView, PairView, QueueSettings, SessionState } from '../../core/labelling/types.ts';
import type { HostMessenger } from '../common/hostMessenger.ts';
import type { ReplyValue, RequestKind, RequestParams, RetryReason } from '../protocol.ts';
import type { KeyAction } from './keyMap.ts';

/** Pairs fetched ahead of the one shown. */
const prefetchAhead = 3;

/** Milliseconds before attempt `attempt + 1` of a commit that failed `attempt` times: 0.25 s doubling up to 4 s. */
export function commitRetryDelay(attempt: number): number {
  return Math.min(250 * 2 ** Math.max(0, attempt - 1), 4000);
}

/** A random (version 4) UUID: crypto.randomUUID where the page has it (secure contexts), else built the same way. */
export function newCommitId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Milliseconds a commit may go unanswered before the view says it is not saved yet (a network cut: no reply). */
export const unansweredAfter = 2000;

/**
 * A label decision the host has not confirmed: the record could not take it (being sent again), or the host has not
 * answered for a while (`no-answer`: the attempt is still on its way, nothing is sent again while it is).
 */
export interface UnsavedCommit {
  pairId: number;
  label: number;
  /** The decision's commit id: every attempt sends this one. */
  commitId: string;
  reason: RetryReason | 'no-answer';
  /** What the host said on the last attempt ('' before any answer). */
  message: string;
  /** Attempts that failed so far. */
  attempts: number;
}

export interface LabelControllerOptions {
  /** Milliseconds to wait after the `attempt`-th failed attempt of a commit (default commitRetryDelay). */
  retryDelay?(attempt: number): number;
  /** Milliseconds without an answer to a commit before the view says it is not saved yet (default unansweredAfter). */
  unansweredAfter?: number;
}

export interface Draft {
  /** Aspect answers as ticked (unticked aspects are false); a graded aspect's level (unset: its lowest level). */
  aspects: Record<string, AspectAnswer>;
  /** Condition answers, index 0 = condition 1. */
  conditions: boolean[];
  note: string;
  /** A label the adjudicator chose before writing the reason it needs (stored once the reason is written). */
  pendingLabel?: number;
}

export interface LabelSnapshot {
  state?: SessionState;
  /** The pair on screen; null when the queue is empty or the position is past its end. */
  pair?: PairView | null;
  position: number;
  draft: Draft;
  /** A neighbouring chunk shown in place of the pair's document (the label still applies to the pair). */
  neighbour?: DocumentView;
  /** A commit or undo is on its way to the host: keys that label are ignored until it is stored. */
  busy: boolean;
  /**
   * The label chosen for the pair on screen that the record could not store yet (unreachable, busy): retried until
   * stored; meanwhile the view stays on the pair (busy) and its answers are not edited.
   */
  unsaved?: UnsavedCommit;
  /**
   * The pair the view is going to (the next one after a label, say) could not be read: the record is unreachable or
   * busy. Asked again with backoff until it answers or the annotator goes elsewhere; the pair before stays on screen.
   */
  unloaded?: { reason: RetryReason; message: string; attempts: number };
  /** The last error the host sent back (shown until the next successful action). */
  error?: string;
  /** A short confirmation ("Saved 2 · Relevant"). */
  status?: string;
  guidelines?: { path: string; markdown: string } | null;
  /** Why the guidelines could not be shown (the file is missing, unreadable). */
  guidelinesError?: string;
  showHelp: boolean;
}

function emptyDraft(pair: PairView | null | undefined): Draft {
  const mine = pair?.mine;
  return {
    aspects: { ...(mine?.aspects ?? {}) },
    conditions: pair ? pair.query.conditions.map((_, i) => mine?.conditions[i] ?? false) : [],
    note: mine?.note ?? '',
  };
}

export class LabelController {
  readonly #messenger: HostMessenger;
  #snapshot: LabelSnapshot = { position: 0, draft: emptyDraft(undefined), busy: false, showHelp: false };
  readonly #listeners = new Set<() => void>();
  /** Host answers by queue position, for the current queue version. */
  #cache = new Map<number, Promise<PairView | null>>();
  /** Bumped by every session (re)load: what was asked before it belongs to a session no longer shown. */
  #epoch = 0;
  /** Bumped by every navigation: only the latest one paints. */
  #navigation = 0;
  /** Where the latest navigation is going (moves step from there, not from the pair painted so far). */
  #target = 0;
  readonly #retryDelay: (attempt: number) => number;
  readonly #unansweredAfter: number;

  constructor(messenger: HostMessenger, options: LabelControllerOptions = {}) {
    this.#messenger = messenger;
    this.#retryDelay = options.retryDelay ?? commitRetryDelay;
    this.#unansweredAfter = options.unansweredAfter ?? unansweredAfter;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  snapshot = (): LabelSnapshot => this.#snapshot;

  #update(patch: Partial<LabelSnapshot>): void {
    this.#snapshot = { ...this.#snapshot, ...patch };
    for (const listener of this.#listeners) listener();
  }

  /** A request whose failure is shown (unless the session changed meanwhile); undefined then. */
  async #request<K extends RequestKind>(kind: K, params: RequestParams<K>): Promise<ReplyValue<K> | undefined> {
    const epoch = this.#epoch;
    const reply = await this.#messenger.request(kind, params);
    if (reply.ok) return reply.value;
    if (epoch === this.#epoch) this.#update({ error: reply.error.message });
    return undefined;
  }

  /** Calls `perform` for every action a VS Code keybinding sends (the workbench owns those keys, hostKeys.ts). */
  onKeyAction(perform: (action: KeyAction) => void): () => void {
    return this.#messenger.on('label/keyAction', ({ action }) => perform(action));
  }

  /** Subscribes to the host's events, says ready, and loads the session. */
  start(): () => void {
    const unsubscribe = this.#messenger.on('label/reset', ({ state }) => void this.#load(state));
    const unsubscribeRefresh = this.#messenger.on('label/refresh', () => void this.#refresh());
    this.#messenger.ready();
    void this.reload();
    return () => {
      unsubscribe();
      unsubscribeRefresh();
    };
  }

  /**
   * The pairs changed elsewhere (an LLM judge wrote suggestions): drop the cached answers and show the current pair
   * again as the host now has it, keeping what is being typed for it.
   */
  async #refresh(): Promise<void> {
    const { state, pair, busy } = this.#snapshot;
    if (!state || busy) return;
    this.#cache = new Map();
    const navigation = this.#navigation;
    const epoch = this.#epoch;
    let fresh: PairView | null;
    try {
      fresh = await this.#fetch(this.#snapshot.position);
    } catch {
      return; // the next move fetches again
    }
    if (navigation !== this.#navigation || epoch !== this.#epoch || this.#snapshot.busy) return;
    const samePair = fresh !== null && pair?.pairId === fresh.pairId;
    this.#update({ pair: fresh, ...(samePair ? {} : { draft: emptyDraft(fresh) }) });
    this.#prefetch(this.#snapshot.position);
  }

  async reload(): Promise<void> {
    const state = await this.#request('label/session', {});
    if (state) await this.#load(state);
  }

  /** Starts over with `state`: labelling keys wait until its first pair is on screen. */
  async #load(state: SessionState): Promise<void> {
    const epoch = ++this.#epoch;
    this.#cache = new Map();
    // A commit still being retried belongs to the old session (its queue): it stops, never shown as saved.
    this.#update({
      state,
      error: undefined,
      busy: true,
      neighbour: undefined,
      unsaved: undefined,
      unloaded: undefined,
    });
    await this.#show(state.position, true);
    if (epoch === this.#epoch) this.#update({ busy: false });
  }

  #fetch(position: number): Promise<PairView | null> {
    const state = this.#snapshot.state;
    if (!state || position < 0 || position >= state.queue.length) return Promise.resolve(null);
    const cache = this.#cache;
    let pending = cache.get(position);
    if (!pending) {
      pending = this.#messenger
        .request('label/pairAt', { position, queueVersion: state.queue.version, current: false })
        .then((reply) => {
          if (reply.ok) return reply.value;
          // From the cache it was put in: a reload meanwhile has a cache of its own.
          cache.delete(position);
          throw Object.assign(new Error(reply.error.message), { retry: reply.error.retry });
        });
      cache.set(position, pending);
    }
    return pending;
  }

  #prefetch(position: number): void {
    for (let p = position + 1; p <= position + prefetchAhead; p++) this.#fetch(p).catch(() => undefined);
  }

  /** Shows the pair at `position`; `recordCursor` tells the host this is where the annotator now is. */
  async #show(position: number, recordCursor: boolean): Promise<void> {
    const state = this.#snapshot.state;
    if (!state) return;
    const clamped = Math.max(0, Math.min(position, state.queue.length));
    const navigation = ++this.#navigation;
    const epoch = this.#epoch;
    this.#target = clamped;
    const superseded = () => navigation !== this.#navigation || epoch !== this.#epoch;
    let pair: PairView | null;
    for (let attempts = 1; ; attempts++) {
      try {
        pair = await this.#fetch(clamped);
        break;
      } catch (error) {
        if (superseded()) return;
        const { message, retry } = error as Error & { retry?: RetryReason };
        if (retry === undefined) {
          this.#target = this.#snapshot.position;
          this.#update({ error: message, unloaded: undefined });
          return;
        }
        // The record could not answer: the pair before stays, and the view asks again until it can (a label just
        // confirmed is saved: this is only about showing the next pair).
        this.#update({ unloaded: { reason: retry, message, attempts } });
        await new Promise((resolve) => setTimeout(resolve, this.#retryDelay(attempts)));
        if (superseded()) return;
      }
    }
    if (superseded()) return;
    this.#update({ pair, position: clamped, draft: emptyDraft(pair), neighbour: undefined, unloaded: undefined });
    if (recordCursor && pair) {
      // The reply is the same pair; only the cursor write matters. A failure is shown, the view stays usable.
      void this.#request('label/pairAt', { position: clamped, queueVersion: state.queue.version, current: true });
    }
    this.#prefetch(clamped);
  }

  move(delta: number): void {
    const { state, busy } = this.#snapshot;
    if (!state || busy) return;
    const target = Math.max(0, Math.min(this.#target + delta, state.queue.length));
    // Already there (k on the first pair): nothing to fetch, and the answers being typed stay.
    if (target === this.#target && this.#snapshot.position === target && this.#snapshot.pair?.position === target) {
      return;
    }
    void this.#show(target, true);
  }

  /** The study's adjudicator labels in this view: every label they store needs a reason (the note). */
  adjudicating(): boolean {
    const state = this.#snapshot.state;
    return state !== undefined && state.study.adjudicator === state.study.annotator;
  }

  /**
   * A label chosen by key or button: committed — or, for the adjudicator with no reason written yet, held until the
   * reason is (true: the view should put the caret in the reason box).
   */
  choose(label: number): boolean {
    const { draft, pair } = this.#snapshot;
    if (this.adjudicating() && pair && draft.note.trim() === '') {
      this.#update({
        draft: { ...draft, pendingLabel: label },
        error: `An adjudicated label needs a reason: write it, then press Ctrl+Enter to store ${label}.`,
      });
      return true;
    }
    void this.commit(label);
    return false;
  }

  /** Commits `label` for the pair on screen, then shows the next pair once the host has stored it. */
  async commit(label: number): Promise<void> {
    const { state, pair, draft, busy } = this.#snapshot;
    if (!state || !pair || busy) return;
    const epoch = this.#epoch;
    this.#update({ busy: true, error: undefined });
    const visible = pair.suggestions.find((s) => s.label !== null);
    const commit: CommitLabel & { queueVersion: number } = {
      // The queue the pair on screen came from (the state may already describe a newer one).
      queueVersion: pair.queueVersion,
      position: pair.position,
      pairId: pair.pairId,
      label,
      ...(draft.note.trim() !== '' && { note: draft.note.trim() }),
      ...(pair.query.conditions.length > 0 && { conditions: draft.conditions }),
      ...(state.study.aspects.length > 0 && {
        aspects: Object.fromEntries(
          state.study.aspects.map((a) => [a.name, draft.aspects[a.name] ?? (a.levels ? a.levels[0]! : false)]),
        ),
      }),
      ...(!pair.hidden && visible?.label != null && { shownLabel: visible.label }),
      // One id for this decision, kept until the host confirms it: every attempt below sends the same one.
      commitId: newCommitId(),
    };
    const commitId = commit.commitId!;
    const send = async () => {
      // No answer for a while (the connection hangs: a network cut): said at once, never as saved; the attempt is
      // still on its way, so nothing is sent again until it is answered.
      const timer = setTimeout(() => {
        if (epoch === this.#epoch && this.#snapshot.unsaved === undefined) {
          this.#update({
            unsaved: { pairId: pair.pairId, label, commitId, reason: 'no-answer', message: '', attempts: 0 },
          });
        }
      }, this.#unansweredAfter);
      try {
        return await this.#messenger.request('label/commit', commit);
      } finally {
        clearTimeout(timer);
      }
    };
    let reply = await send();
    for (let attempts = 1; ; attempts++) {
      // A new session is on screen (reset): it has its own state and nothing of this one is shown any more.
      if (epoch !== this.#epoch) return;
      if (reply.ok) break;
      const { message, retry } = reply.error;
      if (retry === undefined) {
        // Wrong in itself (a refusal the annotator must act on): said as it is, not sent again, never as saved. (After
        // an attempt lost while its COMMIT was on its way the label may be stored all the same: the pair shows it as
        // the annotator's label once it is read again.)
        this.#update({ busy: false, unsaved: undefined, error: message });
        return;
      }
      // Not stored (or not known to be): stay on the pair, say so until it is, and send the same commit again.
      this.#update({
        unsaved: { pairId: pair.pairId, label, commitId, reason: retry, message, attempts },
        error: undefined,
      });
      await new Promise((resolve) => setTimeout(resolve, this.#retryDelay(attempts)));
      if (epoch !== this.#epoch) return;
      reply = await send();
    }
    this.#update({ unsaved: undefined });
    const stored = reply.value;
    const name = state.study.scale.find((s) => s.value === label)?.label ?? '';
    this.#update({
      state: { ...(this.#snapshot.state ?? state), progress: stored.progress },
      status: `Saved ${label}${name ? ` · ${name}` : ''} for ${pair.query.qid} / ${pair.document?.docid ?? '?'}`,
    });
    if (pair.position >= 0) {
      this.#cache.set(pair.position, Promise.resolve(stored.pair));
      // The host moved the cursor with the commit: no cursor write for this step.
      await this.#show(pair.position + 1, false);
    } else {
      // A pair the queue does not hold (undone after a reorder): back to where the annotator is in the queue.
      await this.#show(this.#snapshot.position, false);
    }
    if (epoch === this.#epoch) this.#update({ busy: false });
  }

  async undo(): Promise<void> {
    const { state, busy } = this.#snapshot;
    if (!state || busy) return;
    const epoch = this.#epoch;
    this.#update({ busy: true, error: undefined });
    const undone = await this.#messenger.request('label/undo', { queueVersion: state.queue.version });
    if (epoch !== this.#epoch) return;
    if (!undone.ok) {
      this.#update({ busy: false, error: undone.error.message });
      return;
    }
    if (undone.value === null) {
      this.#update({ busy: false, status: 'Nothing to undo in this session' });
      return;
    }
    const { pair, progress } = undone.value;
    this.#update({
      state: { ...(this.#snapshot.state ?? state), progress },
      status: `Undone: ${pair.query.qid} / ${pair.document?.docid ?? '?'}`,
    });
    if (pair.position >= 0) {
      this.#cache.set(pair.position, Promise.resolve(pair));
      await this.#show(pair.position, true);
    } else {
      // Not in this queue (it was reordered since): show it anyway, so the annotator sees what was undone (and can
      // label it again); a navigation still on its way must not replace it.
      this.#navigation++;
      this.#target = this.#snapshot.position;
      this.#update({ pair, draft: emptyDraft(pair), neighbour: undefined });
    }
    if (epoch === this.#epoch) this.#update({ busy: false });
  }

  /** Reorders or filters the queue; labelling keys wait for the new queue (a label meanwhile would be refused). */
  async setQueue(settings: QueueSettings): Promise<void> {
    if (!this.#snapshot.state || this.#snapshot.busy) return;
    const epoch = this.#epoch;
    this.#update({ busy: true, error: undefined });
    const reply = await this.#messenger.request('label/setQueue', settings);
    if (epoch !== this.#epoch) return;
    if (!reply.ok) {
      this.#update({ busy: false, error: reply.error.message });
      return;
    }
    await this.#load(reply.value);
  }

  async neighbour(docid: string): Promise<void> {
    const { pair } = this.#snapshot;
    if (!pair) return;
    const epoch = this.#epoch;
    const document = await this.#request('label/document', { docid });
    // The annotator has moved on: the chunk was a neighbour of another pair's document.
    if (epoch !== this.#epoch || this.#snapshot.pair?.pairId !== pair.pairId) return;
    if (document === undefined) return;
    if (document === null) {
      this.#update({ error: `the corpus has no document '${docid}'` });
      return;
    }
    // Shown in place of the pair's document until the pair changes; the label still applies to the pair.
    this.#update({ neighbour: document.docid === pair.document?.docid ? undefined : document });
  }

  /** A yes/no aspect flips; a graded aspect goes to its next level, after the highest back to the lowest. */
  toggleAspect(name: string): void {
    const { draft } = this.#snapshot;
    if (this.#snapshot.unsaved) return;
    const levels = this.#snapshot.state?.study.aspects.find((a) => a.name === name)?.levels;
    if (levels && levels.length > 0) {
      const current = draft.aspects[name];
      const at = typeof current === 'number' ? levels.indexOf(current) : 0;
      this.setAspectLevel(name, levels[(at + 1) % levels.length]!);
      return;
    }
    this.#update({ draft: { ...draft, aspects: { ...draft.aspects, [name]: !draft.aspects[name] } } });
  }

  /** A graded aspect's level, as clicked. */
  setAspectLevel(name: string, level: number): void {
    const { draft } = this.#snapshot;
    if (this.#snapshot.unsaved) return; // the answers being retried are the ones shown
    this.#update({ draft: { ...draft, aspects: { ...draft.aspects, [name]: level } } });
  }

  toggleCondition(index: number): void {
    const { draft } = this.#snapshot;
    if (this.#snapshot.unsaved) return;
    if (index < 0 || index >= draft.conditions.length) return;
    const conditions = draft.conditions.slice();
    conditions[index] = !conditions[index];
    this.#update({ draft: { ...draft, conditions } });
  }

  /** Toggle number `n` (1-based) of the key map: the study's aspects first, then the query's conditions. */
  toggle(n: number): void {
    const aspects = this.#snapshot.state?.study.aspects ?? [];
    if (n <= aspects.length) this.toggleAspect(aspects[n - 1]!.name);
    else this.toggleCondition(n - aspects.length - 1);
  }

  setNote(note: string): void {
    if (this.#snapshot.unsaved) return;
    this.#update({ draft: { ...this.#snapshot.draft, note } });
  }

  async toggleHelp(): Promise<void> {
    const showHelp = !this.#snapshot.showHelp;
    this.#update({ showHelp });
    if (showHelp && this.#snapshot.guidelines === undefined && this.#snapshot.state?.study.guidelines) {
      const reply = await this.#messenger.request('label/guidelines', {});
      // A failure is said in the overlay itself (and asked again next time), not left as "Loading…".
      this.#update(reply.ok ? { guidelines: reply.value } : { guidelinesError: reply.error.message });
    }
  }

  closeHelp(): void {
    if (this.#snapshot.showHelp) this.#update({ showHelp: false });
  }
}
