import { quote, type RecordRule } from '../rule.ts';

export const emptyId: RecordRule = {
  id: 'empty-id',
  severity: 'error',
  description:
    'A record whose id is an empty string (or only spaces): no qrels or run line can refer to it, and every other ' +
    'record with an empty id collides with it.',
  formats: ['jsonl', 'csv', 'tsv'],
  kinds: ['records', 'beir-corpus', 'beir-queries'],
  create({ idField, report }) {
    const field = quote(idField ?? '');
    return {
      record(record) {
        if (record.kind !== 'record' || !record.hasId || typeof record.id !== 'string') return;
        if (record.id.trim() !== '') return;
        const span = record.idSpan();
        report({
          line: span.line,
          column: span.column,
          endLine: span.endLine,
          endColumn: span.endColumn,
          message:
            record.id === ''
              ? `expected an id in ${field}, found an empty string: nothing can refer to this record`
              : `expected an id in ${field}, found only spaces: nothing can refer to this record`,
        });
      },
    };
  },
};
