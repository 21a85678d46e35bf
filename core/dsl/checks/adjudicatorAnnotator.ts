import { statementOf, statementsOf } from '../ast.ts';
import { blockLabel, eachBlock, type StudyCheck } from './check.ts';

export const adjudicatorAnnotator: StudyCheck = {
  code: 'adjudicator-annotator',
  severity: 'warning',
  description:
    'The adjudicator decides after the annotators disagree; one who is also an annotator has their own labels or ' +
    'verdicts in the disagreement they settle, and their adjudication takes the place of their own opinion.',
  check(context) {
    eachBlock(context, (block, report) => {
      const adjudicator = statementOf(block, 'adjudicator')?.name;
      if (!adjudicator) return;
      for (const statement of statementsOf(block, 'annotators')) {
        const named = statement.names.find((n) => n.text === adjudicator.text);
        if (!named) continue;
        report({
          range: adjudicator.range,
          message: `\`${adjudicator.text}\` is an annotator of ${blockLabel(block)} and its adjudicator: expected an adjudicator who does not annotate (or remove them from \`annotators\`)`,
          related: { range: named.range, message: `\`${named.text}\` among the annotators` },
        });
      }
    });
  },
};
