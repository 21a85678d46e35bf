import { statementsOf } from '../ast.ts';
import { deriveRange, isYesNoForm } from '../deriveRange.ts';
import type { StudyCheck } from './check.ts';
import { eachBlock } from './check.ts';
import { gradedAspects, shownRange } from './deriveValues.ts';

// A warning, not an error: `count(conditions)` is bounded by the queries' data (how many conditions each query
// has), which the study file does not hold; a rule right for every query of the data set is a valid study.
export const deriveUnbounded: StudyCheck = {
  code: 'derive-unbounded',
  severity: 'warning',
  description:
    'A `derive` rule whose range the study cannot bound — `count(conditions)` goes from 0 to the number of a ' +
    "query's conditions, which only the data knows — may go past the scale's ends for some query; cap it with " +
    '`? :` (`count(conditions) > 3 ? 3 : count(conditions)`) or make sure no query has more conditions.',
  check(context) {
    eachBlock(context, (block, report) => {
      const scale = statementsOf(block, 'scale')[0];
      const values = scale ? scale.entries.map((e) => e.value.value).filter(Number.isFinite) : [];
      if (values.length === 0) return;
      const graded = gradedAspects(block);
      const lowest = Math.min(...values);
      const highest = Math.max(...values);
      for (const derive of statementsOf(block, 'derive')) {
        if (!derive.expression) continue;
        for (const { node, range } of deriveRange(derive.expression, graded).results) {
          if (node.kind === 'number' || isYesNoForm(node, graded)) continue;
          const past: string[] = [];
          if (!Number.isFinite(range.max)) past.push(`above ${highest}`);
          if (!Number.isFinite(range.min)) past.push(`below ${lowest}`);
          if (past.length === 0) continue;
          report({
            range: node.range,
            message:
              `this can give ${shownRange(range)} (the number of a query's conditions is not known here): a query ` +
              `with enough conditions gets a label ${past.join(' or ')}, off the scale; cap it with \`? :\` ` +
              (Number.isFinite(range.max) ? '' : `(\`… > ${highest} ? ${highest} : …\`) `) +
              `if the data may have such queries`,
          });
        }
      }
    });
  },
};
