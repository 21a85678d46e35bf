// The Label view's logic (webview/label/labelController.ts) in Node, without a browser: its HostMessenger is the real
// host end (extension/panels/hostChannel.ts) serving the real label handlers, every message structured-cloned as
// postMessage would. For tests of what the controller does with the host's replies (retrying a commit the record
// could not take), with every request it sent kept for the test to read.
import { HostChannel, type RequestHandlers } from '../../../extension/panels/hostChannel.ts';
import type { LabelRequestKind } from '../../../extension/panels/labelHandlers.ts';
import type { HostMessenger } from '../../../webview/common/hostMessenger.ts';
import {
  LabelController,
  type LabelControllerOptions,
  type LabelSnapshot,
} from '../../../webview/label/labelController.ts';
import type { EventKind, HostToWebviewMessage, RequestParams } from '../../../webview/protocol.ts';

export interface ControllerHost {
  controller: LabelController;
  channel: HostChannel<LabelRequestKind>;
  /** The params of every request of `kind` the controller sent, in order. */
  sent<K extends LabelRequestKind>(kind: K): RequestParams<K>[];
  /** Resolves once `predicate` holds for the controller's snapshot (checked every 10 ms), or rejects after `ms`. */
  until(predicate: (snapshot: LabelSnapshot) => boolean, ms?: number, what?: string): Promise<LabelSnapshot>;
}

/** A LabelController started over `handlers`; resolves once its first pair (or the queue's end) is shown. */
export async function controllerHost(
  handlers: RequestHandlers<LabelRequestKind>,
  options: LabelControllerOptions = {},
): Promise<ControllerHost> {
  let nextId = 1;
  const pending = new Map<number, (message: HostToWebviewMessage & { kind: 'reply' }) => void>();
  const listeners = new Map<EventKind, Set<(data: never) => void>>();
  const requests: { kind: LabelRequestKind; params: unknown }[] = [];
  const channel = new HostChannel<LabelRequestKind>({
    post: (message) => {
      const delivered = structuredClone(message);
      setTimeout(() => {
        if (delivered.kind === 'reply') pending.get(delivered.id)?.(delivered);
        else for (const listener of listeners.get(delivered.kind) ?? []) listener(delivered.data as never);
      });
    },
    handlers,
  });
  const messenger: HostMessenger = {
    request: (kind, params) => {
      const id = nextId++;
      requests.push({ kind: kind as LabelRequestKind, params: structuredClone(params) });
      return new Promise((resolve) => {
        pending.set(id, (reply) => {
          pending.delete(id);
          resolve(reply.ok ? { ok: true, value: reply.value as never } : { ok: false, error: reply.error });
        });
        void channel.receive(structuredClone({ kind, id, params }));
      });
    },
    on: (kind, listener) => {
      const set = listeners.get(kind) ?? new Set();
      listeners.set(kind, set);
      set.add(listener as (data: never) => void);
      return () => set.delete(listener as (data: never) => void);
    },
    ready: () => void channel.receive({ kind: 'ready' }),
    getState: () => undefined,
    setState: (state) => state,
  };
  const controller = new LabelController(messenger, options);
  const until = async (predicate: (snapshot: LabelSnapshot) => boolean, ms = 20_000, what = 'the condition') => {
    const deadline = Date.now() + ms;
    while (!predicate(controller.snapshot())) {
      if (Date.now() > deadline) {
        throw new Error(`${what} did not come within ${ms} ms: ${JSON.stringify(controller.snapshot(), null, 1)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return controller.snapshot();
  };
  controller.start();
  await until((s) => s.state !== undefined && s.pair !== undefined && !s.busy, 20_000, 'the first pair');
  return {
    controller,
    channel,
    sent: <K extends LabelRequestKind>(kind: K) =>
      requests.filter((r) => r.kind === kind).map((r) => r.params as RequestParams<K>),
    until,
  };
}
