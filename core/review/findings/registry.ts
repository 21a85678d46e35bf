// The automatic review findings: checks of a rewrite against its source, and of an instruction with its tables.
// Adding one: a module in this folder and a line here.
import { contradiction } from './contradiction.ts';
import { droppedCitations } from './droppedCitations.ts';
import { droppedEntities } from './droppedEntities.ts';
import { droppedNumbers } from './droppedNumbers.ts';
import {
  defaultFindingOptions,
  type FindingOptions,
  type InstructionCheck,
  type InstructionItem,
  type ReviewFinding,
  type RewriteCheck,
  type RewriteItem,
} from './finding.ts';
import { labelLeak } from './labelLeak.ts';
import { lengthDrift } from './lengthDrift.ts';
import { sentencesChanged } from './sentencesChanged.ts';
import { tableCounts } from './tableCounts.ts';

export const rewriteChecks: readonly RewriteCheck[] = [
  droppedNumbers,
  droppedCitations,
  droppedEntities,
  sentencesChanged,
  lengthDrift,
];

export const instructionChecks: readonly InstructionCheck[] = [labelLeak, contradiction, tableCounts];

export function rewriteFindings(item: RewriteItem, options: FindingOptions = defaultFindingOptions): ReviewFinding[] {
  return rewriteChecks.flatMap((c) => c.check(item, options));
}

export function instructionFindings(
  item: InstructionItem,
  options: FindingOptions = defaultFindingOptions,
): ReviewFinding[] {
  return instructionChecks.flatMap((c) => c.check(item, options));
}
