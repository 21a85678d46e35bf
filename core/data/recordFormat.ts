// The formats of one-record-per-line data files, and how to tell them from content: a JSONL line starts with '{';
// anything else is a CSV or TSV header, told apart by which separator it uses. Names are only a fallback for
// content that cannot tell (a one-column CSV has no separator at all).

export type RecordFormat = 'jsonl' | 'csv' | 'tsv';

export const recordFormatNames: Record<RecordFormat, string> = { jsonl: 'JSONL', csv: 'CSV', tsv: 'TSV' };

/**
 * The format of a file from its first lines: JSONL when the first non-blank line starts with '{' (or most of the
 * non-blank lines given do: a broken first record does not make a JSONL file a CSV); otherwise the first line is a
 * header, CSV when it has commas, TSV when it has tabs (outside quotes; tabs win a tie). Undefined when it cannot
 * tell: a '[' (a JSON array is not JSONL), or a header with neither separator.
 */
export function detectRecordFormat(firstLines: readonly string[]): RecordFormat | undefined {
  const content = firstLines
    .map((line, i) => (i === 0 && line.charCodeAt(0) === 0xfeff ? line.slice(1) : line))
    .filter((line) => !isBlankText(line));
  const first = content[0];
  if (first === undefined) return undefined;
  const lead = first.trimStart()[0];
  if (lead === '{') return 'jsonl';
  const objects = content.filter((line) => line.trimStart().startsWith('{')).length;
  if (objects * 2 > content.length) return 'jsonl';
  if (lead === '[') return undefined;
  const { commas, tabs } = countSeparators(first);
  if (tabs > 0 && tabs >= commas) return 'tsv';
  if (commas > 0) return 'csv';
  return undefined;
}

/** Commas and tabs of a header line outside double quotes. */
export function countSeparators(line: string): { commas: number; tabs: number } {
  let commas = 0;
  let tabs = 0;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 34) quoted = !quoted;
    else if (quoted) continue;
    else if (c === 44) commas++;
    else if (c === 9) tabs++;
  }
  return { commas, tabs };
}

/** The format a file name suggests (`.jsonl`, `.ndjson`, `.csv`, `.tsv`, also under `.gz`), if any. */
export function formatFromFileName(name: string): RecordFormat | undefined {
  const match = /\.(jsonl|ndjson|csv|tsv)(\.gz)?$/i.exec(name);
  const extension = match?.[1]?.toLowerCase();
  if (extension === 'jsonl' || extension === 'ndjson') return 'jsonl';
  if (extension === 'csv' || extension === 'tsv') return extension;
  return undefined;
}

/** Spaces, tabs and CRs only (what a JSON or CSV reader sees as an empty line). */
export function isBlankText(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13) return false;
  }
  return true;
}

/**
 * What a file name says about linting a file as records: JSONL and CSV files are records whatever their content
 * looks like (a JSON line has whitespace-separated "columns" too); a TSV file may also be BEIR qrels, so it is
 * records only when its content is not TREC data. Undefined: not a record file name.
 */
export function recordFileByName(name: string): 'records' | 'records-unless-trec' | undefined {
  const format = formatFromFileName(name);
  if (format === undefined) return undefined;
  return format === 'tsv' ? 'records-unless-trec' : 'records';
}
