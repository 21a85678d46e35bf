// The host's end of the webview protocol (webview/protocol.ts), without `vscode`: it routes each request to its
// handler and posts exactly one reply (a thrown error becomes an `ok: false` reply), and it holds events until the
// webview says `ready`. panelHost.ts connects it to a real WebviewPanel; tests connect it to Chromium.
import {
  type EventData,
  type EventKind,
  type EventMessage,
  errorValue,
  type HostToWebviewMessage,
  isWebviewToHostMessage,
  type ReplyValue,
  type RequestKind,
  type RequestParams,
} from '../../webview/protocol.ts';

export type RequestHandler<K extends RequestKind> = (
  params: RequestParams<K>,
) => ReplyValue<K> | Promise<ReplyValue<K>>;

/** One handler for each request kind a panel serves. */
export type RequestHandlers<K extends RequestKind> = { [P in K]: RequestHandler<P> };

export interface HostChannelOptions<K extends RequestKind> {
  /** Delivers a message to the webview (`webview.postMessage`). */
  post(message: HostToWebviewMessage): unknown;
  handlers: RequestHandlers<K>;
  /** Runs on every `ready` (the first, and again each time the webview is re-created), after queued events. */
  onReady?(): void;
  /** Told about messages that are not part of the protocol (they get no reply). */
  onProtocolError?(description: string): void;
}

export class HostChannel<K extends RequestKind> {
  readonly #options: HostChannelOptions<K>;
  #ready = false;
  #queue: EventMessage[] = [];

  constructor(options: HostChannelOptions<K>) {
    this.#options = options;
  }

  get isReady(): boolean {
    return this.#ready;
  }

  /** Posts event `kind` now if the webview is ready, else when it next says `ready` (in order). */
  postEvent<E extends EventKind>(kind: E, data: EventData<E>): void {
    // `{ kind, data }` is EventMessage<E>; tsc cannot see through the mapped type for a generic E.
    const message = { kind, data } as EventMessage;
    if (this.#ready) this.#options.post(message);
    else this.#queue.push(message);
  }

  /** The webview went away (hidden, reloading): hold events again until its next `ready`. */
  reset(): void {
    this.#ready = false;
  }

  /** Handles one message from the webview; resolves once its reply (if any) has been posted. */
  async receive(message: unknown): Promise<void> {
    if (!isWebviewToHostMessage(message)) {
      this.#options.onProtocolError?.(`not a Qrels Studio webview message: ${JSON.stringify(message)}`);
      return;
    }
    if (message.kind === 'ready') {
      this.#ready = true;
      const queued = this.#queue;
      this.#queue = [];
      for (const event of queued) this.#options.post(event);
      this.#options.onReady?.();
      return;
    }
    const { id, kind, params } = message;
    const handlers: Partial<Record<RequestKind, (params: unknown) => unknown>> = this.#options.handlers;
    const handler = Object.hasOwn(handlers, kind) ? handlers[kind] : undefined;
    if (!handler) {
      this.#options.post({ kind: 'reply', id, ok: false, error: { message: `this panel does not handle '${kind}'` } });
      return;
    }
    try {
      const value = await handler(params);
      this.#options.post({ kind: 'reply', id, ok: true, value });
    } catch (error) {
      this.#options.post({ kind: 'reply', id, ok: false, error: errorValue(error) });
    }
  }
}
