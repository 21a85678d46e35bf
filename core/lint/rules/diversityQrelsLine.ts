import { parseDiversityLine } from '../../formats/diversityQrels.ts';
import type { LintRule } from '../rule.ts';

// The same check as the reader `eval --as ndeval` uses (core/formats/diversityQrels.ts), so lint reports exactly
// the lines the evaluation would stop at, with the same message.
export const diversityQrelsLine: LintRule = {
  id: 'diversity-qrels-line',
  severity: 'error',
  description:
    'A diversity qrels line (topic subtopic docno grade) that ndeval cannot read: a missing column (often the ' +
    'subtopic), a subtopic that is not an integer ≥ 0, a grade that is not an integer, or extra columns.',
  fileTypes: ['diversity-qrels'],
  scope: 'query',
  create({ report }) {
    return {
      line(line) {
        if (line.kind !== 'content') return;
        // latin1: one character per byte, so the reader's columns are byte offsets into the line.
        const text = Buffer.from(line.bytes.subarray(line.start, line.end)).toString('latin1');
        const { problem } = parseDiversityLine(text, line.number);
        if (!problem) return;
        const column = line.column(line.start + Math.min(problem.column - 1, text.length));
        report({
          line: line.number,
          column,
          endColumn: Math.max(column, line.column(line.end)),
          message: problem.message,
        });
      },
    };
  },
};
