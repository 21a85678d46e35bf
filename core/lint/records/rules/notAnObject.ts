import { describeValue } from '../describeValue.ts';
import type { RecordRule } from '../rule.ts';

export const notAnObject: RecordRule = {
  id: 'not-an-object',
  severity: 'error',
  description:
    'A JSONL line that is valid JSON but not an object (an array, a string, a number): a record is an object ' +
    'with named fields, and loaders index it by key (`line["_id"]`), which fails on anything else.',
  formats: ['jsonl'],
  create({ report }) {
    return {
      record(record) {
        if (record.kind !== 'value') return;
        const span = record.recordSpan();
        const array = Array.isArray(record.value)
          ? ' (a JSON array on one line: is this a .json file rather than JSONL?)'
          : '';
        report({
          line: span.line,
          column: span.column,
          endColumn: span.endColumn,
          message: `expected a JSON object ('{…}') on each line, found ${describeValue(record.value)}${array}`,
        });
      },
    };
  },
};
