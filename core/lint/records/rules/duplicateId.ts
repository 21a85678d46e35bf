import { quote, type RecordRule } from '../rule.ts';

export const duplicateId: RecordRule = {
  id: 'duplicate-id',
  severity: 'error',
  description:
    'Two records with the same id. Loaders keep one of them silently (BEIR: the last), so qrels and hover show a ' +
    'different record than the one you read; in a CRUMB run, a query ranked twice. Reported on the second, ' +
    'pointing at the first.',
  formats: ['jsonl', 'csv', 'tsv'],
  create({ kind, report }) {
    const run = kind === 'crumb-run';
    return {
      record(record) {
        const first = record.first;
        if (record.kind !== 'record' || first === undefined || record.idKey === undefined) return;
        const id = quote(record.idKey);
        const span = record.idSpan();
        report({
          line: span.line,
          column: span.column,
          endLine: span.endLine,
          endColumn: span.endColumn,
          message: run
            ? `query ${id} is ranked again: its ranking is first on line ${first.line} (a run has one ranking per query)`
            : `id ${id} again: first on line ${first.line} (loaders keep only one of them; BEIR keeps the last)`,
          related: {
            line: first.line,
            column: first.column,
            message: run ? `first ranking of query ${id}` : `first record with id ${id}`,
          },
        });
      },
    };
  },
};
