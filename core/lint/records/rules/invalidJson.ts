import type { RecordRule } from '../rule.ts';

export const invalidJson: RecordRule = {
  id: 'invalid-json',
  severity: 'error',
  description:
    'A JSONL line that is not valid (strict) JSON: reported at the first error, with what was expected there and ' +
    'what was found (a missing comma, a trailing comma, single quotes, NaN, a comment, a raw tab in a string). ' +
    'Every JSONL reader rejects the line, most of them by stopping.',
  formats: ['jsonl'],
  create({ report }) {
    return {
      record(record) {
        const error = record.syntaxError;
        if (record.kind !== 'invalid' || error === undefined) return;
        const span = record.span(error.offset, error.offset + error.length);
        report({ line: span.line, column: span.column, endColumn: span.endColumn, message: error.message });
      },
    };
  },
};
