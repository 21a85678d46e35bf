// How values, field lists and positions are shown in import errors: short, quoted, control characters escaped,
// so a pathological record (a 50 MB line, a table with 52,000 columns) cannot flood a terminal.

const invisible = /[\u0000-\u001f\u007f-\u00a0\u2028\u2029\ufeff]/g;

/** `'text'`, cut after 60 characters, control characters as `\uXXXX`. */
export function shown(text: string, max = 60): string {
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  return `'${cut.replace(invisible, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}'`;
}

/** A value read from a record, named for a message: "a string ('12.5')", "a number (3)", "null", "an array". */
export function describeFound(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Uint8Array) return `binary data (${value.length} bytes)`;
  if (value instanceof Date) return `a date (${Number.isNaN(value.getTime()) ? 'invalid' : value.toISOString()})`;
  switch (typeof value) {
    case 'string':
      return value === '' ? "an empty string ('')" : `a string (${shown(value)})`;
    case 'number':
    case 'bigint':
      return `a number (${value})`;
    case 'boolean':
      return String(value);
    default:
      return 'an object';
  }
}

/** Field names for a message: `_id, title, text`, the first 12 and how many more. */
export function fieldList(names: readonly string[]): string {
  if (names.length === 0) return 'none';
  const first = names.slice(0, 12).map((name) => shown(name, 40));
  return names.length > 12 ? `${first.join(', ')} and ${names.length - 12} more` : first.join(', ');
}

/** "1 field", "3 fields". */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
