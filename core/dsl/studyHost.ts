// What the cross-file checks may ask about the world, and nothing more: they never touch the file system
// themselves, so the language server can answer from open editor buffers, tests from a temp dir, and the CLI from
// disk. `nodeStudyHost` is the disk answer: files through node:fs, data-file fields from the first records or the
// header (readDataFileFields), run files through core/lint unless the caller plugs its own linter.
import { access, readFile } from 'node:fs/promises';
import { readFieldNames } from '../data/fieldNames.ts';
import { readParquetColumns, readViewerCopyColumns } from '../importers/sourceColumns.ts';
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

/**
 * Field names of a data file (core/data's readFieldNames: the keys of the first JSONL records, or the CSV/TSV
 * header), with problems phrased for a message that already names the file.
 */
export async function readDataFileFields(path: string): Promise<{ fields: string[] } | { problem: string }> {
  // A Parquet file could pass for a CSV header (its bytes hold commas): asked first. A viewer copy is no JSONL,
  // CSV or TSV: asked when those fail.
  const parquet = await readParquetColumns(path);
  if (parquet !== undefined) return parquet;
  const answer = await readFieldNames(path);
  if ('fields' in answer) return answer;
  const viewer = await readViewerCopyColumns(path);
  if (viewer !== undefined) return viewer;
  const prefix = `${path}: `;
  return { problem: answer.problem.startsWith(prefix) ? answer.problem.slice(prefix.length) : answer.problem };
}
