// How the Agreement view writes its numbers and orders its annotators. A statistic that is undefined is "—" with the
// reason beside it or in its tooltip, never NaN: every number shown goes through these functions.
import type { AgreementDashboard, AnnotatorPairAgreement } from '../../core/agreement/agreementTypes.ts';

/** What an undefined value shows. */
export const undefinedText = '—';

const isNumber = (value: number | null | undefined): value is number =>
  typeof value === 'number' && Number.isFinite(value);

/** `value` to `digits` decimals, with a true minus sign (and no "−0.000"); "—" when there is no number. */
export function fixed(value: number | null | undefined, digits = 3): string {
  if (!isNumber(value)) return undefinedText;
  const text = value.toFixed(digits);
  if (/^-0(\.0*)?$/.test(text)) return text.slice(1);
  return text.startsWith('-') ? `−${text.slice(1)}` : text;
}

/** A share (0…1) as a percentage with one decimal: "83.3 %"; "—" when there is none. */
export function percent(value: number | null | undefined): string {
  return isNumber(value) ? `${(value * 100).toFixed(1)} %` : undefinedText;
}

/** A count with thousands separators. */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** "4 disagreements", "1 disagreement". */
export function plural(n: number, noun: string): string {
  return `${count(n)} ${noun}${n === 1 ? '' : 's'}`;
}

/** What the heat map's cells show: one of the pair statistics the dashboard gives. */
export type PairMetric = 'kappa' | 'weightedKappa' | 'alpha' | 'percent';

export const pairMetrics: readonly PairMetric[] = ['kappa', 'weightedKappa', 'alpha', 'percent'];

/** The metric's name as the selector and tooltips say it. */
export function pairMetricTitle(metric: PairMetric, report: Pick<AgreementDashboard, 'weighting' | 'alphaLevel'>) {
  switch (metric) {
    case 'kappa':
      return "Cohen's κ (unweighted)";
    case 'weightedKappa':
      return `Cohen's κ (${report.weighting})`;
    case 'alpha':
      return `Krippendorff's α (${report.alphaLevel})`;
    case 'percent':
      return 'Percent agreement';
  }
}

/** A pair statistic as a cell shows it (percent agreement as a percentage, the others to 3 decimals). */
export function pairValueText(metric: PairMetric, value: number | null): string {
  return metric === 'percent' ? percent(value) : fixed(value);
}

/** Why a pair's value is undefined, for the cell's tooltip. */
export function pairReason(pair: AnnotatorPairAgreement, metric: PairMetric): string {
  return pair.reasons?.[metric] ?? 'the statistic is undefined for these two annotators';
}

/** People first, then LLM judges, each by name: the heat map's rows and columns, the confusion pickers. */
export function orderedAnnotators(report: Pick<AgreementDashboard, 'annotators'>): AgreementDashboard['annotators'] {
  const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  return [
    ...report.annotators.filter((a) => a.kind === 'human').sort(byName),
    ...report.annotators.filter((a) => a.kind === 'llm').sort(byName),
  ];
}

/** The dashboard's pair of two annotators, whichever order they are asked in. */
export function pairLookup(
  pairs: readonly AnnotatorPairAgreement[],
): (a: string, b: string) => AnnotatorPairAgreement | undefined {
  const map = new Map<string, AnnotatorPairAgreement>();
  for (const pair of pairs) {
    map.set(`${pair.a}\u0000${pair.b}`, pair);
    map.set(`${pair.b}\u0000${pair.a}`, pair);
  }
  return (a, b) => map.get(`${a}\u0000${b}`);
}

/**
 * How strongly a value colours its cell: a share of the colour (0–70 %, leaving the text readable on light and
 * dark backgrounds) and its side (agreement above chance, or below it).
 */
export function heat(metric: PairMetric, value: number | null): { tone: 'good' | 'bad' | 'none'; strength: number } {
  if (!isNumber(value)) return { tone: 'none', strength: 0 };
  // Percent agreement is 0…1 with no chance correction: shade it by itself. κ and α: 0 is chance, 1 perfect.
  const share = metric === 'percent' ? value : Math.abs(value);
  const strength = Math.round(Math.min(1, Math.max(0, share)) * 70);
  return { tone: metric !== 'percent' && value < 0 ? 'bad' : 'good', strength };
}
