// Untrusted document markup turned into HTML that can neither run script nor load a URL, for the two formats the
// Label view renders as HTML (FollowTable's HTML tables with rowspan/colspan, Markdown from TARGET, FollowTable and
// CRUMB). Both functions return a string for `dangerouslySetInnerHTML`; both need the page's DOM (DOMPurify parses
// with it) and refuse to run without one rather than return the input unsanitised, which DOMPurify would do.
//
// Allow-lists, not deny-lists: an element outside the list is removed and its text kept; the contents of script,
// style, iframe, object, embed, template, noscript (and DOMPurify's defaults: svg, math, audio, video, title, …)
// are dropped entirely. No attribute survives except rowspan/colspan (digits only), scope (its four keywords) and,
// in Markdown, an ordered list's numeric `start` (so "3." is not shown as "1."). No style, class, id, href, src.
// Under the webview's CSP, Chromium logs "Applying inline style / Executing inline event handler violates …" while
// DOMPurify parses hostile markup (its inert parse document shares the page's policy): reports only, nothing runs.
import DOMPurify, { type Config, type DOMPurify as Purifier } from 'dompurify';
import MarkdownIt, { type Env } from 'markdown-it';

const tableTags = ['table', 'caption', 'colgroup', 'col', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td'];
const inlineTags = ['br', 'b', 'strong', 'i', 'em', 'sub', 'sup', 'span', 'p', 'div'];
/** What markdown-it emits with html off, minus `a` and `img` (rendered as text below). */
const markdownTags = [
  ...['p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'ul', 'ol', 'li', 'pre', 'code'],
  ...['em', 'strong', 's', 'table', 'thead', 'tbody', 'tr', 'th', 'td'],
];
const droppedWithContents = ['script', 'style', 'iframe', 'object', 'embed', 'template', 'noscript'];

const commonConfig = {
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  KEEP_CONTENT: true,
  ADD_FORBID_CONTENTS: droppedWithContents,
  RETURN_DOM: false,
  RETURN_DOM_FRAGMENT: false,
} satisfies Config;

const tableConfig = {
  ...commonConfig,
  ALLOWED_TAGS: [...tableTags, ...inlineTags],
  ALLOWED_ATTR: ['rowspan', 'colspan', 'scope'],
} satisfies Config;

const markdownConfig = {
  ...commonConfig,
  ALLOWED_TAGS: markdownTags,
  ALLOWED_ATTR: ['rowspan', 'colspan', 'start'],
} satisfies Config;

/** Attribute values the allow-list admits by name but must still check. */
const attributeValues: Record<string, RegExp> = {
  rowspan: /^\s*\d{1,4}\s*$/,
  colspan: /^\s*\d{1,4}\s*$/,
  start: /^\s*\d{1,9}\s*$/,
  scope: /^\s*(?:row|col|rowgroup|colgroup)\s*$/i,
};

let purifier: Purifier | undefined;

/** One DOMPurify bound to the page's window, with the value checks above as a hook (hooks are per instance). */
function pagePurifier(): Purifier {
  if (purifier) return purifier;
  if (typeof window === 'undefined' || !DOMPurify.isSupported) {
    throw new Error('sanitising HTML needs a browser DOM (DOMPurify is not supported here); refusing to go on');
  }
  const instance = DOMPurify(window);
  instance.addHook('uponSanitizeAttribute', (_node, data) => {
    const allowed = attributeValues[data.attrName];
    if (allowed && !allowed.test(data.attrValue)) data.keepAttr = false;
  });
  purifier = instance;
  return instance;
}

/** An HTML table (or fragment) reduced to table markup and simple inline text markup. */
export function sanitizeTableHtml(html: string): string {
  return pagePurifier().sanitize(html, tableConfig);
}

const markdown = new MarkdownIt('default', { html: false, linkify: false, typographer: false });
const escapeHtml = markdown.utils.escapeHtml;

// Images become their alt text in brackets: nothing is fetched, and the annotator still sees that one was there.
markdown.renderer.rules.image = (tokens, idx, options, env, self) => {
  const alt = self.renderInlineAsText(tokens[idx]!.children ?? [], options, env).trim();
  return escapeHtml(`[${alt === '' ? 'image' : alt}]`);
};

// Links become their text followed by the destination as text: nothing to click, but the URL stays readable.
// An autolink (<https://…>) already shows its URL as its text, so it gets nothing after it.
// The suffix waits on a stack in the render's env (links do not nest, but the stack keeps open/close paired).
interface LinkEnv extends Env {
  linkSuffixes: string[];
}
markdown.renderer.rules.link_open = (tokens, idx, _options, env) => {
  const token = tokens[idx]!;
  const href = String(token.attrGet('href') ?? '');
  (env as LinkEnv).linkSuffixes.push(token.markup === 'autolink' ? '' : ` (${markdown.normalizeLinkText(href)})`);
  return '';
};
markdown.renderer.rules.link_close = (_tokens, _idx, _options, env) =>
  escapeHtml((env as LinkEnv).linkSuffixes.pop() ?? '');

/** Markdown rendered without raw HTML (shown as text), links or images, then sanitised to markdown-it's own tags. */
export function markdownToSafeHtml(source: string): string {
  const purify = pagePurifier();
  const env: LinkEnv = { linkSuffixes: [] };
  return purify.sanitize(markdown.render(source, env), markdownConfig);
}
