// What the cross-file checks may ask about the world, and nothing more: they never touch the file system
// themselves, so the language server can answer from open editor buffers, tests from a temp dir, and the CLI from
// disk. `nodeStudyHost` is the disk answer: files through node:fs, data-file fields from the first records or the
// header (readDataFileFields), run files through core/lint unless the caller plugs its own linter.
import { createReadStream } from 'node:fs';
import { access, readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { lintFile } from '../lint/lintFile.ts';

export interface StudyHost {
  /** Whether a file exists (absolute path). */
  exists(path: string): Promise<boolean>;
  /** Field names of a JSONL/CSV/TSV data file (from its header or first records), or a problem message. */
  readFields(path: string): Promise<{ fields: string[] } | { problem: string }>;
  /** Lints a run file: its error count and the first error, for "pool run files parse". */
  checkRunFile(path: string): Promise<{ errors: number; first?: { line: number; column: number; message: string } }>;
  /** Reads a text file (prompt templates, guidelines), or undefined when unreadable. */
  readText(path: string): Promise<string | undefined>;
}

/** How many JSONL records the default reader looks at: fields missing from the first record still count. */
const recordsSampled = 20;

/** A disk-backed host; `readFields` and `checkRunFile` can be replaced by the caller's own readers. */
export function nodeStudyHost(
  options: { readFields?: StudyHost['readFields']; checkRunFile?: StudyHost['checkRunFile'] } = {},
): StudyHost {
  return {
    exists: async (path) => {
      try {
        await access(path);
        return true;
      } catch {
        return false;
      }
    },
    readFields: options.readFields ?? readDataFileFields,
    checkRunFile: options.checkRunFile ?? lintRunFile,
    readText: async (path) => {
      try {
        return await readFile(path, 'utf8');
      } catch {
        return undefined;
      }
    },
  };
}

/** Lints a run file with core/lint (as a TREC run): its error count and first error. */
export async function lintRunFile(
  path: string,
): Promise<{ errors: number; first?: { line: number; column: number; message: string } }> {
  try {
    const result = await lintFile(path, { type: 'run' });
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    const first = errors[0];
    return {
      errors: errors.length,
      ...(first && { first: { line: first.line, column: first.column, message: first.message } }),
    };
  } catch (error) {
    return {
      errors: 1,
      first: { line: 1, column: 1, message: error instanceof Error ? error.message : String(error) },
    };
  }
}

type DataShape = 'jsonl' | 'csv' | 'tsv';

function shapeOf(path: string): DataShape | undefined {
  const name = path.toLowerCase().replace(/\.gz$/, '');
  if (/\.(jsonl|ndjson|json)$/.test(name)) return 'jsonl';
  if (name.endsWith('.csv')) return 'csv';
  if (/\.(tsv|tab)$/.test(name)) return 'tsv';
  return undefined;
}

/**
 * Field names of a data file: the keys of the first records of a JSONL file (in order of first appearance), or
 * the header of a CSV/TSV file. The type comes from the extension (`.gz` allowed); other files are JSONL when
 * their first line starts with `{`, TSV when it has a tab, CSV otherwise.
 */
export async function readDataFileFields(path: string): Promise<{ fields: string[] } | { problem: string }> {
  let lines: string[];
  try {
    lines = await firstLines(path, recordsSampled);
  } catch (error) {
    return { problem: `cannot read it (${error instanceof Error ? error.message : String(error)})` };
  }
  const nonEmpty = lines
    .map((text, i) => ({ text: text.replace(/^\ufeff/, ''), number: i + 1 }))
    .filter((l) => l.text.trim() !== '');
  const first = nonEmpty[0];
  if (!first) return { problem: 'it is empty' };
  const shape =
    shapeOf(path) ?? (first.text.trimStart().startsWith('{') ? 'jsonl' : first.text.includes('\t') ? 'tsv' : 'csv');
  if (shape === 'tsv')
    return {
      fields: first.text
        .replace(/\r$/, '')
        .split('\t')
        .map((f) => f.trim()),
    };
  if (shape === 'csv') return { fields: csvHeader(first.text.replace(/\r$/, '')) };
  const fields: string[] = [];
  for (const line of nonEmpty) {
    let record: unknown;
    try {
      record = JSON.parse(line.text);
    } catch (error) {
      return { problem: `line ${line.number} is not JSON (${error instanceof Error ? error.message : String(error)})` };
    }
    if (typeof record !== 'object' || record === null || Array.isArray(record)) {
      return { problem: `line ${line.number} is not a JSON object` };
    }
    for (const key of Object.keys(record)) if (!fields.includes(key)) fields.push(key);
  }
  return { fields };
}

/** The cells of a CSV header line (RFC 4180 quoting). */
function csvHeader(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      cells.push(cell.trim());
      cell = '';
    } else cell += c;
  }
  cells.push(cell.trim());
  return cells;
}

/** The first `count` lines of a file (plain or gzip), reading no further than needed. */
async function firstLines(path: string, count: number): Promise<string[]> {
  const file = createReadStream(path);
  const stream = path.toLowerCase().endsWith('.gz') ? file.pipe(createGunzip()) : file;
  const failed = new Promise<never>((_, reject) => {
    file.on('error', reject);
    stream.on('error', reject);
  });
  failed.catch(() => {}); // a late error after the lines were read is of no interest
  const reader = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  const lines: string[] = [];
  const read = (async () => {
    for await (const line of reader) {
      lines.push(line);
      if (lines.length >= count) break;
    }
    return lines;
  })();
  try {
    return await Promise.race([read, failed]);
  } finally {
    reader.close();
    file.destroy();
  }
}
