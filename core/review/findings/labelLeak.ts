// Label words in a table's title or caption (FollowTable's synthetic captions gave their label away: a caption
// saying "excluding …" or "not relevant" tells a retriever the answer).
import type { InstructionCheck } from './finding.ts';

export const labelLeak: InstructionCheck = {
  id: 'label-leak',
  description: "a table's title or caption holds a word that gives its label away",
  check(item, options) {
    return item.tables.flatMap((table) => {
      const text = `${table.title ?? ''} ${table.caption ?? ''}`.toLowerCase();
      const leaked = options.labelWords.filter((w) => new RegExp(`(^|[^\\p{L}-])${w}([^\\p{L}-]|$)`, 'u').test(text));
      return leaked.length === 0
        ? []
        : [
            {
              check: 'label-leak',
              severity: 'warning' as const,
              message: `table '${table.id}' has ${leaked.map((w) => `'${w}'`).join(', ')} in its title or caption`,
              terms: leaked,
            },
          ];
    });
  },
};
