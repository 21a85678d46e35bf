// Where a JSONL line stops being JSON, and what was expected there: "expected ',' or '}' after a property value,
// found 'x'". JSON.parse says whether a line is valid (fast, native); only for lines it refuses does jsonc-parser's
// scanner, in strict mode (no comments, no trailing commas), find the first error and its exact offset. The
// parser's callbacks tell where in the grammar it was, which says what was expected; only the first error counts
// (one per line, not the cascade the parser would go on to report).
import { printParseErrorCode, visit } from 'jsonc-parser';

export interface JsonSyntaxError {
  /** UTF-16 offset in the line's text, and length (0 at the end of the line). */
  offset: number;
  length: number;
  message: string;
}

type Expectation =
  | 'record'
  | 'value-after-colon'
  | 'element-after-comma'
  | 'value-or-close'
  | 'name-or-close'
  | 'name-after-comma'
  | 'colon'
  | 'comma-or-brace'
  | 'comma-or-bracket'
  | 'end';

const expected: Record<Expectation, string> = {
  record: "a JSON object ('{')",
  'value-after-colon': "a value after ':'",
  'element-after-comma': "a value after ','",
  'value-or-close': "a value or ']'",
  'name-or-close': "a property name in double quotes or '}'",
  'name-after-comma': "a property name in double quotes after ','",
  colon: "':' after the property name",
  'comma-or-brace': "',' or '}' after a property value",
  'comma-or-bracket': "',' or ']' after an array element",
  end: 'the end of the line after the record',
};

interface FirstError {
  code: string;
  offset: number;
  length: number;
  expectation: Expectation;
}

/** Thrown from the error callback to stop the parser at the first error. */
const stop = new Error('first JSON error found');

/** The first syntax error of `text`, a line JSON.parse refused with `nativeError`. */
export function findJsonSyntaxError(text: string, nativeError: unknown): JsonSyntaxError {
  const containers: ('object' | 'array')[] = [];
  let expectation: Expectation = 'record';
  // jsonc-parser reports a missing '}' or ']' after it has closed the container: what was expected is what was
  // expected just before.
  let beforeClose: Expectation = 'record';
  let first: FirstError | undefined;
  const afterValue = (): void => {
    const inside = containers.at(-1);
    expectation = inside === undefined ? 'end' : inside === 'object' ? 'comma-or-brace' : 'comma-or-bracket';
  };
  try {
    visit(
      text,
      {
        onObjectBegin: () => {
          containers.push('object');
          expectation = 'name-or-close';
        },
        onObjectProperty: () => {
          expectation = 'colon';
        },
        onObjectEnd: () => {
          beforeClose = expectation;
          containers.pop();
          afterValue();
        },
        onArrayBegin: () => {
          containers.push('array');
          expectation = 'value-or-close';
        },
        onArrayEnd: () => {
          beforeClose = expectation;
          containers.pop();
          afterValue();
        },
        onLiteralValue: afterValue,
        onSeparator: (separator) => {
          if (separator === ':') expectation = 'value-after-colon';
          else expectation = containers.at(-1) === 'object' ? 'name-after-comma' : 'element-after-comma';
        },
        onError: (code, offset, length) => {
          const name = printParseErrorCode(code);
          const closing = name === 'CloseBraceExpected' || name === 'CloseBracketExpected';
          first = { code: name, offset, length, expectation: closing ? beforeClose : expectation };
          throw stop;
        },
      },
      { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false },
    );
  } catch (error) {
    // Anything but our stop is the parser's recursion giving up on very deep nesting: fall back to JSON.parse's
    // own position below.
    if (error !== stop) first = undefined;
  }
  return first === undefined ? fromNativeError(text, nativeError) : describe(text, first);
}

function describe(text: string, error: FirstError): JsonSyntaxError {
  const { code, offset, length } = error;
  switch (code) {
    case 'InvalidCommentToken':
      return {
        offset,
        length,
        message: `expected JSON, found a comment ${snippet(text, offset, length)} (JSON has no comments)`,
      };
    case 'UnexpectedEndOfString':
      return {
        offset,
        length: text.length - offset,
        message: `unterminated string: expected a closing '"' before the end of the line`,
      };
    case 'InvalidCharacter':
      return controlCharacter(text, offset, length);
    case 'InvalidEscapeCharacter':
    case 'InvalidUnicode':
      return badEscape(text, offset, length);
    case 'UnexpectedEndOfNumber': {
      const at = offset + length;
      return {
        offset: at,
        length: at < text.length ? 1 : 0,
        message: `expected a digit after ${snippet(text, offset, length)}, found ${found(text, at, 1)}`,
      };
    }
    case 'InvalidNumberFormat':
      return { offset, length, message: `expected a number, found ${snippet(text, offset, length)}` };
  }
  // The scanner stops '-Infinity' at the '-': show the whole word.
  const word = /^-(?:Infinity|NaN)/.exec(text.slice(offset, offset + 10));
  const tokenLength = word ? word[0].length : Math.max(length, 1);
  const token = text.slice(offset, offset + tokenLength);
  const end = offset >= text.length;
  let message = `expected ${expected[error.expectation]}, found ${found(text, offset, tokenLength)}`;
  if (!end) message += note(text, offset, token, error.expectation);
  return { offset, length: end ? 0 : tokenLength, message };
}

/** Why the token is wrong, when there is a likely story. */
function note(text: string, offset: number, token: string, expectation: Expectation): string {
  if (
    (token === '}' && expectation === 'name-after-comma') ||
    (token === ']' && expectation === 'element-after-comma')
  ) {
    return ' (JSON allows no trailing comma)';
  }
  if (/^-?(NaN|Infinity)$/.test(token)) {
    return " (JSON has no NaN or Infinity; Python's json writes them for float('nan') and float('inf'))";
  }
  if (token === 'True' || token === 'False' || token === 'None')
    return ' (a Python literal: JSON has true, false, null)';
  if (token.startsWith("'")) return ' (JSON strings take double quotes)';
  if (unicodeSpace.test(token)) return ' (JSON allows only spaces, tabs and line breaks between values)';
  if (expectation === 'end' && token === '{') return ' (two records on one line?)';
  if ((expectation === 'name-or-close' || expectation === 'name-after-comma') && /^[A-Za-z_$]/.test(token)) {
    return ' (property names take double quotes)';
  }
  const previous = text.charCodeAt(offset - 1);
  if (
    (expectation === 'comma-or-brace' || expectation === 'comma-or-bracket') &&
    /^[0-9]/.test(token) &&
    previous >= 48 &&
    previous <= 57
  ) {
    return ' (a JSON number cannot start with 0)';
  }
  return '';
}

const controlNames: Record<number, [string, string]> = {
  0: ['NUL byte', '\\u0000'],
  8: ['backspace', '\\b'],
  9: ['tab', '\\t'],
  10: ['line feed', '\\n'],
  12: ['form feed', '\\f'],
  13: ['carriage return', '\\r'],
};

/** A raw control character inside the string token at `[offset, offset + length)`. */
function controlCharacter(text: string, offset: number, length: number): JsonSyntaxError {
  let at = offset;
  const end = Math.min(offset + length, text.length);
  while (at < end && text.charCodeAt(at) >= 32) at++;
  const code = text.charCodeAt(at);
  const hex = `\\u${code.toString(16).padStart(4, '0')}`;
  const [name, escaped] = controlNames[code] ?? [`control character U+${hex.slice(2).toUpperCase()}`, hex];
  return {
    offset: at,
    length: 1,
    message: `expected '${escaped}' (an escaped ${name}) inside a string, found a raw ${name}`,
  };
}

/** A backslash not followed by a JSON escape, inside the string token at `[offset, offset + length)`. */
function badEscape(text: string, offset: number, length: number): JsonSyntaxError {
  const end = Math.min(offset + length, text.length);
  for (let at = offset + 1; at < end; at++) {
    if (text.charCodeAt(at) !== 92) continue;
    const next = text[at + 1] ?? '';
    if (next === 'u') {
      const digits = text.slice(at + 2, at + 6);
      if (/^[0-9a-fA-F]{4}$/.test(digits)) {
        at += 5;
        continue;
      }
      const shown = text.slice(at, Math.min(at + 6, end));
      return {
        offset: at,
        length: shown.length,
        message: `expected 4 hex digits after '\\u', found ${quoteText(shown)}`,
      };
    }
    if ('"\\/bfnrt'.includes(next) && next !== '') {
      at++;
      continue;
    }
    return {
      offset: at,
      length: Math.min(2, end - at),
      message: `expected one of \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX after a backslash, found ${quoteText(`\\${next}`)}`,
    };
  }
  return { offset, length, message: `expected a valid escape in the string ${snippet(text, offset, length)}` };
}

/** When jsonc-parser finds nothing (it is laxer about some whitespace) or gives up: JSON.parse's own position. */
function fromNativeError(text: string, nativeError: unknown): JsonSyntaxError {
  const native = nativeError instanceof Error ? nativeError.message : String(nativeError);
  const position = /at position (\d+)/.exec(native);
  const offset = position ? Math.min(Number(position[1]), text.length) : text.length;
  const reason = native.replace(/ in JSON at position.*$/s, '').replace(/,? ".*" is not valid JSON$/s, '');
  return {
    offset,
    length: offset < text.length ? 1 : 0,
    message: `${reason.charAt(0).toLowerCase()}${reason.slice(1)}, found ${found(text, offset, 1)}`,
  };
}

function found(text: string, offset: number, length: number): string {
  return offset >= text.length ? 'the end of the line' : snippet(text, offset, Math.max(length, 1));
}

/** `text[offset, offset + length)` quoted for a message, control characters escaped, long tokens cut. */
function snippet(text: string, offset: number, length: number): string {
  return quoteText(text.slice(offset, offset + length));
}

/** Characters a message must not show raw: control characters, and spaces that do not look like one. */
const invisible = /[\u0000-\u001f\u007f-\u00a0\u1680\u2000-\u200f\u2028-\u202f\u205f\u3000\ufeff]/g;
const unicodeSpace = /^[\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/;

function quoteText(token: string): string {
  let shown = token.length > 24 ? `${token.slice(0, 24)}…` : token;
  shown = shown.replace(invisible, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `'${shown}'`;
}
