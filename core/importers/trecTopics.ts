// TREC topics as TSV: `qid<TAB>text`, no header (MS MARCO's queries.*.tsv, Anserini's topics.*.tsv). The text is
// everything after the tab, verbatim: no quoting (query texts carry unbalanced `"`). A second tab is an error, as
// it is for the readers that split such lines into two fields (Pyserini, ir_datasets).
import { decodeLine } from '../data/lineText.ts';
import { formatFromFileName, isBlankText } from '../data/recordFormat.ts';
import { RecordConverter } from './convert.ts';
import { ColumnFieldSource, columnAt } from './fieldSources.ts';
import { lineBatches } from './lineSource.ts';
import { ImportError, type ImportedRecord, type Importer, type ImportOptions } from './types.ts';

const header = ['qid', 'text'];
const columns = new Map(header.map((name, index) => [name, index]));

/** A first line that names columns rather than holding a query. */
function isHeaderLike(qid: string, text: string): boolean {
  return /^(_?id|qid|query[-_ ]?id|topic[-_ ]?id|num(ber)?)$/i.test(qid) || /^(text|query|title|question)$/i.test(text);
}

async function* readTopics(path: string, options: ImportOptions): AsyncGenerator<ImportedRecord> {
  const file = options.name ?? path;
  const converter = new RecordConverter({ target: 'queries' }, file, { id: ['qid'], text: ['text'] });
  const lines = [0, 0];
  const starts = [1, 1];
  for await (const batch of lineBatches(path)) {
    for (const raw of batch) {
      const line = decodeLine(raw.bytes, raw.start, raw.end, raw.number);
      const text = line.text;
      if (isBlankText(text)) continue;
      const tab = text.indexOf('\t');
      if (tab === -1) {
        throw new ImportError(
          { file, line: raw.number, column: columnAt(text, line.ascii, text.length) },
          "2 tab-separated fields 'qid<TAB>text'",
          '1 field (no tab on the line)',
        );
      }
      const second = text.indexOf('\t', tab + 1);
      if (second !== -1) {
        throw new ImportError(
          { file, line: raw.number, column: columnAt(text, line.ascii, second) },
          "2 tab-separated fields 'qid<TAB>text'",
          'a second tab (more than 2 fields)',
        );
      }
      lines[0] = lines[1] = raw.number;
      starts[1] = columnAt(text, line.ascii, tab + 1);
      const values = [text.slice(0, tab), text.slice(tab + 1)];
      yield converter.convert(new ColumnFieldSource(file, raw.number, header, columns, values, lines, starts));
    }
  }
}

export const trecTopicsImporter: Importer = {
  id: 'trec-topics',
  description: 'TREC topics as TSV: qid<TAB>text per line, no header',
  targets: ['queries'],
  detects: (name, firstLines) => {
    if (formatFromFileName(name) === 'csv' || formatFromFileName(name) === 'jsonl') return false;
    const content = firstLines.filter((line) => !isBlankText(line));
    const first = content[0];
    if (first === undefined || first.trimStart().startsWith('{')) return false;
    const [qid = '', text = ''] = first.split('\t');
    if (isHeaderLike(qid, text)) return false;
    // The first line and most of the others: a malformed line is the reader's to report, with its position.
    const topicLike = (line: string): boolean => {
      const fields = line.split('\t');
      return fields.length === 2 && fields[0] !== '' && !/\s/.test(fields[0]!);
    };
    return topicLike(first) && content.filter(topicLike).length * 2 > content.length;
  },
  read: readTopics,
};
