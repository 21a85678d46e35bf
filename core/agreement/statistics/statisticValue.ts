// What an agreement statistic gives: a number, or null with the reason it is undefined (never NaN shown as a
// number).
export type StatisticValue = { value: number; reason?: undefined } | { value: null; reason: string };

export const undefinedBecause = (reason: string): StatisticValue => ({ value: null, reason });
/** A computed value; one that is not a finite number (labels so large their squares overflow) is undefined. */
export const defined = (value: number): StatisticValue =>
  Number.isFinite(value)
    ? { value }
    : undefinedBecause('the arithmetic overflowed: the label values are too large to compute it');
