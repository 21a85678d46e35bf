// Word-level differences between a source text and its rewrite (the `diff` package's diffWords), and the text's
// sentences, for the review findings and the Review view's diff. Browser-safe: no Node, no DOM.
import { diffWords } from 'diff';

export interface DiffPart {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

/** The rewrite against its source, word by word (whitespace differences ignored). */
export function wordDiff(source: string, rewrite: string): DiffPart[] {
  return diffWords(source, rewrite).map((change) => ({
    kind: change.added ? 'added' : change.removed ? 'removed' : 'same',
    text: change.value,
  }));
}

/** Words a period follows without ending a sentence ("Dr. Smith", "No. 5", "e.g. this", "Smith et al. 2020"). */
const abbreviations = new Set(
  'dr mr mrs ms prof sr jr st no nos vs etc e.g i.e cf al fig figs eq eqs ed eds vol vols pp p ch sec art inc ltd co corp dept approx ca mt ft'.split(
    ' ',
  ),
);

/**
 * Sentences: a text split after `.`, `!` or `?` and the spaces after it, where a letter, a digit, a quote or a
 * bracket follows — but not after an abbreviation ("Dr.", "No.", "e.g.", "p.m.") or an initial ("J. Smith").
 */
export function sentences(text: string): string[] {
  const found: string[] = [];
  let start = 0;
  for (const end of text.matchAll(/[.!?]+["”’)]*(\s+)(?=["“‘([]?[\p{L}\p{N}])/gu)) {
    const at = end.index;
    if (text[at] === '.') {
      const word = /([\p{L}.]+)$/u.exec(text.slice(start, at))?.[1] ?? '';
      const bare = word.toLowerCase().replace(/^\.+/, '');
      // An abbreviation, an initial ("J."), or a dotted one ("p.m.", "U.S.") ends no sentence.
      if (abbreviations.has(bare) || /^\p{Lu}$/u.test(word) || bare.includes('.')) continue;
    }
    const cut = at + end[0].length - end[1]!.length;
    found.push(text.slice(start, cut).trim());
    start = at + end[0].length;
  }
  found.push(text.slice(start).trim());
  return found.filter((s) => s !== '');
}

/** Words (letters, digits, inner apostrophes and hyphens). */
export function words(text: string): string[] {
  return text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu) ?? [];
}
