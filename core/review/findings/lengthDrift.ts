// A rewrite much longer or shorter than its source (in words): MultiConIR asks its rewrites to "preserve overall
// length"; the bound is an option (default ±25 %).
import { words } from '../textDiff.ts';
import type { RewriteCheck } from './finding.ts';

export const lengthDrift: RewriteCheck = {
  id: 'length-drift',
  description: 'the rewrite is longer or shorter than its source by more than the bound (in words)',
  check(item, options) {
    const before = words(item.source).length;
    const after = words(item.rewrite).length;
    if (before === 0) return [];
    const drift = (after - before) / before;
    return Math.abs(drift) <= options.lengthDrift
      ? []
      : [
          {
            check: 'length-drift',
            severity: 'warning',
            message: `the rewrite has ${after} words, the source ${before} (${drift > 0 ? '+' : ''}${Math.round(drift * 100)} %, bound ±${Math.round(options.lengthDrift * 100)} %)`,
          },
        ];
  },
};
