import type { MeasureOptions, RankedQuery, TrecMeasure } from '../trecMeasure.ts';

/** trec_eval's default persistence (a user who goes on to the next document with probability p). */
export const defaultPersistence = 0.9;

export function persistence(options: MeasureOptions): number {
  return options.pairs?.get('p') ?? defaultPersistence;
}

/**
 * The gain of each judged label, as trec_eval's rbp sets them up (gain_init.c): every label 0 … the largest judged
 * label gains itself unless `-m rbp.L=G` says otherwise; then, if some gain is outside [0, 1], all are rescaled
 * linearly so that the range from min(0, gains) to max(0, gains) becomes [0, 1]. (trec_eval starts that min and
 * max from uninitialised variables; 0 is what its builds hold, and what its test suite's numbers show.)
 */
function rbpGains(query: RankedQuery, options: MeasureOptions): (label: number) => number {
  const labels = query.labelCounts.labels;
  const largest = labels.length > 0 ? labels[labels.length - 1]! : -1;
  // They depend on the largest label and the options only: most queries share the last query's.
  if (largest === gainsLargest && options.gains === gainsOfOptions && options.pairs === gainsPairs) return gainsKept;
  gainsLargest = largest;
  gainsOfOptions = options.gains;
  gainsPairs = options.pairs;
  gainsKept = rbpGainsUpTo(largest, options);
  return gainsKept;
}

let gainsLargest = Number.NaN;
let gainsOfOptions: MeasureOptions['gains'];
let gainsPairs: MeasureOptions['pairs'];
let gainsKept: (label: number) => number = () => 0;

function rbpGainsUpTo(largest: number, options: MeasureOptions): (label: number) => number {
  const gains = new Map<number, number>();
  if (options.pairs) for (const [label, gain] of options.gains ?? []) gains.set(label, gain);
  for (let label = 0; label <= largest; label++) if (!gains.has(label)) gains.set(label, label);
  let min = 0;
  let max = 0;
  for (const gain of gains.values()) {
    if (gain < min) min = gain;
    if (gain > max) max = gain;
  }
  const rescale = min < 0 || max > 1;
  const gainOf = (label: number): number => {
    const gain = gains.get(label);
    if (gain === undefined) return 0; // unjudged, or a negative label
    return rescale ? (gain - min) / (max - min) : gain;
  };
  // The usual labels (0 … a few) read from a table rather than the map: one lookup per rank of every query.
  if (largest > maximumTabledLabel) return gainOf;
  const table = Float64Array.from({ length: largest + 1 }, (_, label) => gainOf(label));
  return (label) => (label >= 0 && label <= largest ? table[label]! : gainOf(label));
}

/** Labels up to this one have their rbp gain in a table. */
const maximumTabledLabel = 1024;

export const rankBiasedPrecision: TrecMeasure = {
  name: 'rbp',
  help:
    'Rank-Biased Precision (Moffat and Zobel, TOIS 2008): (1−p)·Σ gain(rank i)·p^(i−1), p the persistence ' +
    '(default -m rbp.p=0.9); gains are the labels, rescaled to [0, 1] when some lie outside it (-m rbp.2=1,3=1 ' +
    'sets them). Unjudged documents gain 0: see rbp_resid for the uncertainty they leave.',
  kind: 'float',
  takesPairs: true,
  compute(query, options) {
    const p = persistence(options);
    const gainOf = rbpGains(query, options);
    let sum = 0;
    let weight = 1;
    for (const judgment of query.ranking) {
      const gain = gainOf(judgment);
      if (gain !== 0) sum += gain * weight;
      weight *= p;
    }
    return (1 - p) * sum;
  },
};
