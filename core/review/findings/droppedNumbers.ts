// Numbers and dates of the source a rewrite dropped or changed (MultiConIR §G.1: "sentenced to five years" became
// "received a prison sentence"): digits (420, 3.5, 2008, 12/05/2020) and number words (five, twelve, hundred).
import type { RewriteCheck } from './finding.ts';

const numberWords = new Set(
  'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand million billion first second third fourth fifth sixth seventh eighth ninth tenth half twice'.split(
    ' ',
  ),
);

/** The numbers of a text: digit groups (with their separators) and number words, lower-cased. */
export function numbersIn(text: string): string[] {
  const digits = text.match(/\d+(?:[.,/:-]\d+)*/g) ?? [];
  const spelled = (text.toLowerCase().match(/\p{L}+/gu) ?? []).filter((w) => numberWords.has(w));
  return [...digits, ...spelled];
}

export const droppedNumbers: RewriteCheck = {
  id: 'dropped-number',
  description: 'a number or date of the source is missing from the rewrite (dropped, or changed into another)',
  check(item) {
    const kept = numbersIn(item.rewrite);
    const missing = numbersIn(item.source).filter((n) => {
      const at = kept.indexOf(n);
      if (at < 0) return true;
      kept.splice(at, 1);
      return false;
    });
    if (missing.length === 0) return [];
    const added = kept.filter((n) => !numbersIn(item.source).includes(n));
    return [
      {
        check: 'dropped-number',
        severity: 'warning',
        message:
          `the rewrite ${added.length > 0 ? 'changed' : 'dropped'} ${missing.map((n) => `'${n}'`).join(', ')}` +
          (added.length > 0 ? ` (it has ${added.map((n) => `'${n}'`).join(', ')} instead)` : ''),
        terms: missing,
      },
    ];
  },
};
