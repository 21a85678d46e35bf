import { statementsOf } from '../ast.ts';
import { eachBlock, type StudyCheck } from './check.ts';

/** Keys the Review view keeps for itself: j k move between items (digits rate the rubric). */
const reviewNavigationKeys = ['j', 'k'];

export const verdictKey: StudyCheck = {
  code: 'verdict-key',
  severity: 'error',
  description:
    'The Review view gives each verdict by its first letter: two verdicts with the same first letter cannot both be ' +
    'given by key, and a verdict starting with j or k (which move between items) not at all.',
  check(context) {
    eachBlock(context, (block, report) => {
      const firstOf = new Map<string, string>();
      for (const statement of statementsOf(block, 'verdicts')) {
        for (const name of statement.names) {
          const key = name.text[0]?.toLowerCase() ?? '';
          if (reviewNavigationKeys.includes(key)) {
            report({
              range: name.range,
              message: `verdict \`${name.text}\` starts with '${key}', which moves between items in the Review view: expected a verdict starting with another letter`,
            });
            continue;
          }
          const earlier = firstOf.get(key);
          if (earlier !== undefined && earlier !== name.text) {
            report({
              range: name.range,
              message: `verdicts \`${earlier}\` and \`${name.text}\` both start with '${key}', the key that gives a verdict in the Review view: expected verdicts with different first letters`,
            });
          } else firstOf.set(key, name.text);
        }
      }
    });
  },
};
