import { repeatableStatements } from '../keywords.ts';
import { blockLabel, eachBlock, type StudyCheck } from './check.ts';

export const repeatedStatement: StudyCheck = {
  code: 'repeated-statement',
  severity: 'error',
  description:
    'A statement that a block takes once (title, guidelines, queries, corpus, scale, derive, annotators, …) given ' +
    'twice: which one applies would be a guess. Reported on the second.',
  check(context) {
    eachBlock(context, (block, report) => {
      const first = new Map<string, { start: number; end: number }>();
      for (const statement of block.statements) {
        if (repeatableStatements.has(statement.kind)) continue;
        const earlier = first.get(statement.kind);
        if (!earlier) {
          first.set(statement.kind, statement.keyword);
          continue;
        }
        report({
          range: statement.keyword,
          message: `\`${statement.kind}\` is already given in ${blockLabel(block)}: expected one \`${statement.kind}\` statement`,
          related: { range: earlier, message: `first \`${statement.kind}\`` },
        });
      }
    });
  },
};
