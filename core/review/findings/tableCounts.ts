// Instructions with fewer compliant or violating tables than required (FollowTable's rule: at least 3 and 3, broken
// about 30 times in its release).
import type { InstructionCheck } from './finding.ts';

export const tableCounts: InstructionCheck = {
  id: 'table-count',
  description: 'the instruction has fewer compliant (2) or violating (1) tables than required',
  check(item, options) {
    const compliant = item.tables.filter((t) => t.label === 2).length;
    const violating = item.tables.filter((t) => t.label === 1).length;
    const short: string[] = [];
    if (compliant < options.minimumCompliant)
      short.push(`${compliant} compliant (at least ${options.minimumCompliant})`);
    if (violating < options.minimumViolating)
      short.push(`${violating} violating (at least ${options.minimumViolating})`);
    return short.length === 0
      ? []
      : [{ check: 'table-count', severity: 'warning', message: `the instruction has ${short.join(' and ')} tables` }];
  },
};
