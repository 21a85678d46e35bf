// A rewrite much longer or shorter than its source (in words): MultiConIR asks its rewrites to "preserve overall
// length"; the bound is an option (default ±25 %). A query expansion is meant to grow: one declared so (the item's
// type), or one that keeps every word of its source in order and only adds, is not flagged for growing.
import { words } from '../textDiff.ts';
import type { RewriteCheck, RewriteItem } from './finding.ts';

/** Whether the rewrite holds the source's words in their order (ignoring case), with words added around them. */
function onlyAdds(item: RewriteItem): boolean {
  const added = words(item.rewrite).map((w) => w.toLowerCase());
  let at = 0;
  for (const word of words(item.source)) {
    at = added.indexOf(word.toLowerCase(), at);
    if (at < 0) return false;
    at++;
  }
  return true;
}

export const lengthDrift: RewriteCheck = {
  id: 'length-drift',
  description: 'the rewrite is longer or shorter than its source by more than the bound (in words)',
  check(item, options) {
    const before = words(item.source).length;
    const after = words(item.rewrite).length;
    if (before === 0) return [];
    const drift = (after - before) / before;
    if (drift > 0 && (item.expansion === true || onlyAdds(item))) return [];
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
