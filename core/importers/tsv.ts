// TSV with a header row, fields through the mapping (other columns kept as metadata, as strings). A TSV without
// a header is TREC topics (trecTopics.ts) or TREC qrels (trecQrels.ts).
import { detectRecordFormat, formatFromFileName } from '../data/recordFormat.ts';
import { readDelimitedRecords } from './delimited.ts';
import type { Importer } from './types.ts';

export const tsvImporter: Importer = {
  id: 'tsv',
  description: 'TSV with a header row, fields through the mapping',
  targets: ['queries', 'corpus', 'qrels', 'labels'],
  detects: (name, firstLines) =>
    formatFromFileName(name) === 'tsv' ||
    (formatFromFileName(name) === undefined && detectRecordFormat(firstLines) === 'tsv'),
  read: (path, options) => readDelimitedRecords(path, options, { separator: '\t' }),
};
