// Lints a record file on disk (plain or gzip, streamed as byte ranges). Rejects with the reader's FileReadError
// ("FILE: cannot read: no such file") when the file cannot be read.
import { readLines } from '../../formats/lineReader.ts';
import { RecordLintSession } from './recordSession.ts';
import type { RecordLintOptions, RecordLintResult } from './types.ts';

/** `path` is read; `options.file` (default: `path`) is what diagnostics call the file. */
export async function lintRecordFile(path: string, options: RecordLintOptions = {}): Promise<RecordLintResult> {
  const session = new RecordLintSession(options.file ?? path, options);
  const summary = await readLines(path, session.addLine);
  return session.finish({ lines: summary.lines, endsWithNewline: summary.endsWithNewline });
}
