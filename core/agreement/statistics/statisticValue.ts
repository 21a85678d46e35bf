// What an agreement statistic gives: a number, or null with the reason it is undefined (never NaN shown as a
// number).
export type StatisticValue = { value: number; reason?: undefined } | { value: null; reason: string };

export const defined = (value: number): StatisticValue => ({ value });
export const undefinedBecause = (reason: string): StatisticValue => ({ value: null, reason });
