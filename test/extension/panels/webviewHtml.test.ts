import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contentSecurityPolicy, renderWebviewHtml } from '../../../extension/panels/webviewHtml.ts';

// What VS Code passes: webview.cspSource (this one is code-server 4.139's) and asWebviewUri(...) strings.
const cspSource = "'self' https://*.vscode-cdn.net";
const resources = 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview';
const page = {
  title: 'Qrels Studio runtime',
  cspSource,
  scriptUri: `${resources}/runtime.js`,
  styleUris: [`${resources}/runtime.css`],
};

function metaCsp(html: string): string {
  const match = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
  assert.ok(match, 'the page has a CSP meta tag');
  return match[1]!;
}

function nonceOf(html: string): string {
  const match = /script-src 'nonce-([^']+)'/.exec(metaCsp(html));
  assert.ok(match, 'the CSP allows scripts by nonce');
  return match[1]!;
}

test('every render has a fresh nonce of 128 random bits', () => {
  const nonces = new Set(Array.from({ length: 50 }, () => nonceOf(renderWebviewHtml(page))));
  assert.equal(nonces.size, 50);
  for (const nonce of nonces) {
    assert.match(nonce, /^[A-Za-z0-9+/]{22}==$/);
  }
});

test('the CSP is exactly: nothing by default, scripts by nonce, styles/images/fonts from the extension only', () => {
  const html = renderWebviewHtml(page);
  const nonce = nonceOf(html);
  assert.equal(
    metaCsp(html),
    `default-src 'none'; script-src 'nonce-${nonce}'; style-src ${cspSource} 'nonce-${nonce}'; ` +
      `img-src ${cspSource} data:; font-src ${cspSource}`,
  );
  assert.equal(metaCsp(html), contentSecurityPolicy(cspSource, nonce));
});

test('the CSP names no web source besides the extension resource origin, and no unsafe keyword', () => {
  const csp = metaCsp(renderWebviewHtml(page)).replaceAll(cspSource, '<cspSource>');
  assert.doesNotMatch(csp, /https?:/);
  assert.doesNotMatch(csp, /\*|unsafe-inline|unsafe-eval|'self'/);
  const html = renderWebviewHtml(page).replaceAll(cspSource, '<cspSource>').replaceAll(resources, '<resources>');
  assert.doesNotMatch(html, /https?:/, 'the page itself loads nothing but the extension resources');
});

test('the bundle is the one script, at the end of the body, carrying the nonce', () => {
  const html = renderWebviewHtml(page);
  const nonce = nonceOf(html);
  const scripts = html.match(/<script\b[^>]*>/g) ?? [];
  assert.deepEqual(scripts, [`<script nonce="${nonce}" src="${page.scriptUri}">`]);
  assert.ok(html.indexOf('<div id="root"></div>') < html.indexOf('<script'), '#root exists before the bundle runs');
  assert.ok(html.includes(`<link rel="stylesheet" href="${page.styleUris[0]}" nonce="${nonce}">`));
});

test('title and URIs are escaped, and a source list that could break out of the policy is refused', () => {
  const html = renderWebviewHtml({ ...page, title: '<b>"x" & y</b>' });
  assert.match(html, /<title>&#60;b&#62;&#34;x&#34; &#38; y&#60;\/b&#62;<\/title>/);
  assert.throws(() => contentSecurityPolicy("https://a; script-src 'unsafe-inline'", 'n'), /not a CSP source list/);
  assert.throws(() => contentSecurityPolicy('https://a, script-src *', 'n'), /not a CSP source list/);
  assert.throws(() => contentSecurityPolicy('https://a" onload="x', 'n'), /not a CSP source list/);
  assert.throws(() => contentSecurityPolicy('', 'n'), /not a CSP source list/);
  assert.doesNotThrow(() => contentSecurityPolicy('vscode-webview://abc123', 'n'));
});
