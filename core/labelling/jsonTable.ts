// A `table-json` document body turned into a header and rows of text, for the Label view and the judge's prompts.
// TARGET stores tables as JSON nested arrays whose first row is the header; `{"header": [...], "rows": [[...]]}` and
// pandas' split orient `{"columns": [...], "data": [[...]]}` are accepted too. Pure (no DOM), tested in Node.
// Anything else is an error that says what was found; the view then shows the raw body as plain text under it.

export interface JsonTable {
  header: string[];
  rows: string[][];
}

export type JsonTableResult = JsonTable | { error: string };

/** A cell as the annotator reads it: strings as they are, null as empty, objects and arrays as JSON. */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

/** Checks that `rows` is an array of arrays; `container` and `row` name them in errors. */
function arrayOfRows(rows: unknown, container: string, row: string): unknown[][] | { error: string } {
  if (!Array.isArray(rows)) return { error: `${container} must be an array of rows, found ${describe(rows)}` };
  for (const [i, cells] of rows.entries()) {
    if (!Array.isArray(cells)) return { error: `${row} ${i + 1} is ${describe(cells)}, not an array of cells` };
  }
  return rows as unknown[][];
}

/** Pads ragged rows to the widest row; a row wider than the header widens the header with empty names. */
function rectangular(header: unknown[], rows: unknown[][]): JsonTable {
  // A loop, not Math.max(...rows): TARGET's tables reach 52k rows, too many for spread arguments.
  let width = header.length;
  for (const row of rows) width = Math.max(width, row.length);
  const pad = (cells: unknown[]) => Array.from({ length: width }, (_, i) => cellText(cells[i]));
  return { header: pad(header), rows: rows.map(pad) };
}

/**
 * Where strict JSON first goes wrong in `text` (a UTF-16 offset), or -1. JSON.parse's messages give a position only
 * for some errors ("Unexpected token ']', "[1,]" is not valid JSON" has none), so the view finds it itself.
 * Iterative (an explicit stack), so deeply nested input cannot overflow the call stack.
 */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const skipWhitespace = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  /** At a '"': moves past the string, or stops where it goes wrong and returns false. */
  const string = (): boolean => {
    i++;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return true;
      }
      if (c < 0x20) return false;
      if (c !== 0x5c) {
        i++;
      } else if (text[i + 1] === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return false;
        i += 6;
      } else if (text[i + 1] !== undefined && '"\\/bfnrt'.includes(text[i + 1]!)) {
        i += 2;
      } else {
        return false;
      }
    }
    return false;
  };
  const numberPattern = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  /** After '{' or ',' in an object: a key and its colon. */
  const key = (): boolean => {
    skipWhitespace();
    if (text[i] !== '"' || !string()) return false;
    skipWhitespace();
    if (text[i] !== ':') return false;
    i++;
    return true;
  };
  const open: string[] = [];
  for (;;) {
    // A value is expected here.
    skipWhitespace();
    const c = text[i];
    if (c === '{' || c === '[') {
      i++;
      skipWhitespace();
      if (text[i] === (c === '{' ? '}' : ']')) {
        i++;
      } else {
        open.push(c);
        if (c === '{' && !key()) return i;
        continue;
      }
    } else if (c === '"') {
      if (!string()) return i;
    } else if (c === 't' || c === 'f' || c === 'n') {
      const word = c === 't' ? 'true' : c === 'f' ? 'false' : 'null';
      if (!text.startsWith(word, i)) return i;
      i += word.length;
    } else {
      numberPattern.lastIndex = i;
      const number = numberPattern.exec(text);
      if (!number) return i;
      i += number[0].length;
    }
    // After a value: close what it ends, then a comma (another value) or the end of the text.
    for (;;) {
      skipWhitespace();
      const container = open.at(-1);
      if (container === undefined) return i === text.length ? -1 : i;
      if (text[i] === (container === '{' ? '}' : ']')) {
        i++;
        open.pop();
      } else if (text[i] === ',') {
        i++;
        if (container === '{' && !key()) return i;
        break;
      } else {
        return i;
      }
    }
  }
}

/** " at line L, column C (offset N)" for the first error in `text`, or '' if the scanner finds none. */
function positionText(text: string): string {
  const offset = jsonErrorOffset(text);
  if (offset < 0) return '';
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return ` at line ${line}, column ${column} (offset ${offset})`;
}

export function parseJsonTable(body: string): JsonTableResult {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    return { error: `not valid JSON${positionText(body)}: ${(error as Error).message}` };
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return { error: 'an empty array: a table needs at least a header row' };
    const rows = arrayOfRows(value, 'the table', 'row');
    if ('error' in rows) return rows;
    const [header, ...data] = rows;
    return rectangular(header!, data);
  }
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const [headerKey, rowsKey] of [
      ['header', 'rows'],
      ['columns', 'data'],
    ] as const) {
      if (!(headerKey in record) && !(rowsKey in record)) continue;
      const header = record[headerKey];
      if (!Array.isArray(header))
        return { error: `"${headerKey}" must be an array of names, found ${describe(header)}` };
      const rows = arrayOfRows(record[rowsKey], `"${rowsKey}"`, `"${rowsKey}" row`);
      if ('error' in rows) return rows;
      return rectangular(header, rows);
    }
    const keys = Object.keys(record);
    return {
      error:
        'expected an array of rows (the first one the header), {"header": […], "rows": [[…]]} or ' +
        `{"columns": […], "data": [[…]]}; found an object with ${keys.length === 0 ? 'no keys' : `keys ${keys.slice(0, 8).join(', ')}`}`,
    };
  }
  return {
    error: `expected an array of rows (the first one the header) or an object with header and rows; found ${describe(value)}`,
  };
}
