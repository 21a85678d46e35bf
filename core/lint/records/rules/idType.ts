import { describeValue } from '../describeValue.ts';
import { quote, type RecordRule } from '../rule.ts';

export const idType: RecordRule = {
  id: 'id-type',
  severity: 'error',
  description:
    'A JSONL record whose id is not a string or a number (null, true, an object, an array): qrels and runs hold ' +
    'ids as text, so nothing can refer to it.',
  formats: ['jsonl'],
  kinds: ['records', 'beir-corpus', 'beir-queries'],
  create({ idField, report }) {
    const field = quote(idField ?? '');
    return {
      record(record) {
        if (record.kind !== 'record' || !record.hasId) return;
        const type = typeof record.id;
        if (type === 'string' || type === 'number') return;
        const span = record.idSpan();
        report({
          line: span.line,
          column: span.column,
          endColumn: span.endColumn,
          message: `expected the id ${field} to be a string, found ${describeValue(record.id)}`,
        });
      },
    };
  },
};
