// The Hugging Face dataset-viewer copy (a page of the viewer's table pasted as text, as in seed 003): a header of
// `name`/`type` line pairs (`text`/`string`, `source`/`string`), then one line per column per record. Values are
// kept verbatim (the copy's `\n` are the two characters the viewer shows); typed columns (int64, float64, bool)
// become numbers and booleans. Records have no id of their own: a document's id is `<source>#<ordinal>`, the
// 0-based position of the record among the records of the same source (the column mapped to `source`, default
// `source`), stable as long as the copy keeps its order; with no source column it is the record's 0-based
// position in the file. A mapped `id` column replaces this. Columns no role takes (the source) are metadata.
import { decodeLine } from '../data/lineText.ts';
import { documentDefaults, queryDefaults, RecordConverter } from './convert.ts';
import { plural, shown } from './describe.ts';
import { ColumnFieldSource } from './fieldSources.ts';
import { lineBatches } from './lineSource.ts';
import { ImportError, type ImportedRecord, type Importer, type ImportOptions } from './types.ts';

const columnName = /^[A-Za-z_][\w .-]{0,99}$/;
const columnType =
  /^(string|large_string|bool|u?int(8|16|32|64)|float(16|32|64)|double|binary|large_binary|date(32|64)|timestamp\[[^\]]+\]|null|list(<.*>)?|large_list(<.*>)?|struct(<.*>)?|sequence|dict|json|image|audio|class_label)$/;

/** The name of the virtual column holding the derived id. */
const derivedId = '<source>#<ordinal>';

interface Column {
  name: string;
  type: string;
}

/** A value of a typed column; undefined when the text is not one. */
function typedValue(text: string, type: string): unknown {
  if (type === 'string' || type === 'large_string') return text;
  if (text === 'null' || text === '') return null;
  if (/^u?int/.test(type)) {
    if (!/^[+-]?\d+$/.test(text)) return undefined;
    const value = Number(text);
    return Number.isSafeInteger(value) ? value : text;
  }
  if (/^(float|double)/.test(type)) {
    const value = Number(text);
    return Number.isNaN(value) && text !== 'NaN' ? undefined : value;
  }
  if (type === 'bool') return text === 'true' ? true : text === 'false' ? false : undefined;
  return text;
}

async function* readViewerCopy(path: string, options: ImportOptions): AsyncGenerator<ImportedRecord> {
  const file = options.name ?? path;
  const columns: Column[] = [];
  let headerDone = false;
  /** Lines read but not yet placed: a name line waiting for its type line. */
  let pending: { text: string; line: number } | undefined;
  let converter: RecordConverter | undefined;
  let header: string[] = [];
  let indexes = new Map<string, number>();
  let values: unknown[] = [];
  let lines: number[] = [];
  let sourceColumn = -1;
  const ordinals = new Map<string, number>();
  let records = 0;

  const startRecords = (): void => {
    headerDone = true;
    if (columns.length === 0) return;
    header = [...columns.map((c) => c.name), derivedId];
    indexes = new Map(header.map((name, index) => [name, index]));
    const sourceName = options.mapping?.source;
    if (sourceName !== undefined && !indexes.has(sourceName)) {
      throw new ImportError(
        { file, line: 1, column: 1, field: sourceName },
        `a column ${shown(sourceName)} (mapped to source, the ids' prefix)`,
        `columns ${columns.map((c) => shown(c.name)).join(', ')}`,
      );
    }
    sourceColumn = indexes.get(sourceName ?? 'source') ?? -1;
    const defaults = options.target === 'queries' ? queryDefaults : documentDefaults;
    converter = new RecordConverter(options, file, { ...defaults, id: [derivedId] });
    converter.checkHeader(header, { file, line: 1, column: 1 });
  };

  /** Places one value line; returns a record when it completes one. */
  const place = (text: string, line: number): ImportedRecord | undefined => {
    const index = values.length;
    const column = columns[index]!;
    const value = typedValue(text, column.type);
    if (value === undefined) {
      throw new ImportError(
        { file, line, column: 1, field: column.name },
        `${/^[aeiou]/.test(column.type) ? 'an' : 'a'} ${column.type} value for column ${shown(column.name)}`,
        shown(text),
      );
    }
    values.push(value);
    lines.push(line);
    if (values.length < columns.length) return undefined;
    const source = sourceColumn >= 0 ? String(values[sourceColumn] ?? '') : undefined;
    let id: string;
    if (source === undefined) id = String(records);
    else {
      const ordinal = ordinals.get(source) ?? 0;
      ordinals.set(source, ordinal + 1);
      id = `${source}#${ordinal}`;
    }
    records++;
    values.push(id);
    lines.push(lines[0]!);
    const record = converter!.convert(new ColumnFieldSource(file, lines[0]!, header, indexes, values, lines));
    values = [];
    lines = [];
    return record;
  };

  let last = 0;
  for await (const batch of lineBatches(path)) {
    for (const raw of batch) {
      const { text } = decodeLine(raw.bytes, raw.start, raw.end, raw.number);
      last = raw.number;
      if (!headerDone) {
        if (pending === undefined) {
          pending = { text, line: raw.number };
          continue;
        }
        if (columnName.test(pending.text) && columnType.test(text)) {
          columns.push({ name: pending.text, type: text });
          pending = undefined;
          continue;
        }
        if (columns.length === 0) {
          throw new ImportError(
            { file, line: raw.number, column: 1 },
            `a column type (string, int64, float64, bool…) after the column name ${shown(pending.text)}`,
            shown(text),
          );
        }
        startRecords();
        const held = pending;
        pending = undefined;
        const first = place(held.text, held.line);
        if (first !== undefined) yield first;
      }
      const record = place(text, raw.number);
      if (record !== undefined) yield record;
    }
  }
  if (!headerDone) {
    if (pending !== undefined && columns.length === 0) {
      throw new ImportError(
        { file, line: pending.line, column: 1 },
        `a column type line after the column name ${shown(pending.text)}`,
        'the end of the file',
      );
    }
    startRecords();
    if (pending !== undefined) {
      const record = place(pending.text, pending.line);
      if (record !== undefined) yield record;
    }
  }
  if (values.length > 0) {
    throw new ImportError(
      { file, line: last, column: 1 },
      `${plural(columns.length, 'line')} per record (${columns.map((c) => c.name).join(', ')})`,
      `the end of the file after ${plural(values.length, 'line')} of the last record (line ${lines[0]} on)`,
    );
  }
}

/**
 * The column names of a viewer copy from its first lines (the name/type pairs of its header), or undefined when
 * the lines do not start like one. The study file's field checks read a copy's fields through this.
 */
export function viewerCopyColumns(firstLines: readonly string[]): string[] | undefined {
  const columns: string[] = [];
  for (let i = 0; i + 1 < firstLines.length; i += 2) {
    if (!columnName.test(firstLines[i]!) || !columnType.test(firstLines[i + 1]!)) break;
    columns.push(firstLines[i]!);
  }
  return columns.length > 0 ? columns : undefined;
}

export const hfViewerImporter: Importer = {
  id: 'hf-viewer',
  description: 'Hugging Face dataset-viewer copy: name/type line pairs, then one line per column per record',
  targets: ['corpus', 'queries'],
  detects: (_name, firstLines) =>
    firstLines.length >= 2 && columnName.test(firstLines[0]!) && columnType.test(firstLines[1]!),
  read: readViewerCopy,
};
