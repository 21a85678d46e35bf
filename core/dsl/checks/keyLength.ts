import { statementsOf } from '../ast.ts';
import { eachBlock, type StudyCheck } from './check.ts';
import { freeKey } from './freeKey.ts';

export const keyLength: StudyCheck = {
  code: 'key-length',
  severity: 'error',
  description: 'A scale key must be exactly one character: the labelling view picks a value on a single key press.',
  check(context) {
    eachBlock(context, (block, report) => {
      for (const scale of statementsOf(block, 'scale')) {
        for (const entry of scale.entries) {
          if (!entry.key || [...entry.key.value].length === 1) continue;
          const suggestion = freeKey(scale, entry);
          report({
            range: entry.key.range,
            message: `expected a one-character key for value ${entry.value.text}, found ${JSON.stringify(entry.key.value)} (${[...entry.key.value].length} characters)`,
            ...(suggestion && {
              fixes: [
                {
                  title: `Use key "${suggestion}"`,
                  edits: [{ range: entry.key.range, newText: JSON.stringify(suggestion) }],
                },
              ],
            }),
          });
        }
      }
    });
  },
};
