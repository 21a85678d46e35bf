// Splits a study file into tokens with exact ranges. Never throws: a malformed piece (unterminated string, bad
// escape, malformed number, a character the language has no use for — NUL included) becomes a diagnostic and a
// token the parser can step over, so one bad character costs one diagnostic, not a cascade. Comments are tokens
// too: the formatter keeps them and semantic highlighting colours them.
import type { DslDiagnostic } from './types.ts';

/** `continuation`: a `\` ending its line, which continues the statement on the next line. */
export type TokenKind = 'name' | 'string' | 'number' | 'punct' | 'comment' | 'continuation' | 'invalid';

export type SemanticType =
  | 'keyword'
  | 'string'
  | 'number'
  | 'property'
  | 'variable'
  | 'enumMember'
  | 'comment'
  | 'operator';

export interface Token {
  kind: TokenKind;
  start: number;
  end: number;
  /** The source text of the token (for a string: with quotes and escapes). */
  text: string;
  /** Line breaks between the previous token and this one (what the formatter keeps of blank lines). */
  newlinesBefore: number;
  /** The one line break before this token follows a `\`: the token continues the line above. */
  continued?: boolean;
  /** Strings: the decoded value, and whether the closing quote is missing. */
  value?: string;
  unterminated?: boolean;
  /** Numbers: the value (NaN when malformed) and whether it is an integer. */
  number?: number;
  integer?: boolean;
  /** Set by the parser on a negative number after an operand (`x -1`): read as `-` and the magnitude. */
  split?: boolean;
  /** Set by the parser: what the token is, for highlighting; and the keyword table entry it stands for. */
  semantic?: SemanticType;
  doc?: string;
  /** Set by the parser for the formatter: this token starts a statement, or an entry of a `{ … }` list. */
  starts?: 'statement' | 'entry';
  /** Set by the parser on `{`: how the formatter lays the block out. */
  layout?: 'body' | 'scale' | 'list';
}

export interface LexResult {
  tokens: Token[];
  diagnostics: DslDiagnostic[];
}

function isAsciiNameStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}

function isAsciiNamePart(c: number): boolean {
  return isAsciiNameStart(c) || (c >= 48 && c <= 57) || c === 45;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

const unicodeNameStart = /^[\p{L}\p{Nl}]$/u;
const unicodeNamePart = /^[\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]$/u;

function isWhitespace(c: number): boolean {
  return (
    c === 32 ||
    c === 9 ||
    c === 10 ||
    c === 13 ||
    c === 11 ||
    c === 12 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** Whether `text` at `i` starts a name; returns the code point width (1 or 2) or 0. */
function nameStartWidth(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 128) return isAsciiNameStart(c) ? 1 : 0;
  const cp = text.codePointAt(i)!;
  const ch = String.fromCodePoint(cp);
  return unicodeNameStart.test(ch) ? ch.length : 0;
}

function namePartWidth(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 128) return isAsciiNamePart(c) ? 1 : 0;
  const cp = text.codePointAt(i)!;
  const ch = String.fromCodePoint(cp);
  return unicodeNamePart.test(ch) ? ch.length : 0;
}

const numberShape = /^-?\d+(\.\d+)?$/;

/** Shows characters in a message: control and invisible characters as U+XXXX. */
export function showCharacters(text: string): string {
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const invisible = cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || (cp >= 0x200b && cp <= 0x200f) || cp === 0xfffd;
    out += invisible ? `U+${cp.toString(16).toUpperCase().padStart(4, '0')}` : ch;
  }
  return out;
}

export function lex(text: string): LexResult {
  const tokens: Token[] = [];
  const diagnostics: DslDiagnostic[] = [];
  const length = text.length;
  let i = 0;
  let newlines = 0;
  let afterContinuation = false;

  const push = (token: Omit<Token, 'newlinesBefore' | 'text'>): void => {
    (token as Token).text = text.slice(token.start, token.end);
    (token as Token).newlinesBefore = newlines;
    if (afterContinuation && newlines === 1) (token as Token).continued = true;
    tokens.push(token as Token);
    newlines = 0;
    afterContinuation = token.kind === 'continuation';
  };

  while (i < length) {
    const c = text.charCodeAt(i);
    if (isWhitespace(c)) {
      // A lone CR is a line break too (editors show one): lines end statements, so none may hide.
      if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) newlines++;
      i++;
      continue;
    }
    const start = i;
    if (c === 92 /* \ */) {
      let after = i + 1;
      while (after < length && (text.charCodeAt(after) === 32 || text.charCodeAt(after) === 9)) after++;
      const next = text.charCodeAt(after);
      if (after >= length || next === 10 || next === 13) {
        i++;
        push({ kind: 'continuation', start, end: i });
        continue;
      }
      i++;
      push({ kind: 'invalid', start, end: i });
      diagnostics.push({
        range: { start, end: i },
        severity: 'error',
        code: 'invalid-character',
        message:
          'unexpected character `\\`: outside a string, `\\` continues a statement on the next line and must end its line',
      });
      continue;
    }
    if (c === 35 /* # */) {
      while (i < length && text.charCodeAt(i) !== 10 && text.charCodeAt(i) !== 13) i++;
      push({ kind: 'comment', start, end: i });
      continue;
    }
    if (c === 34 /* " */) {
      i = lexString(text, i, push, diagnostics);
      continue;
    }
    if (isDigit(c) || (c === 45 && i + 1 < length && isDigit(text.charCodeAt(i + 1)))) {
      i++;
      while (i < length) {
        const d = text.charCodeAt(i);
        if (isAsciiNamePart(d) || d === 46) i++;
        else break;
      }
      const raw = text.slice(start, i);
      const valid = numberShape.test(raw);
      if (!valid) {
        diagnostics.push({
          range: { start, end: i },
          severity: 'error',
          code: 'invalid-number',
          message: `expected a number (digits, optionally a decimal part such as 0.67), found \`${showCharacters(raw)}\``,
        });
      }
      push({
        kind: 'number',
        start,
        end: i,
        number: valid ? Number(raw) : Number.NaN,
        integer: valid && !raw.includes('.'),
      });
      continue;
    }
    const nameWidth = nameStartWidth(text, i);
    if (nameWidth > 0) {
      i += nameWidth;
      for (;;) {
        if (i >= length) break;
        const w = namePartWidth(text, i);
        if (w === 0) break;
        i += w;
      }
      push({ kind: 'name', start, end: i });
      continue;
    }
    const punct = punctuationLength(text, i);
    if (punct > 0) {
      i += punct;
      push({ kind: 'punct', start, end: i });
      continue;
    }
    // A run of characters that start no token: one diagnostic for the run.
    while (i < length && startsNothing(text, i)) i += text.codePointAt(i)! > 0xffff ? 2 : 1;
    const raw = text.slice(start, i);
    if (raw === '&' || raw === '|') {
      // Reported, then read as the operator that was meant (`&&`, `||`), so the expression parses on.
      push({ kind: 'punct', start, end: i });
      tokens.at(-1)!.text = raw + raw;
    } else {
      push({ kind: 'invalid', start, end: i });
    }
    diagnostics.push({
      range: { start, end: i },
      severity: 'error',
      code: 'invalid-character',
      message: invalidCharacterMessage(raw),
    });
  }
  return { tokens, diagnostics };
}

/** The length of the operator or bracket at `i` (2 for `&&`, `||`, `==`, `!=`, `<=`, `>=`), or 0. */
function punctuationLength(text: string, i: number): number {
  const c = text.charCodeAt(i);
  const next = text.charCodeAt(i + 1);
  switch (c) {
    case 38 /* & */:
      return next === 38 ? 2 : 0;
    case 124 /* | */:
      return next === 124 ? 2 : 0;
    case 61 /* = */:
    case 33 /* ! */:
    case 60 /* < */:
    case 62 /* > */:
      return next === 61 ? 2 : 1;
    case 123 /* { */:
    case 125 /* } */:
    case 40 /* ( */:
    case 41 /* ) */:
    case 58 /* : */:
    case 63 /* ? */:
    case 44 /* , */:
    case 43 /* + */:
    case 45 /* - (not before a digit: that is a negative number) */:
    case 42 /* * */:
    case 91 /* [ */:
    case 93 /* ] */:
      return 1;
    default:
      return 0;
  }
}

function startsNothing(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (isWhitespace(c) || c === 35 || c === 34 || isDigit(c)) return false;
  if (c === 45 && i + 1 < text.length && isDigit(text.charCodeAt(i + 1))) return false;
  if (nameStartWidth(text, i) > 0) return false;
  return punctuationLength(text, i) === 0;
}

function invalidCharacterMessage(raw: string): string {
  const shown = showCharacters(raw);
  const what =
    [...raw].length === 1 ? `unexpected character ${quoteShown(shown)}` : `unexpected characters ${quoteShown(shown)}`;
  if (raw === '&') return `${what}: the "and" operator is \`&&\``;
  if (raw === '|') return `${what}: the "or" operator is \`||\``;
  if (raw.startsWith("'")) return `${what}: strings are written in double quotes`;
  return what;
}

function quoteShown(shown: string): string {
  return shown.startsWith('U+') ? shown : `\`${shown}\``;
}

/** Lexes the string starting at `start` (a `"`); returns the offset after it. */
function lexString(
  text: string,
  start: number,
  push: (token: Omit<Token, 'newlinesBefore' | 'text'>) => void,
  diagnostics: DslDiagnostic[],
): number {
  const length = text.length;
  let i = start + 1;
  let value = '';
  let chunkStart = i;
  for (;;) {
    if (i >= length || text.charCodeAt(i) === 10 || text.charCodeAt(i) === 13) {
      value += text.slice(chunkStart, i);
      diagnostics.push({
        range: { start, end: i },
        severity: 'error',
        code: 'unterminated-string',
        message: 'unterminated string: expected a closing `"` before the end of the line',
      });
      push({ kind: 'string', start, end: i, value, unterminated: true });
      return i;
    }
    const c = text.charCodeAt(i);
    if (c === 34) {
      value += text.slice(chunkStart, i);
      i++;
      push({ kind: 'string', start, end: i, value });
      return i;
    }
    if (c === 92 /* \ */) {
      const next = text.charCodeAt(i + 1);
      if (next === 34 || next === 92) {
        value += text.slice(chunkStart, i) + text[i + 1];
        i += 2;
        chunkStart = i;
        continue;
      }
      if (i + 1 < length && next !== 10 && next !== 13) {
        const width = text.codePointAt(i + 1)! > 0xffff ? 2 : 1;
        diagnostics.push({
          range: { start: i, end: i + 1 + width },
          severity: 'error',
          code: 'invalid-escape',
          message: `unknown escape \`${showCharacters(text.slice(i, i + 1 + width))}\`: a string knows \`\\"\` and \`\\\\\` (write \`\\\\\` for a backslash)`,
        });
        i += 1 + width;
        continue;
      }
    }
    i++;
  }
}
