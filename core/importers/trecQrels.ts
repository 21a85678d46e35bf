// TREC qrels, `qid iter docid rel`, as judgments with positions: fields split on any run of whitespace, `iter`
// ignored, `#` comment lines and blank lines skipped (core/formats/trecFields.ts, as the evaluator reads them). A
// label must be an integer: trec_eval reads it with atol, which turns `1.5` into 1 without a word; an import
// refuses it. A (qid, docid) judged twice is an error naming both lines (trec_eval aborts on it).
import { hasByteOrderMark } from '../data/lineText.ts';
import { formatFromFileName } from '../data/recordFormat.ts';
import { columnOf, FieldSplitter, fieldText, isBlankLine, parseIntegerField } from '../formats/trecFields.ts';
import { detach } from './convert.ts';
import { plural, shown } from './describe.ts';
import { lineBatches } from './lineSource.ts';
import { ImportError, type ImportedRecord, type Importer, type ImportOptions } from './types.ts';

function fieldCountNote(count: number): string {
  if (count === 5) return ' (5 columns: statAP/MQ prels, not qrels?)';
  if (count === 6) return " (6 columns: a TREC run 'qid Q0 docid rank score tag', not qrels?)";
  if (count === 3) return " (3 columns: BEIR qrels 'query-id corpus-id score' need their header line)";
  return '';
}

async function* readTrecQrels(path: string, options: ImportOptions): AsyncGenerator<ImportedRecord> {
  const file = options.name ?? path;
  const fields = new FieldSplitter(5);
  const seen = new Map<string, number>();
  for await (const batch of lineBatches(path)) {
    for (const { bytes, start: lineStart, end, number } of batch) {
      const start = number === 1 && hasByteOrderMark(bytes, lineStart, end) ? lineStart + 3 : lineStart;
      if (bytes[start] === 35 || isBlankLine(bytes, start, end)) continue;
      const count = fields.split(bytes, start, end);
      const { starts, ends } = fields;
      if (count !== 4) {
        const column = columnOf(bytes, start, count > 4 ? starts[4]! : end);
        throw new ImportError(
          { file, line: number, column },
          "4 fields 'qid iter docid rel'",
          `${plural(count, 'field')}${fieldCountNote(count)}`,
        );
      }
      const label = parseIntegerField(bytes, starts[3]!, ends[3]!);
      if (!Number.isSafeInteger(label)) {
        const text = fieldText(bytes, starts[3]!, ends[3]!);
        const atol = /^[+-]?\d/.test(text) ? ` (trec_eval's atol would read ${Number.parseInt(text, 10)})` : '';
        throw new ImportError(
          { file, line: number, column: columnOf(bytes, start, starts[3]!), field: 'rel' },
          'an integer relevance label',
          `${shown(text)}${atol}`,
        );
      }
      const qid = bytes.toString('utf8', starts[0]!, ends[0]!);
      const docid = bytes.toString('utf8', starts[2]!, ends[2]!);
      const key = `${qid}\u0000${docid}`;
      const first = seen.get(key);
      if (first !== undefined) {
        throw new ImportError(
          { file, line: number, column: columnOf(bytes, start, starts[2]!), field: 'docid' },
          'one judgment per query and document (trec_eval refuses duplicates)',
          `a judgment of ${shown(docid)} for query ${shown(qid)} again (first on line ${first})`,
          { file, line: first },
        );
      }
      seen.set(detach(key), number);
      yield {
        kind: 'judgment',
        qid,
        docid,
        label,
        at: { file, line: number, column: columnOf(bytes, start, starts[0]!) },
      };
    }
  }
}

export const trecQrelsImporter: Importer = {
  id: 'trec-qrels',
  description: 'TREC qrels: qid iter docid rel, whitespace-separated, # comments',
  // As labels (`import --labels FILE --annotator NAME`): one person's judgments, recorded under their name.
  targets: ['qrels', 'labels'],
  detects: (name, firstLines) => {
    const format = formatFromFileName(name);
    if (format === 'jsonl' || format === 'csv') return false;
    // The first data line decides: a malformed line further down is the reader's to report, with its position.
    const first = firstLines.find((line) => !line.startsWith('#') && line.trim() !== '');
    const fields = first?.trim().split(/\s+/) ?? [];
    return fields.length === 4 && /^[+-]?\d+(\.\d*)?$/.test(fields[3]!);
  },
  read: readTrecQrels,
};
