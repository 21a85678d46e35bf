// Renders media/icon.svg (the source) to media/icon.png, the 128×128 icon the Marketplace and Open VSX show (they
// take no SVG): in Debian's Chromium, as the webview tests run it, with a transparent background outside the
// rounded square. Run after changing the SVG: `node scripts/renderIcon.ts`; commit both files.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium } from '../test/webview/chromium.ts';

const media = join(import.meta.dirname, '..', 'media');
const size = 128;
const svg = readFileSync(join(media, 'icon.svg'), 'utf8');

const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
  await page.setContent(`<!doctype html><html><body style="margin:0;background:transparent">${svg}</body></html>`);
  const png = await page.locator('svg').screenshot({ omitBackground: true, type: 'png' });
  writeFileSync(join(media, 'icon.png'), png);
  console.log(`media/icon.png: ${size}×${size}, ${png.length} bytes`);
} finally {
  await browser.close();
}
