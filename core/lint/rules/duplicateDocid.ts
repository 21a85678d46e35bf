import { type LintRule, quote } from '../rule.ts';

export const duplicateDocid: LintRule = {
  id: 'duplicate-docid',
  severity: 'error',
  description:
    'The same document twice in one query\'s ranking. trec_eval aborts on it ("duplicate docs"). Reported on ' +
    'the second occurrence, pointing at the first.',
  fileTypes: ['run'],
  create({ format, queries, pairs, report }) {
    const field = format.docidField;
    return {
      line(line) {
        if (line.firstPair < 0 || line.kind !== 'content') return;
        const first = line.firstPair;
        const docid = quote(line.fieldText(field));
        const query = quote(queries.text(line.qid));
        const firstLine = pairs.line(first);
        report({
          line: line.number,
          column: line.fieldColumn(field),
          endColumn: line.fieldEndColumn(field),
          message: `document ${docid} is ranked again for query ${query}: first ranked on line ${firstLine} (trec_eval aborts on it)`,
          related: {
            line: firstLine,
            column: pairs.column(first),
            message: `first ranking of ${docid} for query ${query}`,
          },
        });
      },
    };
  },
};
