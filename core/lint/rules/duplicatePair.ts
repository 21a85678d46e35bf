import { type LintRule, quote } from '../rule.ts';

export const duplicatePair: LintRule = {
  id: 'duplicate-pair',
  severity: 'error',
  description:
    'The same (query, document) pair judged twice. trec_eval aborts on it ("duplicate docs"); the BEIR loader ' +
    'silently keeps the last label. Reported on the second occurrence, pointing at the first.',
  fileTypes: ['qrels', 'beir-qrels'],
  create({ format, queries, pairs, report }) {
    const field = format.docidField;
    const consequence = format.type === 'beir-qrels' ? 'the BEIR loader keeps only the last' : 'trec_eval aborts on it';
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
          message: `document ${docid} is judged again for query ${query}: first judged on line ${firstLine} (${consequence})`,
          related: {
            line: firstLine,
            column: pairs.column(first),
            message: `first judgment of ${docid} for query ${query}`,
          },
        });
      },
    };
  },
};
