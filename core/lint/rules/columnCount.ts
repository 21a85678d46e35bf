import { describeColumns } from '../fileFormats.ts';
import type { LintRule } from '../rule.ts';

export const columnCount: LintRule = {
  id: 'column-count',
  severity: 'error',
  description:
    'A line has fewer columns than its format needs (qrels: qid iter docid rel; run: qid Q0 docid rank score tag; ' +
    'BEIR: query-id, corpus-id, score separated by tabs), more than trec_eval accepts in qrels, or is empty where ' +
    'the reader rejects empty lines.',
  fileTypes: ['qrels', 'run', 'beir-qrels'],
  scope: 'query',
  skipsPlainLines: true,
  create({ format, report }) {
    const expected = format.columns.length;
    const shape = describeColumns(format);
    return {
      line(line) {
        if (line.kind === 'blank') {
          if (format.blankLineProblem === undefined) return;
          report({ line: line.number, column: 1, endColumn: line.endColumn(), message: format.blankLineProblem });
          return;
        }
        if (line.kind !== 'content') return;
        const found = line.fieldCount;
        if (found < expected) {
          report({
            line: line.number,
            column: line.column(line.trimmedStart()),
            endColumn: line.column(line.trimmedEnd()),
            message: `expected ${shape}, found ${found}`,
          });
        } else if (found > expected && format.extraColumns === 'error') {
          report({
            line: line.number,
            column: line.fieldColumn(expected),
            endColumn: line.column(line.trimmedEnd()),
            message: `expected ${shape}, found ${found}: ${format.reader} rejects the line as malformed`,
          });
        }
      },
    };
  },
};
