import { resolveFieldPath } from '../../../data/fieldPath.ts';
import { quote, type RecordRule } from '../rule.ts';

export const missingField: RecordRule = {
  id: 'missing-field',
  severity: 'error',
  description:
    "A JSONL record without a field it needs: one the study maps (`{ id: qid  text: query }`) or one its kind's " +
    "loader reads (BEIR: _id, title, text; CRUMB runs: query, items). Reported on the record's braces.",
  formats: ['jsonl'],
  create({ requiredFields, report }) {
    return {
      record(record) {
        const object = record.object;
        if (record.kind !== 'record' || object === undefined || requiredFields.length === 0) return;
        for (const field of requiredFields) {
          if (resolveFieldPath(object, field.name) !== undefined) continue;
          const span = record.recordSpan();
          report({
            line: span.line,
            column: span.column,
            endColumn: span.endColumn,
            message: `missing field ${quote(field.name)} (${field.reason})`,
          });
        }
      },
    };
  },
};
