// A PostgreSQL store that follows its connection settings: when a user edits the store's `qrelsStudio.stores` entry
// or its password, whoever holds the store (the Studies view, an open Label view, the status bar) keeps the same
// object, and the next call goes over a connection made with the new settings. The extension wraps each PostgreSQL
// store it opens in one (extension/studies/postgresStore.ts); `changedStoreNames` says which stores an edit of the
// setting touches.
import type { StoreChange, StudyStore } from '../studyStore.ts';
import type { StoreSettings, StoresSettings } from './connectionConfig.ts';

/** An entry as comparable text: its fields in a fixed order, so that reordering keys is no change. */
function entryText(entry: StoreSettings | undefined): string {
  if (entry === undefined || entry === null || typeof entry !== 'object') return JSON.stringify(entry ?? null);
  const record = entry as Record<string, unknown>;
  return JSON.stringify(
    Object.keys(record)
      .sort()
      .map((key) => [key, record[key]]),
  );
}

/**
 * The store names whose entry differs between two values of the stores setting — added, removed or changed in any
 * field — sorted; a store whose entry is the same in both (however its keys are ordered) is not one of them.
 */
export function changedStoreNames(before: StoresSettings | undefined, after: StoresSettings | undefined): string[] {
  const names = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  return [...names].filter((name) => entryText(before?.[name]) !== entryText(after?.[name])).sort();
}

type Area = 'studies' | 'imports' | 'labels' | 'judge' | 'judgeBatches' | 'reviews' | 'agreement' | 'exports';

/**
 * A StudyStore that opens its PostgreSQL store with `open` and can be told to connect again (`reconnect`): the old
 * store is closed, the new one opened at once, and every call made meanwhile waits for it. When the new one cannot
 * be opened (a wrong password, a host that does not answer), calls reject with why, and the next call tries again.
 * Listeners stay subscribed across a reconnection, and hear one `external` change when it is done (the record may
 * be another one now).
 */
export class ReconnectingStore implements StudyStore {
  readonly studies: StudyStore['studies'];
  readonly imports: StudyStore['imports'];
  readonly labels: StudyStore['labels'];
  readonly judge: StudyStore['judge'];
  readonly judgeBatches: StudyStore['judgeBatches'];
  readonly reviews: StudyStore['reviews'];
  readonly agreement: StudyStore['agreement'];
  readonly exports: StudyStore['exports'];
  private current: StudyStore | undefined;
  private opening: Promise<StudyStore> | undefined;
  private stopForwarding: (() => void) | undefined;
  private readonly listeners = new Set<(change: StoreChange) => void>();
  private closed = false;
  private lastLocation: string;

  private readonly open: () => Promise<StudyStore>;

  private constructor(open: () => Promise<StudyStore>, first: StudyStore) {
    this.open = open;
    this.current = first;
    this.lastLocation = first.location;
    this.studies = this.forward('studies');
    this.imports = this.forward('imports');
    this.labels = this.forward('labels');
    this.judge = this.forward('judge');
    this.judgeBatches = this.forward('judgeBatches');
    this.reviews = this.forward('reviews');
    this.agreement = this.forward('agreement');
    this.exports = this.forward('exports');
  }

  /** Opens the store with `open` (rejecting as it does), ready to reconnect with it later. */
  static async open(open: () => Promise<StudyStore>): Promise<ReconnectingStore> {
    return new ReconnectingStore(open, await open());
  }

  get location(): string {
    return this.current?.location ?? this.lastLocation;
  }

  /** Closes the store and opens it again with `open` (the new settings); calls made meanwhile wait for it. */
  reconnect(): Promise<void> {
    if (this.closed) return Promise.resolve();
    const old = this.current;
    this.current = undefined;
    this.stopForwarding?.();
    this.stopForwarding = undefined;
    const opening = (async () => {
      await old?.close().catch(() => {});
      return this.open();
    })();
    this.opening = opening;
    return this.settle(opening).then(
      () => {},
      () => {},
    );
  }

  onChange(listener: (change: StoreChange) => void): () => void {
    this.listeners.add(listener);
    this.forwardChanges();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) {
        this.stopForwarding?.();
        this.stopForwarding = undefined;
      }
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    this.stopForwarding?.();
    this.stopForwarding = undefined;
    const store = this.current ?? (await this.opening?.catch(() => undefined));
    this.current = undefined;
    this.opening = undefined;
    await store?.close();
  }

  /** The open store, or the one being opened (again, after a failed attempt). */
  private ready(): Promise<StudyStore> {
    if (this.closed) return Promise.reject(new Error(`the store ${this.location} is closed`));
    if (this.current !== undefined) return Promise.resolve(this.current);
    this.opening ??= this.open();
    return this.settle(this.opening);
  }

  /** Takes the store `opening` gives as the current one (unless a later reconnection replaced it). */
  private async settle(opening: Promise<StudyStore>): Promise<StudyStore> {
    let store: StudyStore;
    try {
      store = await opening;
    } catch (error) {
      if (this.opening === opening) this.opening = undefined;
      throw error;
    }
    if (this.opening !== opening) return store;
    this.opening = undefined;
    if (this.closed) {
      await store.close();
      throw new Error(`the store ${this.location} is closed`);
    }
    this.current = store;
    this.lastLocation = store.location;
    this.forwardChanges();
    for (const listener of [...this.listeners]) listener({ what: 'external' });
    return store;
  }

  private forwardChanges(): void {
    if (this.stopForwarding !== undefined || this.current === undefined || this.listeners.size === 0) return;
    this.stopForwarding = this.current.onChange((change) => {
      for (const listener of [...this.listeners]) listener(change);
    });
  }

  /** An area whose every method runs on the current store (waiting for it while it reconnects). */
  private forward<K extends Area>(area: K): StudyStore[K] {
    return new Proxy({} as StudyStore[K], {
      get: (_target, method) => {
        // Not a thenable: `await store.labels` is the area itself.
        if (method === 'then' || typeof method === 'symbol') return undefined;
        return (...args: unknown[]) => {
          const call = (store: StudyStore) => {
            const target = store[area] as unknown as Record<string | symbol, (...a: unknown[]) => unknown>;
            return target[method]!.apply(target, args);
          };
          return this.current !== undefined ? call(this.current) : this.ready().then(call);
        };
      },
    });
  }
}
