// The HTML page of a webview panel and its Content Security Policy. Host-side code, so it lives with the panels in
// extension/ (core/ knows nothing of webviews, webview/ is browser code that never renders its own page); it imports
// no `vscode` (the caller passes `webview.cspSource` and the `asWebviewUri` strings), so it is unit-tested in plain
// Node and the Chromium tests serve exactly the page VS Code gets.
//
// The policy: nothing loads unless listed. Scripts run only with this render's nonce (no inline script, no eval,
// no remote script); styles, images and fonts only from the extension's own resources (`cspSource`), images also
// as data: URLs; no connect/frame/media/worker sources at all, so a webview cannot reach the network.

export interface WebviewPageOptions {
  /** The page title (shown by screen readers; the tab title is the panel's). */
  title: string;
  /** `webview.cspSource`: the origin VS Code serves `localResourceRoots` from. */
  cspSource: string;
  /** `webview.asWebviewUri(dist/webview/<name>.js)` as a string. */
  scriptUri: string;
  /** Stylesheets, likewise as webview URIs (`dist/webview/<name>.css`). */
  styleUris?: readonly string[];
  /**
   * What the panel shows (its study, its review), as JSON: the page keeps it in VS Code's webview state, which is
   * what VS Code hands the panel serializer to bring the panel back after a window reload.
   */
  panelState?: unknown;
  /** VS Code's keybindings run the view's keyboard commands (the Label view): the page leaves those keys to them. */
  hostKeybindings?: boolean;
}

/** 128 random bits, base64: a fresh one per render, so a nonce seen in one page is useless in the next. */
export function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  // VS Code's is a source list such as `'self' https://*.vscode-cdn.net`; refuse anything that could end the
  // directive (`;`, `,`) or the attribute it is written into.
  if (!/^[^\s;,"<>&]+( [^\s;,"<>&]+)*$/.test(cspSource)) {
    throw new Error(`not a CSP source list: ${JSON.stringify(cspSource)}`);
  }
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
  ].join('; ');
}

/** Escapes text for element content and double-quoted attribute values. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function rootAttributes(options: WebviewPageOptions): string {
  let attributes = '';
  if (options.panelState !== undefined) {
    attributes += ` data-panel-state="${escapeHtml(JSON.stringify(options.panelState))}"`;
  }
  if (options.hostKeybindings) attributes += ' data-host-keybindings="true"';
  return attributes;
}

/** The page: CSP meta first, the stylesheets, a `#root` for React, then the bundle with the nonce. */
export function renderWebviewHtml(options: WebviewPageOptions): string {
  const nonce = createNonce();
  const styles = (options.styleUris ?? [])
    .map((uri) => `    <link rel="stylesheet" href="${escapeHtml(uri)}" nonce="${nonce}">\n`)
    .join('');
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(options.cspSource, nonce))}">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    <title>${escapeHtml(options.title)}</title>
${styles}  </head>
  <body>
    <div id="root"${rootAttributes(options)}></div>
    <script nonce="${nonce}" src="${escapeHtml(options.scriptUri)}"></script>
  </body>
</html>
`;
}
