import { quote, type RecordRule } from '../rule.ts';

export const numericId: RecordRule = {
  id: 'numeric-id',
  severity: 'warning',
  description:
    'A JSONL record whose id is a number, not a string. Loaders disagree on converting it: BEIR keeps an int key ' +
    "that never equals the text '3' of a qrels line, others turn it into text ('3', or '3.0' from 3.0).",
  formats: ['jsonl'],
  kinds: ['records', 'beir-corpus', 'beir-queries'],
  create({ idField, report }) {
    const field = quote(idField ?? '');
    return {
      record(record) {
        if (record.kind !== 'record' || !record.hasId || typeof record.id !== 'number') return;
        const span = record.idSpan();
        const written = record.idText() ?? String(record.id);
        report({
          line: span.line,
          column: span.column,
          endColumn: span.endColumn,
          message:
            `expected the id ${field} to be a string, found the number ${written}: loaders disagree on converting ` +
            `it (an int key never matches the text '${record.idKey}' in qrels); write it as "${record.idKey}"`,
        });
      },
    };
  },
};
