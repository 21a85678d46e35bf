// The canonical layout of a study file: one statement per line, two-space indent, scale rows aligned in columns,
// comments kept where they were (trailing or on their own line), at most one blank line kept between statements,
// a `\` that continues a statement kept at the end of its line (the rest goes one level deeper).
// Small `{ … }` lists (mappings, judge options, taxonomy, rubric dimensions) stay on one line when they were
// written on one line and fit in 100 columns; otherwise one entry per line. Works from the parser's token
// annotations (where statements and entries start, how each `{` is laid out), so it never reorders or drops a
// token, and formatting its own output changes nothing. A text with syntax errors is not formatted.
import type { Token } from '../lexer.ts';
import { parseStudyFile } from '../parser.ts';

const indentUnit = '  ';
const maxInlineWidth = 100;

interface OpenBlock {
  layout: 'body' | 'scale' | 'list';
  expanded: boolean;
  /** Scale blocks: column widths of the value and label of the rows. */
  valueWidth: number;
  labelWidth: number;
  keyWidth: number;
}

function width(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

function isPunct(token: Token | undefined, text: string): boolean {
  return token?.kind === 'punct' && token.text === text;
}

/** The space between two tokens on one line. */
function separator(previous: Token | undefined, token: Token): string {
  if (!previous) return '';
  if (isPunct(token, ',') || isPunct(token, ')') || isPunct(token, ']')) return '';
  if (isPunct(previous, '[') || (isPunct(token, '[') && previous.kind === 'name')) return '';
  if (isPunct(previous, '(') || isPunct(previous, '!')) return '';
  if (isPunct(token, '(') && previous.kind === 'name') return '';
  if (isPunct(token, ':') && token.semantic !== 'operator') return '';
  if (token.starts === 'entry' && !isPunct(previous, '{')) return '  ';
  return ' ';
}

export function formatStudyText(text: string): string | undefined {
  const parsed = parseStudyFile(text);
  if (parsed.diagnostics.length > 0) return undefined;
  return new Formatter(parsed.tokens).format();
}

class Formatter {
  private readonly tokens: Token[];
  /** Index of the matching `}` of every `{`. */
  private readonly closeOf = new Map<number, number>();
  private readonly lines: string[] = [];
  private line = '';
  private readonly stack: OpenBlock[] = [];
  /** A comment ended the line: the next token starts a new one. */
  private breakNext = false;

  constructor(tokens: Token[]) {
    this.tokens = tokens;
    const open: number[] = [];
    tokens.forEach((token, i) => {
      if (isPunct(token, '{')) open.push(i);
      else if (isPunct(token, '}')) this.closeOf.set(open.pop()!, i);
    });
  }

  private get indent(): number {
    return this.stack.filter((b) => b.expanded).length;
  }

  private startLine(level: number, blankBefore: boolean): void {
    if (this.line.trim() !== '' || this.lines.length > 0) this.lines.push(this.line.trimEnd());
    if (blankBefore && this.lines.length > 0 && this.lines.at(-1) !== '') this.lines.push('');
    this.line = indentUnit.repeat(level);
  }

  format(): string {
    const { tokens } = this;
    let previous: Token | undefined;
    let started = false;
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!;
      const top = this.stack.at(-1);
      const blank =
        token.newlinesBefore >= 2 && previous !== undefined && !isPunct(previous, '{') && !isPunct(token, '}');
      const newLine = (level: number) => {
        if (!started) {
          started = true;
          this.line = indentUnit.repeat(level);
        } else {
          this.startLine(level, blank);
        }
      };

      if (token.kind === 'comment') {
        const comment = token.text.trimEnd();
        if (previous && token.newlinesBefore === 0) this.line += `  ${comment}`;
        else {
          newLine(this.indent);
          this.line += comment;
        }
        this.breakNext = true;
        previous = token;
        continue;
      }

      if (token.kind === 'continuation') {
        // Kept where the author put it: the statement goes on on the next line, one level deeper. A `\` before any
        // other token starts the text (the next line must not replace it).
        started = true;
        this.line += `${previous ? ' ' : ''}\\`;
        this.breakNext = true;
        previous = token;
        continue;
      }

      if (isPunct(token, '}') && top) {
        this.stack.pop();
        if (top.expanded) newLine(this.indent);
        else this.line += this.breakNext ? '' : ' ';
        this.line += '}';
      } else if (token.starts === 'statement' || (token.starts === 'entry' && top?.expanded)) {
        newLine(this.indent);
        const row = top?.layout === 'scale' ? this.scaleRow(i) : undefined;
        if (row) {
          this.line += this.alignedRow(row, top!);
          i = row.at(-1)!;
          previous = tokens[i];
          this.breakNext = false;
          continue;
        }
        this.line += token.text;
      } else if (this.breakNext) {
        newLine(this.indent + 1);
        this.line += token.text;
      } else {
        this.line += separator(previous, token) + token.text;
      }
      this.breakNext = false;

      if (isPunct(token, '{')) this.open(i);
      previous = token;
    }
    if (started || this.line.trim() !== '') this.lines.push(this.line.trimEnd());
    while (this.lines.at(-1) === '') this.lines.pop();
    return this.lines.length === 0 ? '' : `${this.lines.join('\n')}\n`;
  }

  private open(index: number): void {
    const token = this.tokens[index]!;
    const close = this.closeOf.get(index) ?? this.tokens.length - 1;
    const layout = token.layout ?? 'body';
    const block: OpenBlock = { layout, expanded: true, valueWidth: 0, labelWidth: 0, keyWidth: 0 };
    if (layout === 'list') {
      const inner = this.tokens.slice(index + 1, close);
      const writtenInline = (this.tokens[index + 1]?.newlinesBefore ?? 0) === 0;
      const hasComment = inner.some((t) => t.kind === 'comment' || t.kind === 'continuation');
      block.expanded =
        !writtenInline || hasComment || width(this.line) + width(this.inline(index, close)) > maxInlineWidth;
    }
    if (layout === 'scale') {
      for (let i = index + 1; i < close; i++) {
        const row = this.tokens[i]!.starts === 'entry' ? this.scaleRow(i) : undefined;
        if (!row) continue;
        const [value, label, , key] = row.map((j) => this.tokens[j]!);
        block.valueWidth = Math.max(block.valueWidth, width(value!.text));
        block.labelWidth = Math.max(block.labelWidth, width(label!.text));
        if (row.length > 4) block.keyWidth = Math.max(block.keyWidth, width(key!.text));
      }
    }
    this.stack.push(block);
  }

  /** `{ … }` from `open` to `close` on one line. */
  private inline(open: number, close: number): string {
    let out = '';
    for (let i = open; i <= close; i++) {
      const token = this.tokens[i]!;
      out += (i === open ? '' : isPunct(token, '}') ? ' ' : separator(this.tokens[i - 1], token)) + token.text;
    }
    return out;
  }

  /** The token indices of a scale row starting at `start` (VALUE "label" key "k" ["description"]), when it has no comment inside. */
  private scaleRow(start: number): number[] | undefined {
    const row: number[] = [start];
    for (let i = start + 1; i < this.tokens.length; i++) {
      const token = this.tokens[i]!;
      if (token.starts === 'entry' || isPunct(token, '}')) break;
      if (token.kind === 'continuation') return undefined;
      if (token.kind === 'comment') {
        // A comment after the row's last token ends the row (it stays trailing); one inside breaks alignment.
        let next = i + 1;
        while (this.tokens[next]?.kind === 'comment') next++;
        const after = this.tokens[next];
        if (after && after.starts !== 'entry' && !isPunct(after, '}')) return undefined;
        break;
      }
      row.push(i);
    }
    return row.length === 4 || row.length === 5 ? row : undefined;
  }

  private alignedRow(row: number[], block: OpenBlock): string {
    const [value, label, key, keyValue, description] = row.map((j) => this.tokens[j]!);
    const pad = (text: string, to: number) => text + ' '.repeat(Math.max(0, to - width(text)));
    let out = `${' '.repeat(Math.max(0, block.valueWidth - width(value!.text)))}${value!.text} ${pad(label!.text, block.labelWidth)}  ${key!.text} `;
    out += description ? `${pad(keyValue!.text, block.keyWidth)}  ${description.text}` : keyValue!.text;
    return out;
  }
}
