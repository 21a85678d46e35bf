// The items a `review` block declares (`items "gen.jsonl" { id: iid  text: instruction  parent: qid  type: type
// model: generator  source: original }`), read from JSONL, CSV or TSV (with a header). Every problem is an
// ImportError at its line and column: a line that is not a JSON object, a missing id or text, an id twice, a row with
// the wrong field count.
import { DelimitedRowSplitter, type Separator } from '../data/delimitedRows.ts';
import { fieldValue, isJsonObject } from '../data/fieldPath.ts';
import { decodeLine } from '../data/lineText.ts';
import { isBlankText } from '../data/recordFormat.ts';
import { separatorOf } from '../importers/delimited.ts';
import { lineBatches } from '../importers/lineSource.ts';
import { ImportError } from '../importers/types.ts';

export interface ReviewItemRecord {
  id: string;
  text: string;
  parent?: string;
  type?: string;
  model?: string;
  /** The text the item was generated from (a rewrite's original). */
  source?: string;
  line: number;
}

const roles = ['id', 'text', 'parent', 'type', 'model', 'source'] as const;
type Role = (typeof roles)[number];

/** Reads the items of `path` (`name` in positions); `fields` maps roles to field names (default: the role's name). */
export async function readReviewItems(
  path: string,
  fields: Record<string, string>,
  name = path,
): Promise<ReviewItemRecord[]> {
  const fieldOf = (role: Role) => fields[role] ?? role;
  const items: ReviewItemRecord[] = [];
  const seen = new Map<string, number>();
  let format: 'jsonl' | Separator | undefined;
  let splitter: DelimitedRowSplitter | undefined;
  let header: string[] | undefined;
  const add = (values: (role: Role) => unknown, line: number, columnOf: (role: Role) => number) => {
    const text = (role: Role): string | undefined => {
      const value = values(role);
      if (value === undefined || value === null) return undefined;
      if (typeof value !== 'string' && typeof value !== 'number') {
        throw new ImportError({ file: name, line, column: columnOf(role) }, `text in '${fieldOf(role)}'`, typeof value);
      }
      return String(value);
    };
    const id = text('id');
    const itemText = text('text');
    for (const [role, value] of [
      ['id', id],
      ['text', itemText],
    ] as const) {
      if (value === undefined || value.trim() === '') {
        throw new ImportError(
          { file: name, line, column: columnOf(role) },
          `the item's ${role} in '${fieldOf(role)}'`,
          value === undefined ? 'no such field' : 'an empty value',
        );
      }
    }
    const first = seen.get(id!);
    if (first !== undefined) {
      throw new ImportError({ file: name, line, column: columnOf('id') }, 'a new item id', `'${id}' again`, {
        file: name,
        line: first,
      });
    }
    seen.set(id!, line);
    const optional: Partial<Record<Role, string>> = {};
    for (const role of ['parent', 'type', 'model', 'source'] as const) {
      const value = text(role);
      if (value !== undefined && value !== '') optional[role] = value;
    }
    items.push({ id: id!, text: itemText!, ...optional, line });
  };
  for await (const batch of lineBatches(path)) {
    for (const raw of batch) {
      const line = decodeLine(raw.bytes, raw.start, raw.end, raw.number);
      if (format === undefined) {
        if (isBlankText(line.text)) continue;
        format = line.text.trimStart().startsWith('{') ? 'jsonl' : separatorOf(line.text);
        if (format !== 'jsonl') {
          splitter = new DelimitedRowSplitter(format);
          splitter.captureAll = true;
        }
      }
      if (format === 'jsonl') {
        if (isBlankText(line.text)) continue;
        let record: unknown;
        try {
          record = JSON.parse(line.text);
        } catch (error) {
          const at = /position (\d+)/.exec(String(error));
          throw new ImportError(
            { file: name, line: raw.number, column: at ? Number(at[1]) + 1 : 1 },
            'a JSON object',
            `invalid JSON (${String((error as Error).message).replace(/ in JSON at position \d+.*$/, '')})`,
          );
        }
        if (!isJsonObject(record)) {
          throw new ImportError(
            { file: name, line: raw.number, column: 1 },
            'a JSON object',
            Array.isArray(record) ? 'an array' : typeof record,
          );
        }
        add(
          (role) => fieldValue(record as Record<string, unknown>, fieldOf(role)),
          raw.number,
          () => 1,
        );
        continue;
      }
      const rows = splitter!;
      if (!rows.open && isBlankText(line.text)) continue;
      if (!rows.addLine(line.text, line.ascii, raw.number, line.crlf)) continue;
      if (header === undefined) {
        header = rows.capturedValues().map((h) => h.trim());
        continue;
      }
      if (rows.fieldCount !== header.length) {
        throw new ImportError(
          { file: name, line: rows.firstLine, column: 1 },
          `${header.length} fields as in the header`,
          `${rows.fieldCount}`,
        );
      }
      const values = rows.values;
      const columns = rows.startColumns;
      add(
        (role) => {
          const at = header!.indexOf(fieldOf(role));
          return at < 0 ? undefined : values[at];
        },
        rows.firstLine,
        (role) => columns[header!.indexOf(fieldOf(role))] ?? 1,
      );
    }
  }
  if (splitter?.open) {
    throw new ImportError(
      { file: name, line: splitter.quoteLine, column: splitter.quoteColumn },
      `a closing '"'`,
      'the end of the file',
    );
  }
  return items;
}
