// BEIR datasets (beir-cellar/beir, GenericDataLoader): `corpus.jsonl` records `{_id, title, text}` → documents
// (format plain unless the options say), `queries.jsonl` records `{_id, text}` → queries, other fields kept as
// metadata; `qrels/*.tsv` with the header `query-id<TAB>corpus-id<TAB>score` → judgments. BEIR's loader skips
// the first line of a qrels file whatever it is, so a file without the header silently loses its first
// judgment there: here it is an error. Columns are read by position, as the loader does.
import { splitDelimitedText } from '../data/delimitedRows.ts';
import { isBlankText } from '../data/recordFormat.ts';
import { documentDefaults, queryDefaults } from './convert.ts';
import { readDelimitedRecords } from './delimited.ts';
import { shown } from './describe.ts';
import { readJsonRecords } from './jsonl.ts';
import { ImportError, type ImportedRecord, type Importer, type ImportOptions } from './types.ts';

const qrelsHeader = ['query-id', 'corpus-id', 'score'];

function readBeir(path: string, options: ImportOptions): AsyncIterable<ImportedRecord> {
  if (options.target === 'queries')
    return readJsonRecords(path, options, { ...queryDefaults, id: ['_id'], text: ['text'] });
  if (options.target === 'corpus') {
    return readJsonRecords(path, options, { ...documentDefaults, id: ['_id'], body: ['text'], title: ['title'] });
  }
  return readDelimitedRecords(path, options, {
    separator: '\t',
    header: (names, at) => {
      if (names.length < 3) {
        throw new ImportError(
          at,
          `3 tab-separated columns '${qrelsHeader.join('<TAB>')}'`,
          `${names.length} (${shown(names.join('\t'))})`,
        );
      }
      // A header is words; a judgment line ends with an integer score.
      if (/^[+-]?\d+$/.test(names[2]!.trim())) {
        throw new ImportError(
          at,
          `the header '${qrelsHeader.join('<TAB>')}' on the first line (BEIR's loader skips the first line whatever it holds)`,
          `${shown(names.join('\t'))}, a judgment: it would be lost`,
        );
      }
      return { query_id: names[0]!, doc_id: names[1]!, label: names[2]!, ...options.mapping };
    },
  });
}

export const beirImporter: Importer = {
  id: 'beir',
  description:
    'BEIR: corpus.jsonl {_id, title, text}, queries.jsonl {_id, text}, qrels/*.tsv (query-id corpus-id score)',
  targets: ['queries', 'corpus', 'qrels'],
  detects: (name, firstLines) => {
    if (/(^|[/\\])(corpus|queries)\.jsonl$/i.test(name)) return true;
    const first = firstLines.find((line) => !isBlankText(line));
    if (first === undefined) return false;
    if (/^\s*\{\s*"_id"\s*:/.test(first)) return true;
    const names = splitDelimitedText(first, '\t').map((field) => field.trim());
    return names.length === 3 && names.every((field, i) => field === qrelsHeader[i]);
  },
  read: readBeir,
};
