// Named entities of the source a rewrite dropped: runs of capitalised words ("Penal Code", "James Cameron",
// "Beijing Olympics") — a cheap stand-in for an NER model that needs no download. An entity counts as kept only as a
// whole word: "India" is not kept by "Indiana". A parenthesis starts a name of its own: in "World Health Organization
// (WHO)" the acronym is not part of the name, and a name and the acronym the source defines for it (either way
// round) stand for each other — a rewrite that keeps one has kept the entity.
import { sentences } from '../textDiff.ts';
import { isMonthName, isNumberWord } from './droppedNumbers.ts';
import type { RewriteCheck } from './finding.ts';

/** Words a sentence often starts with that name nothing: articles, pronouns, prepositions, conjunctions, adverbs. */
const sentenceStarters = new Set(
  `a an the this that these those it its he she they we i you his her their our my your there here what which who
  whom whose when where why how in on at by for from with without within into onto of to as after before during
  since until while although though because if unless once so but and or nor yet also however moreover furthermore
  therefore thus hence then still instead meanwhile otherwise indeed besides finally first second third next last
  later earlier recently currently today yesterday now often sometimes usually generally overall additionally
  similarly likewise consequently nevertheless nonetheless despite following according all any each every some many
  most few several both either neither no not one such other another only even just about around over under above
  below between among through across against along beyond upon per via be is are was were has have had do does did
  can could may might must shall should will would let please find show list give get make see use`.split(/\s+/),
);

/**
 * The capitalised word runs of a text that name something: runs inside a sentence, and runs of two or more words
 * at its start ("James Cameron directed"). A single capitalised word starting a sentence is left out: without a
 * lexicon "Microsoft bought it" cannot be told from "Moderate stenosis" (MultiConIR's changed condition words are
 * the diff's to show). Numbers and months are the number check's; a lone citation keyword ("Section") the citation
 * check's.
 */
export function entitiesIn(text: string): string[] {
  const found: string[] = [];
  for (const sentence of sentences(text)) {
    const tokens = sentence.split(/\s+/);
    let run: string[] = [];
    let atStart = false;
    const flush = () => {
      // "Shares of Microsoft Corporation": the sentence's first word joined by "of" is no part of the name.
      if (atStart && run.length > 1 && joiners.test(run[1]!)) {
        run = run.slice(1);
        while (run.length > 0 && joiners.test(run[0]!)) run = run.slice(1);
        atStart = false;
      }
      const words = run.join(' ').replace(/\s+(?:of|the|de|van|von|and)$/, '');
      if (words !== '' && !(atStart && run.length === 1) && !notEntity(words)) found.push(words);
      run = [];
      atStart = false;
    };
    tokens.forEach((token, i) => {
      // "(WHO)" after "World Health Organization": another name, not the name's last word.
      if (token.startsWith('(')) flush();
      const word = token.replace(/^[("“'‘]+|[)"”'’,.;:!?]+$/g, '');
      const capital = /^\p{Lu}[\p{L}-]*$/u.test(word) && !(i === 0 && sentenceStarters.has(word.toLowerCase()));
      const joiner = run.length > 0 && joiners.test(word);
      if (capital || joiner) {
        if (run.length === 0) atStart = i === 0;
        run.push(word);
      } else flush();
      if (/[,.;:!?)]$/.test(token)) flush();
    });
    flush();
  }
  return found;
}

const joiners = /^(?:of|the|de|van|von|and)$/;

function notEntity(words: string): boolean {
  const lower = words.toLowerCase();
  return (
    /^(?:Section|Article|Rule|Chapter|Clause|Paragraph|Title|Act)$/.test(words) ||
    isMonthName(lower) ||
    isNumberWord(lower)
  );
}

export const droppedEntities: RewriteCheck = {
  id: 'dropped-entity',
  description: 'a named entity of the source (a run of capitalised words) is missing from the rewrite',
  check(item) {
    const entities = [...new Set(entitiesIn(item.source))];
    const alias = aliases(item.source, entities);
    const kept = (e: string) =>
      containsWords(item.rewrite, e) || (alias.get(e) ?? []).some((a) => containsWords(item.rewrite, a));
    const missing = entities.filter((e) => !kept(e));
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

/**
 * The names the source pairs with an acronym in parentheses — "World Health Organization (WHO)" or
 * "WHO (World Health Organization)" — each mapped to the other.
 */
function aliases(source: string, entities: readonly string[]): Map<string, string[]> {
  const pairs = new Map<string, string[]>();
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  for (const outer of entities) {
    for (const inner of entities) {
      if (outer === inner || !new RegExp(`${literal(outer)}\\s*\\(\\s*${literal(inner)}\\s*\\)`, 'u').test(source))
        continue;
      pairs.set(outer, [...(pairs.get(outer) ?? []), inner]);
      pairs.set(inner, [...(pairs.get(inner) ?? []), outer]);
    }
  }
  return pairs;
}

/** `phrase` in `text` as whole words (not as part of a longer word), optionally ignoring case. */
export function containsWords(text: string, phrase: string, ignoreCase = false): boolean {
  const escaped = phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, ignoreCase ? 'iu' : 'u').test(text);
}
