// CSV and TSV with a header row, read as Python's csv module reads them (core/data/delimitedRows.ts: quotes,
// `""`, quoted newlines): one record per row, fields by header name. Unlike csv.DictReader, which pads a short
// row with None and gathers extra fields under the key None, a row whose field count differs from the header's
// is an error at the first missing or extra field.

import { DelimitedRowSplitter, type Separator } from '../data/delimitedRows.ts';
import { decodeLine } from '../data/lineText.ts';
import { countSeparators, isBlankText } from '../data/recordFormat.ts';
import { RecordConverter, type RoleDefaults } from './convert.ts';
import { fieldList, plural, shown } from './describe.ts';
import { ColumnFieldSource } from './fieldSources.ts';
import { lineBatches } from './lineSource.ts';
import { ImportError, type ImportedRecord, type ImportOptions, type SourcePosition } from './types.ts';

/** The separator a header uses (tabs win a tie, as in core/data/recordFormat.ts). */
export function separatorOf(header: string): Separator {
  const { commas, tabs } = countSeparators(header);
  return tabs > 0 && tabs >= commas ? '\t' : ',';
}

export interface DelimitedReadOptions {
  /** The separator; undefined: told from the header. */
  separator?: Separator;
  defaults?: RoleDefaults;
  /** Called with the header before any row: may refuse it (an ImportError) or give the mapping to use. */
  header?: (names: readonly string[], at: SourcePosition) => Record<string, string> | undefined;
}

/** The records of a CSV/TSV file with a header row. */
export async function* readDelimitedRecords(
  path: string,
  options: ImportOptions,
  read: DelimitedReadOptions = {},
): AsyncGenerator<ImportedRecord> {
  const file = options.name ?? path;
  let converter: RecordConverter | undefined;
  let splitter: DelimitedRowSplitter | undefined;
  let header: string[] | undefined;
  let columns: Map<string, number> | undefined;
  for await (const batch of lineBatches(path)) {
    for (const raw of batch) {
      const line = decodeLine(raw.bytes, raw.start, raw.end, raw.number);
      if (!splitter?.open && isBlankText(line.text)) continue;
      if (splitter === undefined) {
        splitter = new DelimitedRowSplitter(read.separator ?? separatorOf(line.text));
        splitter.captureAll = true;
      }
      if (!splitter.addLine(line.text, line.ascii, raw.number, line.crlf)) continue;
      if (header === undefined || columns === undefined || converter === undefined) {
        header = splitter.capturedValues();
        const at = { file, line: splitter.firstLine, column: 1 };
        const mapping = read.header?.(header, at);
        columns = headerColumns(file, splitter, header);
        converter = new RecordConverter(mapping === undefined ? options : { ...options, mapping }, file, read.defaults);
        converter.checkHeader(header, at);
        continue;
      }
      if (splitter.fieldCount !== header.length) throw fieldCountError(file, splitter, header);
      yield converter.convert(
        new ColumnFieldSource(
          file,
          splitter.firstLine,
          header,
          columns,
          splitter.values,
          splitter.startLines,
          splitter.startColumns,
        ),
      );
    }
  }
  if (splitter?.open) {
    throw new ImportError(
      { file, line: splitter.quoteLine, column: splitter.quoteColumn },
      `a closing '"' for the quote opened here`,
      'the end of the file (the quoted field takes in every line after it)',
    );
  }
}

/** Column name → index; a name used twice is an error (which column would a field name mean?). */
function headerColumns(file: string, splitter: DelimitedRowSplitter, header: string[]): Map<string, number> {
  const columns = new Map<string, number>();
  header.forEach((name, index) => {
    const first = columns.get(name);
    if (first !== undefined) {
      throw new ImportError(
        { file, line: splitter.startLines[index]!, column: splitter.startColumns[index]!, field: name },
        'a header of distinct column names',
        `${shown(name)} again (first as column ${first + 1})`,
      );
    }
    columns.set(name, index);
  });
  return columns;
}

/** A row whose field count differs from the header's: an error at its first missing or extra field. */
export function fieldCountError(file: string, splitter: DelimitedRowSplitter, header: string[]): ImportError {
  const count = splitter.fieldCount;
  const expected = `${plural(header.length, 'field')} as in the header (${fieldList(header)})`;
  if (count < header.length) {
    const missing = header[count]!;
    return new ImportError(
      { file, line: splitter.lastLine, column: splitter.rowEndColumn, field: missing },
      expected,
      `${count}: the row ends before ${shown(missing)}`,
    );
  }
  const extra = header.length;
  return new ImportError(
    { file, line: splitter.startLines[extra]!, column: splitter.startColumns[extra]! },
    expected,
    `${count}: ${plural(count - header.length, 'field')} more than the header`,
  );
}
