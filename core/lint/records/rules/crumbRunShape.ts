import { isJsonObject } from '../../../data/fieldPath.ts';
import { describeValue } from '../describeValue.ts';
import type { RecordView } from '../recordView.ts';
import type { RecordRule } from '../rule.ts';

export const crumbRunShape: RecordRule = {
  id: 'crumb-run-shape',
  severity: 'error',
  description:
    'A CRUMB run line whose parts have the wrong type: query must be an object with a non-empty string id, items ' +
    'an array of objects with a string id and a number score. Reported on the offending value.',
  formats: ['jsonl'],
  kinds: ['crumb-run'],
  create({ report }) {
    const at = (record: RecordView, path: readonly (string | number)[], message: string): void => {
      const span = record.valueSpan(path) ?? record.recordSpan();
      report({ line: span.line, column: span.column, endColumn: span.endColumn, message });
    };
    return {
      record(record) {
        const object = record.object;
        if (record.kind !== 'record' || object === undefined) return;
        if (Object.hasOwn(object, 'query')) {
          const query = object.query;
          if (!isJsonObject(query)) {
            at(record, ['query'], `expected 'query' to be an object with a string 'id', found ${describeValue(query)}`);
          } else if (!Object.hasOwn(query, 'id')) {
            at(record, ['query'], "expected 'query' to have a string 'id', found none");
          } else if (typeof query.id !== 'string') {
            at(record, ['query', 'id'], `expected query.id to be a string, found ${describeValue(query.id)}`);
          } else if (query.id.trim() === '') {
            at(record, ['query', 'id'], 'expected query.id to name the query, found an empty string');
          }
        }
        if (!Object.hasOwn(object, 'items')) return;
        const items = object.items;
        if (!Array.isArray(items)) {
          at(record, ['items'], `expected 'items' to be an array of {"id", "score"}, found ${describeValue(items)}`);
          return;
        }
        for (let i = 0; i < items.length; i++) {
          const item: unknown = items[i];
          const name = `items[${i}]`;
          if (!isJsonObject(item)) {
            at(record, ['items', i], `expected ${name} to be an object {"id", "score"}, found ${describeValue(item)}`);
            continue;
          }
          if (!Object.hasOwn(item, 'id')) {
            at(record, ['items', i], `expected ${name} to have a string 'id', found none`);
          } else if (typeof item.id !== 'string') {
            at(record, ['items', i, 'id'], `expected ${name}.id to be a string, found ${describeValue(item.id)}`);
          }
          if (!Object.hasOwn(item, 'score')) {
            at(record, ['items', i], `expected ${name} to have a number 'score', found none`);
          } else if (typeof item.score !== 'number') {
            at(
              record,
              ['items', i, 'score'],
              `expected ${name}.score to be a number, found ${describeValue(item.score)}`,
            );
          }
        }
      },
    };
  },
};
