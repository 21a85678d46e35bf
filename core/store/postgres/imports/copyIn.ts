// Rows into a table through COPY … FROM STDIN (pg-copy-streams), in COPY's text format: the fastest way into
// PostgreSQL, and the one an import's staging streams through.
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/** One value as COPY's text format writes it: NULL as \N, the separators and the backslash escaped. */
export function copyValue(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'number') return String(value);
  return value.replace(/[\\\n\r\t]/g, (c) => (c === '\\' ? '\\\\' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\t'));
}

/** One row, with its line end. */
export function copyLine(values: readonly (string | number | null | undefined)[]): string {
  return `${values.map(copyValue).join('\t')}\n`;
}

/** Sends `text` (lines of copyLine) to `COPY <target> FROM STDIN`; resolves once the server has taken every row. */
export async function copyIn(client: PoolClient, target: string, text: string): Promise<void> {
  if (text.length === 0) return;
  const stream = client.query(copyFrom(`COPY ${target} FROM STDIN`));
  await new Promise<void>((resolve, reject) => {
    stream.on('error', reject);
    stream.on('finish', resolve);
    stream.end(text);
  });
}
