import { statementOf, statementsOf } from '../ast.ts';
import { eachBlock, type StudyCheck } from './check.ts';

export const exportRequirements: StudyCheck = {
  code: 'export-requirement',
  severity: 'error',
  description:
    'What an export needs from the rest of the study: `from judge` a `judge` statement, `per document` and ' +
    '`per chunk` a corpus `parent` role, and `by max|any` a `per document` before it.',
  check(context) {
    eachBlock(context, (block, report) => {
      const corpus = statementOf(block, 'corpus');
      const hasParent = corpus?.mappings.some((m) => m.role.text === 'parent') ?? false;
      const hasJudge = statementOf(block, 'judge') !== undefined;
      for (const exported of statementsOf(block, 'export')) {
        if (exported.source?.text === 'judge' && !hasJudge) {
          report({
            range: exported.source.range,
            message: 'expected a `judge` statement: `from judge` exports its labels',
          });
        }
        if (exported.perDocument && !hasParent) {
          report({
            range: exported.perDocument,
            message:
              'expected a `parent` role in the corpus mapping: `per document` aggregates chunks to their parent document',
          });
        }
        if (exported.perChunk && !hasParent) {
          report({
            range: exported.perChunk,
            message:
              'expected a `parent` role in the corpus mapping: `per chunk` gives document labels to their chunks',
          });
        }
        if (exported.rollup && !exported.perDocument) {
          report({
            range: exported.rollup.range,
            message: `expected \`per document\` before \`by ${exported.rollup.text}\`: it rolls chunk labels up to documents`,
          });
        }
      }
    });
  },
};
