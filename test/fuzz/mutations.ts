// How the fuzzers break realistic input: line edits (truncated lines, fields replaced by odd numbers or 100 KB
// tokens, separators swapped, lines repeated into the thousands, lines spliced in from real files), then document
// edits (CRLF or lone '\r' line endings, a BOM, no final newline, a cut anywhere, NUL and control characters, text
// decoded as latin1, random bytes decoded as UTF-8). Mutations are plain data, so fast-check shows and shrinks them.
import fc from 'fast-check';
import { realQrelsLines } from './seeds.ts';

/** Numbers and near-numbers that parsers disagree on. */
export const oddNumbers: readonly string[] = [
  '1e309',
  '-1e309',
  '1e-400',
  '-0',
  '+0',
  '0.0',
  'NaN',
  'nan',
  'Infinity',
  '-Infinity',
  'inf',
  '0x10',
  '0X1f',
  '0b1',
  '0o7',
  '1_000',
  '1,5',
  '1.0.0',
  '.5',
  '5.',
  '+1',
  '--1',
  '1e3',
  '2147483647',
  '2147483648',
  '-2147483648',
  '-2147483649',
  '4294967296',
  '9007199254740993',
  '1'.repeat(400),
  `0.${'0'.repeat(400)}1`,
  '٣',
  '１',
  '½',
  '-',
  '+',
  'e',
  '',
];

/** Characters and short strings that split, end or confuse a line. */
export const oddPieces: readonly string[] = [
  '\u0000',
  '\r',
  '\r\n',
  '\n',
  '\t',
  ' ',
  '   ',
  '\u000b',
  '\u000c',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u2028',
  '\u200b',
  '\ufeff',
  '\ufffd',
  '\ud800',
  '\udc00',
  '😀',
  'e\u0301',
  'é',
  '中文',
  '#',
  '"',
  "'",
  '\\',
  '{',
  '}',
  ',',
  '=',
];

/** Random bytes decoded as UTF-8 (invalid sequences become U+FFFD). */
export const randomBytesAsUtf8 = fc.uint8Array({ maxLength: 16 }).map((bytes) => Buffer.from(bytes).toString('utf8'));

/** A piece of text to insert: an odd character, an odd number, or random bytes decoded as UTF-8. */
export const oddText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...oddPieces) },
  { weight: 2, arbitrary: fc.constantFrom(...oddNumbers) },
  { weight: 2, arbitrary: randomBytesAsUtf8 },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
);

/** UTF-8 text read as latin1: what a wrong decoder makes of it (é becomes Ã©). */
export function latin1Mojibake(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}

export type LineMutation =
  | { op: 'truncate-line'; line: number; at: number }
  | { op: 'replace-field'; line: number; field: number; value: string }
  | { op: 'insert'; line: number; at: number; text: string }
  | { op: 'huge-token'; line: number; field: number; size: number; char: string }
  | { op: 'repeat-lines'; line: number; count: number; times: number }
  | { op: 'delete-lines'; line: number; count: number }
  | { op: 'splice-real-lines'; line: number; from: number; count: number }
  | { op: 'separators'; line: number; separator: string }
  | { op: 'join-lines'; line: number }
  | { op: 'swap-lines'; a: number; b: number }
  | { op: 'mojibake'; line: number };

export type DocumentEdit =
  | { op: 'cut'; at: number }
  | { op: 'insert'; at: number; text: string }
  | { op: 'mojibake' }
  | { op: 'lone-cr' };

export interface DocumentRecipe {
  lines: readonly string[];
  lineMutations: readonly LineMutation[];
  newline: '\n' | '\r\n';
  finalNewline: boolean;
  bom: boolean;
  edits: readonly DocumentEdit[];
}

/** Repeating lines stops at this many characters (a repeated 100 KB token would otherwise make 150 MB). */
const maxRepeatedChars = 200_000;

/** Sizes of "huge" tokens: the 100 KB of the brief, and smaller ones that stay cheap. */
const hugeSize = fc.oneof(
  { weight: 1, arbitrary: fc.constant(100_000) },
  { weight: 4, arbitrary: fc.constantFrom(1_000, 10_000) },
);

export const lineMutation: fc.Arbitrary<LineMutation> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ op: fc.constant('truncate-line'), line: fc.nat(), at: fc.nat() }) },
  {
    weight: 8,
    arbitrary: fc.record({
      op: fc.constant('replace-field'),
      line: fc.nat(),
      field: fc.nat(7),
      value: fc.oneof(fc.constantFrom(...oddNumbers), oddText),
    }),
  },
  { weight: 6, arbitrary: fc.record({ op: fc.constant('insert'), line: fc.nat(), at: fc.nat(), text: oddText }) },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('huge-token'),
      line: fc.nat(),
      field: fc.nat(6),
      size: hugeSize,
      char: fc.constantFrom('x', '9', 'é', '😀', ' ', '\t', '"', '{'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('repeat-lines'),
      line: fc.nat(),
      count: fc.integer({ min: 1, max: 5 }),
      times: fc.constantFrom(2, 10, 200, 1500),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('delete-lines'), line: fc.nat(), count: fc.nat(10) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('splice-real-lines'),
      line: fc.nat(),
      from: fc.nat(),
      count: fc.integer({ min: 1, max: 30 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('separators'),
      line: fc.nat(),
      separator: fc.constantFrom(' ', '\t', '  ', ' \t', '\u00a0', '\u000b', ',', ''),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('join-lines'), line: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('swap-lines'), a: fc.nat(), b: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('mojibake'), line: fc.nat() }) },
);

export const documentEdit: fc.Arbitrary<DocumentEdit> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant('cut'), at: fc.nat() }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('insert'), at: fc.nat(), text: oddText }) },
  { weight: 1, arbitrary: fc.constant<DocumentEdit>({ op: 'mojibake' }) },
  { weight: 1, arbitrary: fc.constant<DocumentEdit>({ op: 'lone-cr' }) },
);

/** A document from `seedLines`, with some line mutations and document edits (often none: valid input matters). */
export function mutatedDocument(seedLines: fc.Arbitrary<string[]>): fc.Arbitrary<string> {
  return fc
    .record({
      lines: seedLines,
      lineMutations: fc.oneof(
        { weight: 1, arbitrary: fc.constant([]) },
        { weight: 4, arbitrary: fc.array(lineMutation, { maxLength: 5 }) },
      ),
      newline: fc.oneof(
        { weight: 6, arbitrary: fc.constant('\n' as const) },
        { weight: 1, arbitrary: fc.constant('\r\n' as const) },
      ),
      finalNewline: fc.oneof({ weight: 5, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
      bom: fc.oneof({ weight: 8, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
      edits: fc.oneof(
        { weight: 3, arbitrary: fc.constant([]) },
        { weight: 1, arbitrary: fc.array(documentEdit, { maxLength: 3 }) },
      ),
    })
    .map(buildDocument);
}

/** The text a recipe describes. */
export function buildDocument(recipe: DocumentRecipe): string {
  const lines = [...recipe.lines];
  for (const mutation of recipe.lineMutations) applyLineMutation(lines, mutation);
  let text =
    (recipe.bom ? '\ufeff' : '') +
    lines.join(recipe.newline) +
    (recipe.finalNewline && lines.length > 0 ? recipe.newline : '');
  for (const edit of recipe.edits) text = applyDocumentEdit(text, edit);
  return text;
}

/** Fields with the whitespace between them kept (odd indexes), so a line can be rebuilt as it was. */
function splitKeepingSeparators(line: string): string[] {
  return line.split(/([ \t]+)/);
}

export function applyLineMutation(lines: string[], mutation: LineMutation): void {
  if (mutation.op === 'splice-real-lines') {
    const from = mutation.from % realQrelsLines.length;
    lines.splice(mutation.line % (lines.length + 1), 0, ...realQrelsLines.slice(from, from + mutation.count));
    return;
  }
  if (lines.length === 0) {
    if (mutation.op === 'insert') lines.push(mutation.text);
    return;
  }
  const index = 'line' in mutation ? mutation.line % lines.length : 0;
  const line = lines[index]!;
  switch (mutation.op) {
    case 'truncate-line':
      lines[index] = line.slice(0, mutation.at % (line.length + 1));
      break;
    case 'replace-field': {
      const parts = splitKeepingSeparators(line);
      const fieldCount = Math.ceil(parts.length / 2);
      parts[2 * (mutation.field % fieldCount)] = mutation.value;
      lines[index] = parts.join('');
      break;
    }
    case 'insert': {
      const at = mutation.at % (line.length + 1);
      lines[index] = line.slice(0, at) + mutation.text + line.slice(at);
      break;
    }
    case 'huge-token': {
      const parts = splitKeepingSeparators(line);
      const fieldCount = Math.ceil(parts.length / 2);
      parts[2 * (mutation.field % fieldCount)] = mutation.char.repeat(Math.ceil(mutation.size / mutation.char.length));
      lines[index] = parts.join('');
      break;
    }
    case 'repeat-lines': {
      const block = lines.slice(index, index + mutation.count);
      const blockLength = block.reduce((sum, l) => sum + l.length + 1, 0);
      const times = Math.max(1, Math.min(mutation.times, Math.floor(maxRepeatedChars / blockLength)));
      const copies: string[] = [];
      for (let i = 0; i < times; i++) copies.push(...block);
      lines.splice(index, block.length, ...copies);
      break;
    }
    case 'delete-lines':
      lines.splice(index, mutation.count);
      break;
    case 'separators':
      lines[index] = line.split(/[ \t]+/).join(mutation.separator);
      break;
    case 'join-lines':
      if (index + 1 < lines.length) lines.splice(index, 2, line + lines[index + 1]!);
      break;
    case 'swap-lines': {
      const other = mutation.b % lines.length;
      lines[index] = lines[other]!;
      lines[other] = line;
      break;
    }
    case 'mojibake':
      lines[index] = latin1Mojibake(line);
      break;
  }
}

export function applyDocumentEdit(text: string, edit: DocumentEdit): string {
  switch (edit.op) {
    case 'cut':
      return text.slice(0, edit.at % (text.length + 1));
    case 'insert': {
      const at = edit.at % (text.length + 1);
      return text.slice(0, at) + edit.text + text.slice(at);
    }
    case 'mojibake':
      return latin1Mojibake(text);
    case 'lone-cr':
      return text.replaceAll('\n', '\r');
  }
}

/** Byte-level damage for file readers: raw bytes that no JS string encodes to (invalid UTF-8, a cut gzip). */
export type ByteEdit =
  | { op: 'insert-bytes'; at: number; bytes: Uint8Array }
  | { op: 'overwrite'; at: number; byte: number }
  | { op: 'latin1' }
  | { op: 'cut'; at: number };

export const byteEdit: fc.Arbitrary<ByteEdit> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('insert-bytes'),
      at: fc.nat(),
      bytes: fc.uint8Array({ minLength: 1, maxLength: 6 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant('overwrite'), at: fc.nat(), byte: fc.integer({ min: 0x80, max: 0xff }) }),
  },
  { weight: 1, arbitrary: fc.constant<ByteEdit>({ op: 'latin1' }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('cut'), at: fc.nat() }) },
);

/** `text`'s UTF-8 bytes with the edits applied (`latin1` re-encodes the text so far one byte per character). */
export function applyByteEdits(text: string, edits: readonly ByteEdit[]): Buffer {
  let bytes = Buffer.from(text, 'utf8');
  for (const edit of edits) {
    switch (edit.op) {
      case 'insert-bytes': {
        const at = edit.at % (bytes.length + 1);
        bytes = Buffer.concat([bytes.subarray(0, at), edit.bytes, bytes.subarray(at)]);
        break;
      }
      case 'overwrite':
        if (bytes.length > 0) bytes[edit.at % bytes.length] = edit.byte;
        break;
      case 'latin1':
        bytes = Buffer.from(bytes.toString('utf8'), 'latin1');
        break;
      case 'cut':
        bytes = bytes.subarray(0, edit.at % (bytes.length + 1));
        break;
    }
  }
  return bytes;
}
