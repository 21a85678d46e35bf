// An instruction that contradicts its own table set: a table labelled compliant mentions an entity the instruction
// excludes ("…, excluding the 2008 Beijing Olympics"), so it cannot comply.
import { excludedEntities } from '../../labelling/highlightTerms.ts';
import { containsWords } from './droppedEntities.ts';
import type { InstructionCheck } from './finding.ts';

export const contradiction: InstructionCheck = {
  id: 'contradiction',
  description: 'a table labelled compliant mentions an entity the instruction excludes',
  check(item) {
    const excluded = excludedEntities(item.instruction);
    return item.tables
      .filter((t) => t.label === 2)
      .flatMap((table) => {
        const text = `${table.title ?? ''} ${table.caption ?? ''} ${table.text ?? ''}`;
        // As whole words, ignoring case: excluding "Java" says nothing of a JavaScript table.
        const found = excluded.filter((e) => containsWords(text, e, true));
        return found.length === 0
          ? []
          : [
              {
                check: 'contradiction',
                severity: 'warning' as const,
                message: `table '${table.id}' is labelled compliant but mentions ${found.map((e) => `'${e}'`).join(', ')}, which the instruction excludes`,
                terms: found,
              },
            ];
      });
  },
};
