import type { RecordRule } from '../rule.ts';

export const noRecords: RecordRule = {
  id: 'no-records',
  severity: 'warning',
  description:
    'The file holds no records at all: it is empty, holds only blank lines, or is a CSV/TSV header with no rows. ' +
    'A study pointing at it has no queries or documents to show.',
  formats: [],
};
