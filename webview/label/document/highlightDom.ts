// Marks query terms and excluded entities in an already rendered document, with DOM calls only: text is moved
// into new text nodes, never re-parsed, so script-like text in a document stays text.
//
// One combined, case-insensitive RegExp runs once over each text node (a 500 KB body is one pass, not one per
// term). Matches are whole words in the Unicode sense (no letter, mark or digit on either side, and a number is
// not cut out of "1,000" or "2.5"); an excluded entity's spaces match any run of whitespace. Overlaps: the leftmost
// match wins; at the same position the longest wins; an excluded entity beats a term of the same length — so a
// query term inside an excluded entity is marked as excluded (see core/labelling/highlightTerms.ts). A phrase split
// across elements ("2008 <b>Olympics</b>") is not matched. Text already inside a <mark> is left alone, so running
// it twice changes nothing.

type MarkClass = 'term' | 'excluded';

interface Alternative {
  source: string;
  kind: MarkClass;
  length: number;
}

const wordChar = String.raw`[\p{L}\p{M}\p{N}]`;
const notBefore = String.raw`(?<!${wordChar}|\p{N}[.,])`;
const notAfter = String.raw`(?!${wordChar}|[.,]\p{N})`;

/** Escapes RegExp syntax characters (the `u` flag rejects escapes of anything else, such as `\-`). */
function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}

/**
 * The combined pattern: one capture group per alternative, longest first (excluded first on ties), so the group
 * that matched says which class it is. Null when there is nothing to look for.
 */
function combinedPattern(terms: string[], excluded: string[]): { pattern: RegExp; kinds: MarkClass[] } | null {
  const seen = new Set<string>();
  const alternatives: Alternative[] = [];
  const add = (text: string, kind: MarkClass) => {
    const words = text
      .trim()
      .split(/\s+/u)
      .filter((w) => w !== '');
    const key = words.join(' ').toLowerCase();
    if (key === '' || seen.has(key)) return;
    seen.add(key);
    alternatives.push({ source: words.map(escapeRegExp).join(String.raw`\s+`), kind, length: key.length });
  };
  // Excluded entities first: a term that is also an excluded entity is then dropped as a duplicate.
  for (const entity of excluded) add(entity, 'excluded');
  for (const term of terms) add(term, 'term');
  if (alternatives.length === 0) return null;
  alternatives.sort((a, b) => b.length - a.length || (a.kind === b.kind ? 0 : a.kind === 'excluded' ? -1 : 1));
  const groups = alternatives.map((a) => `(${a.source})`).join('|');
  return {
    pattern: new RegExp(`${notBefore}(?:${groups})${notAfter}`, 'giu'),
    kinds: alternatives.map((a) => a.kind),
  };
}

/** Text nodes under `root` with something to mark in, skipping those already inside a <mark>. */
function textNodes(root: HTMLElement): Text[] {
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) =>
      node.parentElement?.closest('mark') || node.nodeValue?.trim() === ''
        ? NodeFilter.FILTER_REJECT
        : NodeFilter.FILTER_ACCEPT,
  });
  const nodes: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node as Text);
  return nodes;
}

export function highlightDom(root: HTMLElement, terms: string[], excluded: string[]): void {
  const combined = combinedPattern(terms, excluded);
  if (!combined) return;
  const { pattern, kinds } = combined;
  const document = root.ownerDocument;
  // Collected first: replacing nodes while a TreeWalker walks them would skip some.
  for (const node of textNodes(root)) {
    const text = node.nodeValue ?? '';
    pattern.lastIndex = 0;
    let match = pattern.exec(text);
    if (!match) continue;
    const fragment = document.createDocumentFragment();
    let done = 0;
    for (; match; match = pattern.exec(text)) {
      const group = match.findIndex((value, i) => i > 0 && value !== undefined);
      if (match.index > done) fragment.append(document.createTextNode(text.slice(done, match.index)));
      const mark = document.createElement('mark');
      mark.className = kinds[group - 1]!;
      mark.append(document.createTextNode(match[0]));
      fragment.append(mark);
      done = match.index + match[0].length;
    }
    if (done < text.length) fragment.append(document.createTextNode(text.slice(done)));
    node.replaceWith(fragment);
  }
}
