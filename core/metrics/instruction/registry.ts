// The instruction-following measures `qrels-studio eval` computes next to trec_eval's (core/metrics/registry.ts).
// Adding one: a module in this folder and a line here.
import { cappedRecall } from './cappedRecall.ts';
import type { InstructionMeasure } from './instructionMeasure.ts';
import { irs } from './irs.ts';
import { negationFailureRate } from './negationFailureRate.ts';
import { pMrr } from './pMrr.ts';
import { adjacentWinRate, flipRate, winRate } from './winRates.ts';

export const instructionMeasures: readonly InstructionMeasure[] = [
  irs,
  pMrr,
  negationFailureRate,
  winRate,
  adjacentWinRate,
  flipRate,
  cappedRecall,
];

export function instructionMeasure(name: string): InstructionMeasure | undefined {
  return instructionMeasures.find((m) => m.name === name);
}
