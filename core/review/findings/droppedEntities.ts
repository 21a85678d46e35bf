// Named entities of the source a rewrite dropped: runs of capitalised words that do not start a sentence ("Penal
// Code", "James Cameron", "Beijing Olympics"), a cheap stand-in for an NER model that needs no download.
import { sentences } from '../textDiff.ts';
import type { RewriteCheck } from './finding.ts';

/** Capitalised word runs not at the start of a sentence (a run that starts one keeps its later words). */
export function entitiesIn(text: string): string[] {
  const found: string[] = [];
  for (const sentence of sentences(text)) {
    const tokens = sentence.split(/\s+/);
    let run: string[] = [];
    const flush = () => {
      if (run.length > 0) found.push(run.join(' '));
      run = [];
    };
    tokens.forEach((token, i) => {
      const word = token.replace(/^[("“']+|[)"”',.;:!?]+$/g, '');
      const capital = /^\p{Lu}[\p{L}-]*$/u.test(word) && !(i === 0 && run.length === 0);
      const joiner = run.length > 0 && /^(?:of|the|de|van|von|and)$/.test(word);
      if (capital || joiner) run.push(word);
      else flush();
      if (/[,.;:!?)]$/.test(token)) flush();
    });
    flush();
  }
  // A lone citation keyword ("Section 420") is the citation check's.
  return found
    .map((e) => e.replace(/\s+(?:of|the|de|van|von|and)$/, ''))
    .filter((e) => !/^(?:Section|Article|Rule|Chapter|Clause|Paragraph|Title|Act)$/.test(e));
}

export const droppedEntities: RewriteCheck = {
  id: 'dropped-entity',
  description: 'a named entity of the source (a capitalised name not starting a sentence) is missing from the rewrite',
  check(item) {
    const missing = [...new Set(entitiesIn(item.source))].filter((e) => !item.rewrite.includes(e));
    return missing.length === 0
      ? []
      : [
          {
            check: 'dropped-entity',
            severity: 'warning',
            message: `the rewrite dropped ${missing.map((e) => `'${e}'`).join(', ')}`,
            terms: missing,
          },
        ];
  },
};
