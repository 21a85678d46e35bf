// How a judge run's progress reads, in the CLI's progress lines and in VS Code's progress notification alike:
// "412/1,000 · 37.2 calls/s · 81,204 tokens · $0.0312 · 2 failures" (the cost only when the model has a price).
import type { JudgeProgress } from './judgeStudy.ts';

export const formatCount = (n: number): string => n.toLocaleString('en-US');

/** USD: four decimals under a dollar (a call costs fractions of a cent), two above. */
export const formatCost = (usd: number): string => `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`;

export const plural = (n: number, word: string): string => `${formatCount(n)} ${word}${n === 1 ? '' : 's'}`;

export function judgeProgressText(p: JudgeProgress, priced: boolean): string {
  return [
    `${formatCount(p.done)}/${formatCount(p.total)}`,
    `${p.callsPerSecond.toFixed(1)} calls/s`,
    `${formatCount(p.inputTokens + p.outputTokens)} tokens`,
    ...(priced ? [formatCost(p.cost)] : []),
    plural(p.failures, 'failure'),
  ].join(' · ');
}
