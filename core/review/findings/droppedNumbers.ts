// Numbers and dates of the source a rewrite dropped or changed (MultiConIR §G.1: "sentenced to five years" became
// "received a prison sentence"): digit groups (420, −3.5, 12,000, 2010–2012, 12/05/2020), number words (five,
// twenty-five, hundred), ordinals (3rd, third) and month names (a date's month: "March 2019" → "April 2019"). Each is
// compared by what it means, not how it is written: "five" and "5", "12,000" and "12000", "3.5" and "3.50",
// "1st" and "first", "2019-03-05" and "5 March 2019" are the same. An ordinal word is a number only after a determiner
// ("the first edition", "its third floor"): "cases first heard in high court" or "at first" count nothing, so a rewrite
// that drops that "first" dropped no number (any ordinal word of the rewrite still keeps a source's "1st").
import type { RewriteCheck } from './finding.ts';

const units =
  'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen'.split(
    ' ',
  );
const tens = 'twenty thirty forty fifty sixty seventy eighty ninety'.split(' ');
const ordinals = 'first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth'.split(' ');
const months = 'january february march april may june july august september october november december'.split(' ');
const scales: Record<string, number> = { hundred: 100, thousand: 1e3, million: 1e6, billion: 1e9 };
// Not "once": "Once the contract is signed" counts nothing.
const otherWords: Record<string, string> = { half: 'frac:1/2', twice: 'times:2' };

/** A month's full name, lower-cased ("march"). */
export const isMonthName = (lower: string): boolean => months.includes(lower);

/** A lower-cased number word, alone or starting a hyphenated pair ("five", "twenty-five", "five-star"). */
export function isNumberWord(lower: string): boolean {
  const match = /^([a-z]+)(?:-[a-z]+)?$/.exec(lower);
  return match !== null && (units.includes(match[1]!) || tens.includes(match[1]!) || match[1]! in scales);
}

/** A number as written, and what it means (`n:5`, `ord:3`, `month:3`, or the text itself when it is more). */
export interface NumberMention {
  text: string;
  key: string;
}

/** A plain number's meaning: thousands separators dropped, trailing decimal zeros too ("3.50" is "3.5"). */
function plainNumberKey(text: string): string | undefined {
  const minus = /^[-−]/.test(text);
  let digits = text.replace(/^[-−]/, '');
  if (/^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/.test(digits)) digits = digits.replaceAll(',', '');
  if (!/^\d+(?:\.\d+)?$/.test(digits)) return undefined;
  const value = Number(digits) * (minus ? -1 : 1);
  return Number.isFinite(value) ? `n:${value}` : undefined;
}

/** Words after which an ordinal word is a position ("the first", "its third"). */
const determiners = new Set('the a an this that these those its his her their our my your every each whose'.split(' '));

/**
 * The numbers of a text, in order, with their meanings. `ordinalWords`: 'all' counts every ordinal word;
 * 'determined' (default) only one after a determiner, as "first" in "first heard" is an adverb, not a position.
 */
export function numbersIn(text: string, ordinalWords: 'all' | 'determined' = 'determined'): NumberMention[] {
  const found: NumberMention[] = [];
  // ISO dates first ("2019-03-05"), as the day, month and year they name.
  const iso = /\b(\d{4})-(\d{2})-(\d{2})\b/g;
  const taken: [number, number][] = [];
  for (const match of text.matchAll(iso)) {
    const [, year, month, day] = match;
    found.push({ text: year!, key: `n:${Number(year)}` }, { text: month!, key: `month:${Number(month)}` });
    found.push({ text: day!, key: `n:${Number(day)}` });
    taken.push([match.index, match.index + match[0].length]);
  }
  const free = (at: number) => !taken.some(([from, to]) => at >= from && at < to);
  // Digit groups: a sign only where it cannot be a range's dash; ordinals "3rd"; ranges and dates kept whole.
  for (const match of text.matchAll(/(?:(?<=^|[\s([])[-−])?\d+(?:[.,/:–-]\d+)*(?:st|nd|rd|th)?\b/g)) {
    if (!free(match.index)) continue;
    const written = match[0];
    const ordinal = /^(\d+)(?:st|nd|rd|th)$/.exec(written);
    if (ordinal) found.push({ text: written, key: `ord:${Number(ordinal[1])}` });
    // A range or date by its numbers: "2010-2012" and "2010–2012" (an en dash) are the same.
    else found.push({ text: written, key: plainNumberKey(written) ?? written.replace(/[–−]/g, '-') });
  }
  // Words: number words (hyphenated compounds as one: "twenty-five" is 25), ordinals, month names.
  for (const match of text.matchAll(/\p{L}+(?:-\p{L}+)*\.?/gu)) {
    const written = match[0].replace(/\.$/, '');
    const lower = written.toLowerCase();
    const parts = lower.split('-');
    if (parts.length === 2 && tens.includes(parts[0]!) && units.indexOf(parts[1]!) > 0) {
      found.push({ text: written, key: `n:${(tens.indexOf(parts[0]!) + 2) * 10 + units.indexOf(parts[1]!)}` });
      continue;
    }
    for (const part of parts) {
      if (units.includes(part)) found.push({ text: part, key: `n:${units.indexOf(part)}` });
      else if (tens.includes(part)) found.push({ text: part, key: `n:${(tens.indexOf(part) + 2) * 10}` });
      else if (part in scales) found.push({ text: part, key: `n:${scales[part]}` });
      else if (ordinals.includes(part) && (ordinalWords === 'all' || afterDeterminer(text, match.index)))
        found.push({ text: part, key: `ord:${ordinals.indexOf(part) + 1}` });
      else if (part in otherWords) found.push({ text: part, key: otherWords[part]! });
    }
    // A month only as a capitalised full name ("may" is a verb; "May" the month only next to a number).
    const month = /^\p{Lu}/u.test(written) && parts.length === 1 ? months.indexOf(lower) + 1 : 0;
    const nearNumber = /\d/.test(text.slice(Math.max(0, match.index - 6), match.index + written.length + 8));
    if (month > 0 && (lower !== 'may' || nearNumber)) found.push({ text: written, key: `month:${month}` });
  }
  return found;
}

/** Whether the word before `at` in `text` is a determiner. */
function afterDeterminer(text: string, at: number): boolean {
  const before = /([\p{L}]+)[\s]+$/u.exec(text.slice(Math.max(0, at - 12), at));
  return before !== null && determiners.has(before[1]!.toLowerCase());
}

export const droppedNumbers: RewriteCheck = {
  id: 'dropped-number',
  description: 'a number or date of the source is missing from the rewrite (dropped, or changed into another)',
  check(item) {
    // Every ordinal word of the rewrite may keep one of the source ("the 1st edition" → "a first edition").
    const kept = numbersIn(item.rewrite, 'all');
    const source = numbersIn(item.source);
    const missing = source.filter((n) => {
      const at = kept.findIndex((k) => k.key === n.key);
      if (at < 0) return true;
      kept.splice(at, 1);
      return false;
    });
    if (missing.length === 0) return [];
    const sourceKeys = new Set(source.map((n) => n.key));
    const added = kept.filter((n) => !sourceKeys.has(n.key));
    const quoted = (list: NumberMention[]) => list.map((n) => `'${n.text}'`).join(', ');
    return [
      {
        check: 'dropped-number',
        severity: 'warning',
        message:
          `the rewrite ${added.length > 0 ? 'changed' : 'dropped'} ${quoted(missing)}` +
          (added.length > 0 ? ` (it has ${quoted(added)} instead)` : ''),
        terms: missing.map((n) => n.text),
      },
    ];
  },
};
