// A webview panel speaking the typed protocol: it loads dist/webview/<name>.js (and .css) into a page with a strict
// CSP, lets the webview read only dist/webview/, routes the webview's requests to the panel's handlers, and holds
// events while the webview is not ready (before its first `ready`, and while hidden: VS Code drops messages to a
// hidden webview and re-creates it, which then says `ready` again).
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import type { EventData, EventKind, RequestKind } from '../../webview/protocol.ts';
import { HostChannel, type RequestHandlers } from './hostChannel.ts';
import { renderWebviewHtml } from './webviewHtml.ts';

export interface PanelHostOptions<K extends RequestKind> {
  /** The panel's view type, `qrelsStudio.<name>`. */
  viewType: string;
  title: string;
  /** The bundle: webview/<webview>/main.tsx, built to dist/webview/<webview>.js. */
  webview: string;
  handlers: RequestHandlers<K>;
  /** Runs on every `ready`: send the state a freshly (re)created view needs. */
  onReady?(): void;
  column?: vscode.ViewColumn;
  /**
   * Keep the page alive while its tab is hidden (VS Code then delivers messages to it): for views an annotator
   * switches away from and back to all day, where a reload would lose scroll position and prefetched pairs.
   */
  retainContextWhenHidden?: boolean;
  /** Where protocol errors are logged. */
  output?: vscode.OutputChannel;
  /** What the panel shows, JSON: kept in the webview's state for the panel serializer (panelSerializers.ts). */
  panelState?: PanelState;
  /** The view's keyboard commands are VS Code keybindings (package.json); the page leaves those keys to them. */
  hostKeybindings?: boolean;
  /** A panel VS Code brought back after a window reload, to serve instead of creating a new one. */
  revived?: vscode.WebviewPanel;
}

/** What a panel shows, as its serializer needs it to open the panel again: a study, a review, or nothing. */
export type PanelState =
  | { studyFile: string; study: string }
  | { studyFile: string; review: string }
  | Record<string, never>;

export interface PanelHost {
  readonly panel: vscode.WebviewPanel;
  postEvent<E extends EventKind>(kind: E, data: EventData<E>): void;
}

export function createPanelHost<K extends RequestKind>(
  extensionUri: vscode.Uri,
  options: PanelHostOptions<K>,
): PanelHost {
  const bundleDir = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
  const webviewOptions = { enableScripts: true, localResourceRoots: [bundleDir] };
  let panel: vscode.WebviewPanel;
  if (options.revived) {
    // A revived panel keeps the options it was created with but for these, which VS Code does not persist.
    panel = options.revived;
    panel.title = options.title;
    panel.webview.options = webviewOptions;
  } else {
    panel = vscode.window.createWebviewPanel(
      options.viewType,
      options.title,
      options.column ?? vscode.ViewColumn.Active,
      {
        ...webviewOptions,
        retainContextWhenHidden: options.retainContextWhenHidden ?? false,
      },
    );
  }
  const { webview } = panel;
  const channel = new HostChannel<K>({
    post: (message) => webview.postMessage(message),
    handlers: options.handlers,
    onReady: options.onReady,
    onProtocolError: (description) => options.output?.appendLine(`[${options.viewType}] ${description}`),
  });

  const stylesheet = vscode.Uri.joinPath(bundleDir, `${options.webview}.css`);
  try {
    webview.html = renderWebviewHtml({
      title: options.title,
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(bundleDir, `${options.webview}.js`)).toString(),
      styleUris: existsSync(stylesheet.fsPath) ? [webview.asWebviewUri(stylesheet).toString()] : [],
      panelState: options.panelState ?? {},
      hostKeybindings: options.hostKeybindings ?? false,
    });
  } catch (error) {
    panel.dispose(); // no empty tab left behind
    throw error;
  }

  const subscriptions = [
    webview.onDidReceiveMessage((message: unknown) => channel.receive(message)),
    panel.onDidChangeViewState(() => {
      // A retained page keeps running and receiving; only a re-created one says `ready` again.
      if (!panel.visible && !options.retainContextWhenHidden) channel.reset();
    }),
  ];
  panel.onDidDispose(() => {
    for (const subscription of subscriptions) subscription.dispose();
  });

  return {
    panel,
    postEvent: (kind, data) => channel.postEvent(kind, data),
  };
}
