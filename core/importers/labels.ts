// Long-format label files, as `qrels-studio export --labels` writes them and teams exchange them through git: a
// CSV (or TSV) header with `query_id, doc_id, annotator, label` and the provenance columns `created_at, source,
// rationale`, one judgment per row. Every judgment names its annotator; a judgment is identified by annotator,
// pair and time, so the same four twice in one file is an error naming both lines.
import { splitDelimitedText } from '../data/delimitedRows.ts';
import { isBlankText } from '../data/recordFormat.ts';
import { judgmentDefaults } from './convert.ts';
import { readDelimitedRecords, separatorOf } from './delimited.ts';
import type { Importer } from './types.ts';

/** The columns that make a header a label file's. */
const labelColumns = ['query_id', 'doc_id', 'annotator', 'label'];

export const labelsImporter: Importer = {
  id: 'labels',
  description:
    'long-format labels: CSV/TSV header query_id, doc_id, annotator, label [, created_at, source, rationale]',
  targets: ['labels'],
  detects: (_name, firstLines) => {
    const header = firstLines.find((line) => !isBlankText(line));
    if (header === undefined || header.trimStart().startsWith('{')) return false;
    const names = splitDelimitedText(header, separatorOf(header)).map((name) => name.trim());
    return labelColumns.every((column) => names.includes(column));
  },
  read: (path, options) => readDelimitedRecords(path, options, { defaults: judgmentDefaults }),
};
