// Lints a file on disk (plain or gzip, streamed as byte ranges: no string per line). Rejects with the reader's
// FileReadError ("FILE: cannot read: no such file") when the file cannot be read.
import { estimateLineCount, readLines } from '../formats/lineReader.ts';
import { LintSession } from './lintSession.ts';
import type { StudyLintContext } from './studyContext.ts';
import type { LintOptions, LintResult } from './types.ts';

/** `path` is read; `name` (default: `path`) is what diagnostics call the file. */
export async function lintFile(
  path: string,
  options: LintOptions & { name?: string; study?: StudyLintContext } = {},
): Promise<LintResult> {
  const session = new LintSession(options.name ?? path, {
    type: options.type,
    expectedLines: estimateLineCount(path),
    study: options.study,
  });
  const summary = await readLines(path, session.addLine);
  return session.finish({ lines: summary.lines, endsWithNewline: summary.endsWithNewline });
}
