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

/** Sentences: split after `.`, `!` or `?` followed by space and a capital, a digit or a quote (not after "No. 5"). */
export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+(?=["“(]?[A-Z0-9])/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** Words (letters, digits, inner apostrophes and hyphens). */
export function words(text: string): string[] {
  return text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu) ?? [];
}
