// Debian's Chromium, headless, driven by playwright-core: the browser every webview test runs in. Never
// `playwright install` (no downloads here); a missing Chromium is a test failure that says how to get it.
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

export const chromiumPath = process.env.QRELS_STUDIO_CHROMIUM ?? '/usr/bin/chromium';

/** Headless, no sandbox (root in containers), and nothing that phones home. */
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function assertChromiumInstalled(): void {
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `${chromiumPath} is missing: the webview tests run in Debian's Chromium — install it with ` +
        '`apt-get install -y chromium` (or set QRELS_STUDIO_CHROMIUM to a Chromium binary).',
    );
  }
}

export async function launchChromium(): Promise<Browser> {
  assertChromiumInstalled();
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs, timeout: 30_000 });
}
