// The host's answers to the Review view's requests (`review/*` in webview/protocol.ts), from a core ReviewSession over
// the review's record (the storage port). No `vscode` here: the panel (reviewPanel.ts) and the Chromium tests serve
// the view with these same handlers.
import type { ReviewSession } from '../../core/review/reviewSession.ts';
import type { RequestKind } from '../../webview/protocol.ts';
import type { RequestHandlers } from './hostChannel.ts';

export type ReviewRequestKind = Extract<RequestKind, `review/${string}`>;

export function reviewRequestHandlers(session: () => ReviewSession): RequestHandlers<ReviewRequestKind> {
  return {
    'review/state': () => session().state(),
    'review/itemAt': ({ position }) => session().itemAt(position),
    'review/queue': ({ queue }) => session().setQueue(queue),
    'review/commit': (commit) => session().commit(commit),
    'review/summary': () => session().summary(),
  };
}
