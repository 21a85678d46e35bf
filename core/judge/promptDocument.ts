// What a judge's prompt shows of a document. Tables reach the model as Markdown (TARGET §5: Markdown serialisation
// beat JSON for LLMs), whatever they were stored as: a JSON table (the Label view's parser) or an HTML table, whose
// rowspan/colspan cells are repeated in every row and column they span and whose stacked header rows become one
// header ("Medals / Gold"). Before the table come its context lines (database, keys) when the corpus maps them.
// Anything that is not a table is shown as stored. Pure text in and out (no DOM): core runs in Node.

import { type JsonTable, parseJsonTable } from '../labelling/jsonTable.ts';
import type { DocumentFormat } from '../labelling/types.ts';

/** A table as parsed from HTML: its header, rows and caption. */
export interface HtmlTable extends JsonTable {
  caption?: string;
}

const namedEntities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return namedEntities[name.toLowerCase()] ?? whole;
  });
}

function spanOf(attributes: string, name: 'rowspan' | 'colspan'): number {
  const match = new RegExp(`\\b${name}\\s*=\\s*["']?\\s*(\\d{1,4})`, 'i').exec(attributes);
  const value = match ? Number(match[1]) : 1;
  return value >= 1 ? Math.min(value, 1000) : 1;
}

interface Cell {
  text: string;
  header: boolean;
  rowspan: number;
  colspan: number;
}

/**
 * The first table of an HTML body, or undefined when the body holds no `<table>` with a cell. Tolerant the way
 * browsers are: unclosed cells and rows end at the next one; tags inside a cell leave their text (`<br>` a space).
 */
export function parseHtmlTable(html: string): HtmlTable | undefined {
  const rows: { cells: Cell[]; inHead: boolean }[] = [];
  let depth = 0;
  let inHead = false;
  let cell: Cell | undefined;
  let caption: string | undefined;
  let inCaption = false;
  const endCell = () => {
    if (cell) {
      cell.text = decodeEntities(cell.text).replace(/\s+/g, ' ').trim();
      if (rows.length === 0) rows.push({ cells: [], inHead });
      rows.at(-1)!.cells.push(cell);
    }
    cell = undefined;
  };
  for (const match of html.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9]*)\b([^>]*)>|<!--[\s\S]*?-->|([^<]+|<)/g)) {
    const [, closing, rawTag, attributes = '', text] = match;
    if (text !== undefined) {
      if (cell && depth >= 1) cell.text += text;
      else if (inCaption) caption = (caption ?? '') + text;
      continue;
    }
    if (rawTag === undefined) continue;
    const tag = rawTag.toLowerCase();
    if (tag === 'table') {
      if (closing) {
        depth--;
        if (depth === 0) {
          endCell();
          break;
        }
      } else depth++;
      continue;
    }
    if (depth === 0) continue;
    // A table inside a cell: its text joins the cell's.
    if (depth > 1) {
      if (cell && (tag === 'td' || tag === 'th' || tag === 'br' || tag === 'tr')) cell.text += ' ';
      continue;
    }
    if (tag === 'caption') inCaption = !closing;
    else if (tag === 'thead') inHead = !closing;
    else if (tag === 'tbody' || tag === 'tfoot') inHead = false;
    else if (tag === 'tr') {
      endCell();
      if (!closing) rows.push({ cells: [], inHead });
    } else if (tag === 'td' || tag === 'th') {
      endCell();
      if (!closing) {
        cell = {
          text: '',
          header: tag === 'th',
          rowspan: spanOf(attributes, 'rowspan'),
          colspan: spanOf(attributes, 'colspan'),
        };
      }
    } else if (cell && (tag === 'br' || tag === 'p' || tag === 'div' || tag === 'li')) cell.text += ' ';
  }
  endCell();
  const filled = rows.filter((r) => r.cells.length > 0);
  if (filled.length === 0) return undefined;
  // The grid, each spanning cell repeated in every position it covers.
  const grid: (Cell | undefined)[][] = [];
  filled.forEach((row, r) => {
    grid[r] ??= [];
    let c = 0;
    for (const spanning of row.cells) {
      while (grid[r]![c] !== undefined) c++;
      for (let dr = 0; dr < spanning.rowspan && r + dr < filled.length; dr++) {
        grid[r + dr] ??= [];
        for (let dc = 0; dc < spanning.colspan; dc++) grid[r + dr]![c + dc] = spanning;
      }
      c += spanning.colspan;
    }
  });
  let width = 0;
  for (const row of grid) width = Math.max(width, row.length);
  const texts = grid.map((row) => Array.from({ length: width }, (_, i) => row[i]?.text ?? ''));
  // Header rows: those in <thead>, else the leading rows made of <th> cells only, else the first row.
  let headerRows = 0;
  while (
    headerRows < filled.length - 1 &&
    (filled[headerRows]!.inHead || grid[headerRows]!.every((c) => c === undefined || c.header))
  )
    headerRows++;
  if (headerRows === 0) headerRows = 1;
  const header = Array.from({ length: width }, (_, i) => {
    const stacked: string[] = [];
    for (let r = 0; r < headerRows; r++) {
      const text = texts[r]![i]!;
      if (text !== '' && stacked.at(-1) !== text) stacked.push(text);
    }
    return stacked.join(' / ');
  });
  const tidyCaption = caption === undefined ? undefined : decodeEntities(caption).replace(/\s+/g, ' ').trim();
  return { header, rows: texts.slice(headerRows), ...(tidyCaption && { caption: tidyCaption }) };
}

/** A table as a Markdown pipe table: `|` in a cell escaped, line breaks as spaces. */
export function markdownTable(table: JsonTable): string {
  const cell = (text: string) => text.replace(/\s*\n\s*/g, ' ').replaceAll('|', '\\|');
  const line = (cells: readonly string[]) => `| ${cells.map(cell).join(' | ')} |`;
  return [line(table.header), `|${table.header.map(() => '---|').join('')}`, ...table.rows.map(line)].join('\n');
}

/** Whether a Markdown body is a pipe table and nothing else (a header line, a delimiter line, rows). */
function isMarkdownTable(body: string): boolean {
  const lines = body
    .trim()
    .split('\n')
    .map((l) => l.trim());
  return (
    lines.length >= 2 &&
    /^\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?$/.test(lines[1]!) &&
    lines[1]!.includes('-') &&
    lines.every((l) => l.includes('|'))
  );
}

/** Whether a stored document is a table: a JSON table, an HTML body that is one `<table>`, a Markdown pipe table. */
export function isTableDocument(body: string, format: DocumentFormat): boolean {
  if (format === 'table-json') return !('error' in parseJsonTable(body));
  if (format === 'html') return /^<table\b[\s\S]*<\/table>$/i.test(body.trim()) && parseHtmlTable(body) !== undefined;
  if (format === 'markdown') return isMarkdownTable(body);
  return false;
}

/** The corpus roles whose values give a table its context in a prompt, with how each is introduced. */
export const tableContextRoles = { database: 'Database', keys: 'Keys' } as const;

/** A document as the judge's prompt shows it. */
export interface PromptDocumentInput {
  body: string;
  format: DocumentFormat;
  /** The record's fields no role took (the importer keeps them), as JSON text. */
  metadata?: string | null;
}

/**
 * The text `{{document}}` renders for a document: a table as Markdown with its context lines first (the
 * `corpusFields` roles `database` and `keys` name the record's fields), anything else as stored.
 */
export function promptDocument(document: PromptDocumentInput, corpusFields: Record<string, string> = {}): string {
  let table: HtmlTable | undefined;
  if (document.format === 'table-json') {
    const parsed = parseJsonTable(document.body);
    if (!('error' in parsed)) table = parsed;
  } else if (document.format === 'html' && isTableDocument(document.body, 'html')) {
    table = parseHtmlTable(document.body);
  }
  const tabular = table !== undefined || isTableDocument(document.body, document.format);
  if (!tabular) return document.body;
  const context: string[] = [];
  if (table?.caption) context.push(`Caption: ${table.caption}`);
  const metadata = parseMetadata(document.metadata);
  for (const [role, shown] of Object.entries(tableContextRoles)) {
    const field = corpusFields[role];
    const value = field === undefined ? undefined : metadata[field];
    if (value === undefined || value === null || value === '') continue;
    context.push(`${shown}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
  }
  const text = table ? markdownTable(table) : document.body.trim();
  return context.length > 0 ? `${context.join('\n')}\n\n${text}` : text;
}

function parseMetadata(metadata: string | null | undefined): Record<string, unknown> {
  if (!metadata) return {};
  try {
    const value: unknown = JSON.parse(metadata);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
