import type { RecordRule } from '../rule.ts';

export const blankLine: RecordRule = {
  id: 'blank-line',
  severity: 'error',
  description:
    "A blank line in a JSONL file. Readers that call json.loads on every line fail on it (json.loads('') raises), " +
    "BEIR's loader among them; a blank last line (two newlines at the end) is enough.",
  formats: ['jsonl'],
  create({ report }) {
    return {
      record(record) {
        if (record.kind !== 'blank') return;
        const span = record.span(0, record.text.length);
        report({
          line: span.line,
          column: span.column,
          endColumn: span.endColumn,
          message:
            "expected a JSON object, found a blank line: json.loads fails on it (BEIR's loader stops with a " +
            'JSONDecodeError)',
        });
      },
    };
  },
};
