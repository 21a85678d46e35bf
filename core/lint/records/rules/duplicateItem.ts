import { isJsonObject } from '../../../data/fieldPath.ts';
import { quote, type RecordRule } from '../rule.ts';

export const duplicateItem: RecordRule = {
  id: 'duplicate-item',
  severity: 'error',
  description:
    'The same document twice in one ranking of a CRUMB run: trec_eval aborts on a duplicate docid in a ranking, ' +
    'and measures count the document twice otherwise. Reported on the second, pointing at the first.',
  formats: ['jsonl'],
  kinds: ['crumb-run'],
  create({ report }) {
    return {
      record(record) {
        const object = record.object;
        if (record.kind !== 'record' || object === undefined || !Array.isArray(object.items)) return;
        const items: unknown[] = object.items;
        const firstIndex = new Map<string, number>();
        const query = isJsonObject(object.query) && typeof object.query.id === 'string' ? object.query.id : undefined;
        const ofQuery = query === undefined ? '' : ` for query ${quote(query)}`;
        for (let i = 0; i < items.length; i++) {
          const item = items[i];
          if (!isJsonObject(item) || typeof item.id !== 'string') continue;
          const first = firstIndex.get(item.id);
          if (first === undefined) {
            firstIndex.set(item.id, i);
            continue;
          }
          const span = record.valueSpan(['items', i, 'id']) ?? record.recordSpan();
          const firstSpan = record.valueSpan(['items', first, 'id']) ?? span;
          const id = quote(item.id);
          report({
            line: span.line,
            column: span.column,
            endColumn: span.endColumn,
            message:
              `document ${id} is ranked again${ofQuery}: first as item ${first + 1} (trec_eval aborts on a ` +
              'duplicate docid in a ranking)',
            related: { line: firstSpan.line, column: firstSpan.column, message: `first ranking of ${id}` },
          });
        }
      },
    };
  },
};
