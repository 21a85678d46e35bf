// NFR, the negation failure rate (FollowTable §5.6): the share of an instruction's trap tables (violating because
// they contain an entity the instruction excludes) ranked strictly higher once the instruction is added,
// r(t, π_q,i) < r(t, π_q). A trap a ranking lacks is ranked after every document either ranking holds (so a trap
// neither retrieves has not moved). Macro: the mean over instructions with traps; micro: over all traps pooled.
import { type InstructionMeasure, rankBeyondBoth, ranksOf } from './instructionMeasure.ts';

function promoted(c: Parameters<InstructionMeasure['compute']>[0]): [number, number] {
  const traps = c.traps ?? new Set<string>();
  const baseline = c.baseline ?? [];
  const beyond = rankBeyondBoth(c.ranking, baseline);
  const before = ranksOf(baseline);
  const after = ranksOf(c.ranking);
  let up = 0;
  for (const trap of traps) if ((after.get(trap) ?? beyond) < (before.get(trap) ?? beyond)) up++;
  return [up, traps.size];
}

export const negationFailureRate: InstructionMeasure = {
  name: 'nfr',
  help: 'negation failure rate (FollowTable §5.6): share of trap tables promoted by the instruction (--traps); lower is better',
  needsBaseline: true,
  valueNames: () => ['nfr'],
  compute(c) {
    const [up, traps] = promoted(c);
    return { nfr: traps === 0 ? null : up / traps };
  },
  micro: (c) => ({ nfr: promoted(c) }),
};
