import { statementsOf } from '../ast.ts';
import { navigationKeys } from '../keywords.ts';
import { eachBlock, type StudyCheck } from './check.ts';
import { freeKey } from './freeKey.ts';

export const navigationKey: StudyCheck = {
  code: 'navigation-key',
  severity: 'error',
  description:
    'A scale key that is one of the labelling view’s navigation keys (j k u n ?): the view would navigate ' +
    'instead of labelling.',
  check(context) {
    eachBlock(context, (block, report) => {
      for (const scale of statementsOf(block, 'scale')) {
        for (const entry of scale.entries) {
          if (!entry.key || !navigationKeys.includes(entry.key.value)) continue;
          const suggestion = freeKey(scale, entry);
          report({
            range: entry.key.range,
            message:
              `key ${JSON.stringify(entry.key.value)} is a navigation key of the labelling view ` +
              `(${navigationKeys.join(' ')}): expected another key for value ${entry.value.text}` +
              (suggestion ? `, such as ${JSON.stringify(suggestion)}` : ''),
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
