// The host's answers to the Label view's requests (`label/*` in webview/protocol.ts), from a core LabelSession over
// the study's store (in the extension, a worker thread's; the session's requests are asynchronous, and the view,
// which talks by messages, does not notice). No `vscode` here: the panel (labelPanel.ts) and the Chromium tests serve the
// view with these same handlers. `session()` is read on every request because switching the annotator replaces it.
import type { LabelSession } from '../../core/labelling/labelSession.ts';
import type { Progress } from '../../core/labelling/types.ts';
import type { RequestKind } from '../../webview/protocol.ts';
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
    'label/pairAt': ({ position, queueVersion, current }) => session().pairAt(position, queueVersion, current),
    'label/commit': async (commit) => {
      const stored = await session().commit(commit);
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
