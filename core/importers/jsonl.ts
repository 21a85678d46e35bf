// JSON Lines: one JSON object per line (blank lines skipped), fields through the mapping. Invalid JSON is an
// error at the exact character where it stops being JSON (core/lint/records/jsonSyntaxError.ts).
import { isJsonObject } from '../data/fieldPath.ts';
import { decodeLine, type LineText } from '../data/lineText.ts';
import { detectRecordFormat, formatFromFileName, isBlankText } from '../data/recordFormat.ts';
import { findJsonSyntaxError } from '../lint/records/jsonSyntaxError.ts';
import { RecordConverter, type RoleDefaults } from './convert.ts';
import { describeFound } from './describe.ts';
import { columnAt, ObjectFieldSource } from './fieldSources.ts';
import { lineBatches } from './lineSource.ts';
import { ImportError, type ImportedRecord, type Importer, type ImportOptions } from './types.ts';

/** The records of a JSONL file; `defaults` replaces the target's default fields (BEIR: `_id`). */
export async function* readJsonRecords(
  path: string,
  options: ImportOptions,
  defaults?: RoleDefaults,
): AsyncGenerator<ImportedRecord> {
  const file = options.name ?? path;
  const converter = new RecordConverter(options, file, defaults);
  for await (const batch of lineBatches(path)) {
    for (const raw of batch) {
      const line = decodeLine(raw.bytes, raw.start, raw.end, raw.number);
      if (isBlankText(line.text)) continue;
      let value: unknown;
      try {
        value = JSON.parse(line.text);
      } catch (error) {
        throw jsonError(file, raw.number, line, error);
      }
      if (!isJsonObject(value)) {
        const column = columnAt(line.text, line.ascii, line.text.length - line.text.trimStart().length);
        throw new ImportError({ file, line: raw.number, column }, "a JSON object ('{')", describeFound(value));
      }
      yield converter.convert(new ObjectFieldSource(file, raw.number, value, line.text, line.ascii));
    }
  }
}

/** A line JSON.parse refused, as an ImportError at the first error's character. */
export function jsonError(file: string, lineNumber: number, line: LineText, nativeError: unknown): ImportError {
  const error = findJsonSyntaxError(line.text, nativeError);
  const at = { file, line: lineNumber, column: columnAt(line.text, line.ascii, error.offset) };
  const match = /^(?:(.*?): )?expected (.+?), found (.+)$/s.exec(error.message);
  if (match) {
    const [, note, expected, found] = match;
    return new ImportError(at, expected!, note === undefined ? found! : `${found} (${note})`);
  }
  const open = /^(.*?): expected (.+)$/s.exec(error.message);
  if (open) return new ImportError(at, open[2]!, `the end of the line (${open[1]})`);
  return new ImportError(at, 'valid JSON', error.message);
}

export const jsonlImporter: Importer = {
  id: 'jsonl',
  description: 'JSON Lines: one object per line, fields through the mapping (other fields kept as metadata)',
  targets: ['queries', 'corpus', 'qrels', 'labels'],
  detects: (name, firstLines) =>
    formatFromFileName(name) === 'jsonl' ||
    (formatFromFileName(name) === undefined && detectRecordFormat(firstLines) === 'jsonl'),
  read: (path, options) => readJsonRecords(path, options),
};
