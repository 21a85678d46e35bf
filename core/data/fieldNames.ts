// The field names of a data file, for the study file's field mappings: completion offers them, and "field not in
// the data file" is checked against them. JSONL: the union of top-level keys over the first records (records of
// generated files do not all carry every key), plus `parent.child` for the keys of nested objects such as BEIR's
// `metadata`; CSV/TSV: the header. Never rejects: a file that cannot be read or understood is a user-facing
// problem ("data/q.jsonl: cannot read: no such file").
import { FileReadError, readLines } from '../formats/lineReader.ts';
import { DelimitedRowSplitter } from './delimitedRows.ts';
import { isJsonObject } from './fieldPath.ts';
import { decodeLine } from './lineText.ts';
import { detectRecordFormat, formatFromFileName, isBlankText, type RecordFormat } from './recordFormat.ts';

export interface FieldNameOptions {
  /** Read as this format instead of telling it from the content. */
  format?: RecordFormat;
  /** JSONL lines looked at (blank lines aside); default 100. */
  sampleRecords?: number;
}

/** A nested object with more keys than this holds data (a map of scores, a table), not named fields. */
const maxNestedKeys = 50;

export async function readFieldNames(
  path: string,
  options: FieldNameOptions = {},
): Promise<{ fields: string[] } | { problem: string }> {
  const sampleRecords = Math.max(1, options.sampleRecords ?? 100);
  let format = options.format;
  const fields = new Set<string>();
  let problem: string | undefined;
  let sampled = 0;
  let objects = 0;
  let firstBadLine = 0;
  let header: DelimitedRowSplitter | undefined;
  let headerDone = false;

  const onLine = (bytes: Uint8Array, start: number, end: number, lineNumber: number): boolean => {
    const line = decodeLine(bytes, start, end, lineNumber);
    if (!header?.open && isBlankText(line.text)) return true;
    if (format === undefined) {
      format = detectRecordFormat([line.text]) ?? formatFromFileName(path);
      if (format === undefined) {
        problem =
          `${path}: cannot tell the format: line ${lineNumber} is neither a JSON object (JSONL) nor a header ` +
          'with commas (CSV) or tabs (TSV)';
        return false;
      }
    }
    if (format === 'jsonl') {
      sampled++;
      let value: unknown;
      try {
        value = JSON.parse(line.text);
      } catch {
        value = undefined;
      }
      if (isJsonObject(value)) {
        objects++;
        addKeys(value, fields);
      } else if (firstBadLine === 0) {
        firstBadLine = lineNumber;
      }
      return sampled < sampleRecords;
    }
    header ??= new DelimitedRowSplitter(format === 'csv' ? ',' : '\t');
    header.captureAll = true;
    if (!header.addLine(line.text, line.ascii, lineNumber, line.crlf)) return true;
    headerDone = true;
    for (const name of header.capturedValues()) if (name !== '') fields.add(name);
    return false;
  };

  try {
    await readLines(path, onLine);
  } catch (error) {
    if (error instanceof FileReadError) return { problem: error.message };
    return { problem: `${path}: cannot read: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (problem !== undefined) return { problem };
  if (format === undefined) return { problem: `${path}: no records: the file is empty` };
  if (format === 'jsonl' && objects === 0) {
    return {
      problem: `${path}: no JSON object in the first ${sampled === 1 ? 'line' : `${sampled} lines`} (line ${firstBadLine} is not one)`,
    };
  }
  if (format !== 'jsonl' && !headerDone) {
    return { problem: `${path}: the header's quoted field is never closed` };
  }
  return { fields: [...fields] };
}

function addKeys(record: Record<string, unknown>, fields: Set<string>): void {
  for (const key in record) {
    fields.add(key);
    const value = record[key];
    if (!isJsonObject(value)) continue;
    let count = 0;
    for (const _ in value) if (++count > maxNestedKeys) break;
    if (count > maxNestedKeys) continue;
    for (const child in value) fields.add(`${key}.${child}`);
  }
}
