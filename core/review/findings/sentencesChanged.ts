// More sentences changed than the generator was asked to change (MultiConIR rewrites one sentence of the positive;
// its rewrites restructure others too): a source sentence with no identical sentence in the rewrite counts as
// changed.
import { sentences } from '../textDiff.ts';
import type { RewriteCheck } from './finding.ts';

export function changedSentences(source: string, rewrite: string): string[] {
  const kept = new Set(sentences(rewrite));
  return sentences(source).filter((s) => !kept.has(s));
}

export const sentencesChanged: RewriteCheck = {
  id: 'sentences-changed',
  description: 'more sentences of the source changed than the generator was asked to change',
  check(item) {
    if (item.declaredChanges === undefined) return [];
    const changed = changedSentences(item.source, item.rewrite);
    return changed.length <= item.declaredChanges
      ? []
      : [
          {
            check: 'sentences-changed',
            severity: 'warning',
            message: `${changed.length} sentences changed, ${item.declaredChanges} declared`,
          },
        ];
  },
};
