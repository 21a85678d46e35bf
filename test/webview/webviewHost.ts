// Runs a built webview (dist/webview/<name>.js) in Chromium the way VS Code runs it, with the test as the host:
//   - the page is the one extension/panels/webviewHtml.ts renders (same CSP, fresh nonce), served from 127.0.0.1,
//     with a test double of `acquireVsCodeApi` injected before the bundle by a script carrying the page's nonce;
//   - what the webview posts reaches the test through `page.exposeFunction` and goes into the real HostChannel,
//     which answers with `window.postMessage`, exactly how VS Code delivers host messages (`message` events).
// Every request the server gets is counted, and the page records CSP violations, so tests can prove what did not load.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { HostChannel, type RequestHandlers } from '../../extension/panels/hostChannel.ts';
import { renderWebviewHtml } from '../../extension/panels/webviewHtml.ts';
import type { HostToWebviewMessage, RequestKind } from '../../webview/protocol.ts';
import { distDir } from '../helpers.ts';

export const webviewDistDir = join(distDir, 'webview');

export interface CountingServer {
  origin: string;
  /** Requests received, by path. */
  hits: Map<string, number>;
  totalHits(): number;
  close(): Promise<void>;
}

/** A node:http server on 127.0.0.1 (a free port) that counts every request before `handle` answers it. */
export async function startCountingServer(
  handle: (path: string, response: ServerResponse, request: IncomingMessage) => void,
): Promise<CountingServer> {
  const hits = new Map<string, number>();
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    handle(path, response, request);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits,
    totalHits: () => [...hits.values()].reduce((a, b) => a + b, 0),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const contentTypes: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** Plays VS Code's part for `acquireVsCodeApi`; it also records the CSP violations the page reports. */
const vscodeApiDouble = `
(() => {
  let acquired = false;
  let state;
  window.acquireVsCodeApi = () => {
    if (acquired) throw new Error('An instance of the VS Code API has already been acquired');
    acquired = true;
    return Object.freeze({
      postMessage: (message) => { window.qrelsStudioTestHost(message); },
      getState: () => state,
      setState: (value) => { state = value; return value; },
    });
  };
  window.qrelsStudioWebviewState = () => state;
  window.qrelsStudioCspViolations = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    window.qrelsStudioCspViolations.push({ directive: e.effectiveDirective, blocked: e.blockedURI });
  });
})();`;

/**
 * Serves `/<name>.html` (the page webviewHtml.ts renders for dist/webview/<name>.js, plus the API double) and the
 * files of dist/webview/ under /dist/webview/. The server's origin plays `webview.cspSource`.
 */
export async function startWebviewServer(): Promise<CountingServer> {
  let origin = '';
  const server = await startCountingServer((path, response, request) => {
    const page = /^\/([a-z][a-zA-Z0-9-]*)\.html$/.exec(path);
    const file = /^\/dist\/webview\/([a-zA-Z0-9.-]+)$/.exec(path);
    try {
      if (page) {
        const name = page[1]!;
        // As the extension's panels render it: ?page={"hostKeybindings":true,"panelState":{…}} (PageOptions).
        const pageOptions = JSON.parse(
          new URL(request.url ?? '/', origin).searchParams.get('page') ?? '{}',
        ) as PageOptions;
        const html = renderWebviewHtml({
          title: `Qrels Studio ${name}`,
          cspSource: origin,
          scriptUri: `${origin}/dist/webview/${name}.js`,
          styleUris: [`${origin}/dist/webview/${name}.css`],
          ...pageOptions,
        });
        const nonce = /<script nonce="([^"]+)"/.exec(html)![1]!;
        const double = `<script nonce="${nonce}">${vscodeApiDouble}</script>\n    `;
        const body = html.replace('<script nonce=', `${double}<script nonce=`);
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
      } else if (file) {
        const body = readFileSync(join(webviewDistDir, file[1]!));
        response.writeHead(200, { 'content-type': contentTypes[extname(file[1]!)] ?? 'application/octet-stream' });
        response.end(body);
      } else if (path === '/favicon.ico') {
        // Chromium asks for one on every top-level page; VS Code's webview frames never do.
        response.writeHead(204).end();
      } else {
        response.writeHead(404).end();
      }
    } catch {
      response.writeHead(404).end();
    }
  });
  origin = server.origin;
  return server;
}

/** What a panel adds to its page: what it shows (for its serializer), and whether VS Code's keybindings own keys. */
export interface PageOptions {
  panelState?: unknown;
  hostKeybindings?: boolean;
}

export interface CspViolation {
  directive: string;
  blocked: string;
}

export interface OpenWebview<K extends RequestKind> {
  page: Page;
  /** The real host end, connected to the page. Post events through it (held until the page says ready). */
  host: HostChannel<K>;
  /** Every message the webview posted, in order, as received. */
  received: unknown[];
  /** Every message the host posted to the page, in order. */
  posted: HostToWebviewMessage[];
  /** Uncaught page errors and console errors. */
  errors: string[];
  cspViolations(): Promise<CspViolation[]>;
  close(): Promise<void>;
}

export interface OpenWebviewOptions<K extends RequestKind> {
  /** The bundle's name: webview/<name>/main.tsx. */
  name: string;
  handlers: RequestHandlers<K>;
  /** Runs before the page loads: e.g. post the events the host would send at once (they wait for ready). */
  beforeLoad?(host: HostChannel<K>): void;
  viewport?: { width: number; height: number };
  page?: PageOptions;
}

/** Opens the webview in a fresh browser context, connected to a HostChannel serving `handlers`. */
export async function openWebview<K extends RequestKind>(
  browser: Browser,
  server: CountingServer,
  options: OpenWebviewOptions<K>,
): Promise<OpenWebview<K>> {
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 900, height: 640 } });
  const page = await context.newPage();
  const received: unknown[] = [];
  const posted: HostToWebviewMessage[] = [];
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  const host = new HostChannel<K>({
    post: async (message) => {
      posted.push(message);
      try {
        await page.evaluate((m) => window.postMessage(m, '*'), message);
      } catch (error) {
        if (!page.isClosed()) errors.push(`could not deliver ${message.kind}: ${error}`);
      }
    },
    handlers: options.handlers,
    onProtocolError: (description) => errors.push(description),
  });
  await page.exposeFunction('qrelsStudioTestHost', (message: unknown) => {
    received.push(message);
    return host.receive(message);
  });
  options.beforeLoad?.(host);
  const query = options.page ? `?page=${encodeURIComponent(JSON.stringify(options.page))}` : '';
  await page.goto(`${server.origin}/${options.name}.html${query}`);
  return {
    page,
    host,
    received,
    posted,
    errors,
    cspViolations: () =>
      page.evaluate(() => (window as unknown as { qrelsStudioCspViolations: CspViolation[] }).qrelsStudioCspViolations),
    close: () => context.close(),
  };
}
