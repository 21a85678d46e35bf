// The webview's end of the protocol (webview/protocol.ts): requests with ids whose promises resolve to a typed
// Result (never reject), events dispatched to subscribers, and the `ready` handshake. Browser code, no React.
import {
  type EventData,
  type EventKind,
  type EventMessage,
  errorValue,
  isHostToWebviewMessage,
  type ReplyMessage,
  type ReplyValue,
  type RequestKind,
  type RequestMessage,
  type RequestParams,
  type Result,
  type WebviewToHostMessage,
} from '../protocol.ts';

/** What `acquireVsCodeApi()` returns inside a VS Code webview (only the parts we use). */
export interface VsCodeApi {
  postMessage(message: WebviewToHostMessage): void;
  getState(): unknown;
  setState<T>(state: T): T;
}

declare global {
  /** Injected by VS Code into every webview; may be called once per page. */
  function acquireVsCodeApi(): VsCodeApi;
}

export interface HostMessenger {
  /** Sends request `kind`; resolves with the host's reply as a Result (an unanswerable request is an error value). */
  request<K extends RequestKind>(kind: K, params: RequestParams<K>): Promise<Result<ReplyValue<K>>>;
  /** Calls `listener` for every event `kind`; returns the unsubscribe function. */
  on<K extends EventKind>(kind: K, listener: (data: EventData<K>) => void): () => void;
  /** Tells the host the view is mounted and subscribed (sent once per page; later calls do nothing). */
  ready(): void;
  /**
   * The view's own part of VS Code's per-webview state (picks, scroll), kept while the panel is hidden and across
   * a window reload. Beside it VS Code's state holds what the panel shows, for the host's panel serializer.
   */
  getState(): unknown;
  setState<T>(state: T): T;
}

/** VS Code's webview state as we lay it out: what the panel shows (from the host) and the view's own state. */
export interface StoredWebviewState {
  panel?: unknown;
  view?: unknown;
}

function storedState(api: VsCodeApi): StoredWebviewState {
  const stored = api.getState();
  return typeof stored === 'object' && stored !== null ? (stored as StoredWebviewState) : {};
}

type AnyEventListener = (data: EventData<EventKind>) => void;

/**
 * Where this page's request ids start: anywhere in 2^48, not at 1. VS Code re-creates a hidden panel's page and the
 * host still answers what the old page asked; with ids restarting at 1 such a reply would settle one of the new
 * page's requests (a report taken for a comparison, the request's own reply then lost).
 */
function firstRequestId(): number {
  const [high, low] = crypto.getRandomValues(new Uint32Array(2));
  return (high! % 2 ** 16) * 2 ** 32 + low! + 1;
}

/** Builds the messenger over a VS Code API object and the window its messages arrive on. */
export function createHostMessenger(api: VsCodeApi, target: Window = window, panelState?: unknown): HostMessenger {
  // Stored at once, before the view sets any state of its own: a window reloaded right after the panel opened
  // still brings it back.
  if (panelState !== undefined) api.setState({ ...storedState(api), panel: panelState });
  let nextId = firstRequestId();
  let readySent = false;
  const pending = new Map<number, (reply: ReplyMessage) => void>();
  const listeners = new Map<EventKind, Set<AnyEventListener>>();

  const dispatchEvent = (message: EventMessage): void => {
    for (const listener of listeners.get(message.kind) ?? []) {
      try {
        listener(message.data);
      } catch (error) {
        console.error(`Qrels Studio: a listener for '${message.kind}' failed`, error);
      }
    }
  };

  target.addEventListener('message', (event: MessageEvent<unknown>) => {
    const message = event.data;
    if (!isHostToWebviewMessage(message)) return;
    if (message.kind === 'reply') {
      const settle = pending.get(message.id);
      pending.delete(message.id);
      settle?.(message);
    } else {
      dispatchEvent(message);
    }
  });

  return {
    request<K extends RequestKind>(kind: K, params: RequestParams<K>): Promise<Result<ReplyValue<K>>> {
      const id = nextId++;
      return new Promise((resolve) => {
        // The reply names only the id; the id was issued for `kind`, so its value is ReplyValue<K>.
        pending.set(id, (reply) => resolve(reply as ReplyMessage<ReplyValue<K>>));
        try {
          api.postMessage({ kind, id, params } as RequestMessage);
        } catch (error) {
          pending.delete(id);
          resolve({ ok: false, error: errorValue(error) });
        }
      });
    },
    on<K extends EventKind>(kind: K, listener: (data: EventData<K>) => void): () => void {
      let set = listeners.get(kind);
      if (!set) {
        set = new Set();
        listeners.set(kind, set);
      }
      // Stored among listeners of every kind; dispatch only ever hands it data of its own kind.
      const stored = listener as AnyEventListener;
      set.add(stored);
      return () => {
        set.delete(stored);
      };
    },
    ready(): void {
      if (readySent) return;
      readySent = true;
      api.postMessage({ kind: 'ready' });
    },
    getState: () => storedState(api).view,
    setState: <T>(state: T): T => {
      api.setState({ ...storedState(api), view: state });
      return state;
    },
  };
}

let pageMessenger: HostMessenger | undefined;

/** The page's one messenger (VS Code hands out its API object once per page). */
export function hostMessenger(): HostMessenger {
  if (pageMessenger === undefined) {
    const written = document.getElementById('root')?.dataset.panelState;
    pageMessenger = createHostMessenger(acquireVsCodeApi(), window, written ? JSON.parse(written) : undefined);
  }
  return pageMessenger;
}
