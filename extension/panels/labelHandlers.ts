// The host's answers to the Label view's requests (`label/*` in webview/protocol.ts), from a core LabelSession over
// the study's store (in the extension, a worker thread's; the session's requests are asynchronous, and the view,
// which talks by messages, does not notice). No `vscode` here: the panel (labelPanel.ts) and the Chromium tests serve the
// view with these same handlers. `session()` is read on every request because switching the annotator replaces it.
import type { LabelSession } from '../../core/labelling/labelSession.ts';
import type { Progress } from '../../core/labelling/types.ts';
import { RecordUnreachableError } from '../../core/store/postgres/postgresContext.ts';
import type { RequestKind, RetryReason } from '../../webview/protocol.ts';
import type { RequestHandlers } from './hostChannel.ts';

export type LabelRequestKind = Extract<RequestKind, `label/${string}`>;

export interface LabelHandlerHooks {
  /** A label was stored or retracted (`progress`: the annotator's, after it): progress elsewhere is stale. */
  onLabelsChanged?(progress: Progress): void;
}

export function labelRequestHandlers(
  session: () => LabelSession,
  hooks: LabelHandlerHooks = {},
): RequestHandlers<LabelRequestKind> {
  return {
    'label/session': () => session().currentState(),
    // A commit and the pair after it: the view retries these when the record could not take them (retryReason).
    'label/pairAt': ({ position, queueVersion, current }) =>
      session()
        .pairAt(position, queueVersion, current)
        .catch((error: unknown) => Promise.reject(retryable(error))),
    'label/commit': async (commit) => {
      let stored: Awaited<ReturnType<LabelSession['commit']>>;
      try {
        stored = await session().commit(commit);
      } catch (error) {
        throw retryable(error);
      }
      hooks.onLabelsChanged?.(stored.progress);
      return stored;
    },
    'label/undo': async () => {
      const undone = await session().undo();
      if (undone) hooks.onLabelsChanged?.(undone.progress);
      return undone;
    },
    'label/setQueue': (settings) => session().setQueue(settings),
    'label/document': ({ docid }) => session().document(docid),
    'label/guidelines': () => session().guidelines(),
  };
}

/** SQLite's codes of a database another connection holds (better-sqlite3 errors keep them across the worker). */
const busyCodes = /^SQLITE_(BUSY|LOCKED)(_|$)/;

/**
 * Why sending a failed request again unchanged may succeed: the study's record could not be reached (the PostgreSQL
 * adapter's RecordUnreachableError, or a StoreError caused by one: "the label was saved, but the pair could not be
 * read back") or SQLite was busy. The PostgreSQL store runs in the extension host, so its error arrives as itself;
 * the name is checked too for an error rebuilt elsewhere under that name.
 * Undefined for anything else (a StoreError the user must act on, a bug): retrying would not help.
 */
export function retryReason(error: unknown): RetryReason | undefined {
  let cause = error;
  for (let depth = 0; depth < 5 && typeof cause === 'object' && cause !== null; depth++) {
    const { name, code } = cause as { name?: unknown; code?: unknown };
    if (cause instanceof RecordUnreachableError || name === 'RecordUnreachableError') return 'unreachable';
    if (typeof code === 'string' && busyCodes.test(code)) return 'busy';
    cause = (cause as { cause?: unknown }).cause;
  }
  return undefined;
}

/** `error` marked with its retry reason for the view (webview/protocol.ts errorValue carries it), else as it is. */
function retryable(error: unknown): unknown {
  const retry = retryReason(error);
  if (retry === undefined || !(error instanceof Error)) return error;
  return Object.assign(new Error(error.message, { cause: error }), { retry });
}
