// CSV with a header row, fields through the mapping (other columns kept as metadata, as strings).
import { detectRecordFormat, formatFromFileName } from '../data/recordFormat.ts';
import { readDelimitedRecords } from './delimited.ts';
import type { Importer } from './types.ts';

export const csvImporter: Importer = {
  id: 'csv',
  description: 'CSV with a header row (Python csv quoting), fields through the mapping',
  targets: ['queries', 'corpus', 'qrels', 'labels'],
  detects: (name, firstLines) =>
    formatFromFileName(name) === 'csv' ||
    (formatFromFileName(name) === undefined && detectRecordFormat(firstLines) === 'csv'),
  read: (path, options) => readDelimitedRecords(path, options, { separator: ',' }),
};
