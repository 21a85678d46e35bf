import { judgedNegative, notJudged } from '../../formats/trecRun.ts';
import type { TrecMeasure } from '../trecMeasure.ts';

const digits = '0123456789';

/** One character per rank, as trec_eval's relstring prints it. */
function judgmentCharacter(judgment: number): string {
  if (judgment > 9) return '>';
  if (judgment >= 0) return String(judgment);
  if (judgment === notJudged) return '-';
  if (judgment === judgedNegative) return '.'; // trec_eval: "in the pool but unjudged" (a negative label)
  return '<';
}

export const relevanceString: TrecMeasure = {
  name: 'relstring',
  help:
    'The judgments of the first N retrieved documents (default 10, -m relstring.20) as a string: the label 0–9, ' +
    "'>' above 9, '-' not in the qrels, '.' judged with a negative label (unjudged in the pool). Per query only.",
  kind: 'text',
  defaultNumbers: [10],
  zeroWithoutResults: 'unlessRenamed',
  compute(query, _options, numbers) {
    // trec_eval reads the length as a double and truncates it (C's (long) cast).
    const length = Math.max(0, Math.min(Math.trunc(numbers[0] ?? 10), query.ranking.length));
    let text = '';
    for (let i = 0; i < length; i++) {
      const judgment = query.ranking[i]!;
      text += judgment >= 0 && judgment <= 9 ? digits[judgment]! : judgmentCharacter(judgment);
    }
    return text;
  },
};
