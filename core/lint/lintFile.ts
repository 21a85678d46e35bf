// Lints a file on disk (plain or gzip, streamed as byte ranges: no string per line). Rejects with the reader's
// FileReadError ("FILE: cannot read: no such file") when the file cannot be read.
//
// A plain file is read in blocks of whole lines that the session scans itself (LintSession.addLines: one pass
// over the bytes finds each line's end and splits it); gzip goes through the shared line reader, line by line.
import { stat } from 'node:fs/promises';
import { estimateLineCount, FileReadError, readLineBlocks, readLines } from '../formats/lineReader.ts';
import { LintSession } from './lintSession.ts';
import type { StudyLintContext } from './studyContext.ts';
import type { LintOptions, LintResult } from './types.ts';

/** `path` is read; `name` (default: `path`) is what diagnostics call the file. */
export async function lintFile(
  path: string,
  options: LintOptions & { name?: string; study?: StudyLintContext } = {},
): Promise<LintResult> {
  // A pipe (`<(zcat …)`) is opened once, by the line reader: opening it to look and closing it unread would lose
  // what its writer wrote. (It cannot be linted again either: a file whose queries come back is linted again.)
  const regular = await isRegularFile(path);
  const session = new LintSession(options.name ?? path, {
    type: options.type,
    expectedLines: regular ? estimateLineCount(path) : undefined,
    study: options.study,
    everyPair: !regular,
  });
  const result = await readInto(path, session, regular);
  // Queries came back after others: lint again keeping every pair (see LintSession.needsEveryPair).
  return session.needsEveryPair ? readInto(path, session.again(), regular) : result;
}

async function isRegularFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch (error) {
    throw new FileReadError(path, error);
  }
}

async function readInto(path: string, session: LintSession, regular: boolean): Promise<LintResult> {
  const summary =
    (regular ? await readPlainBlocks(path, session) : undefined) ?? (await readLines(path, session.addLine));
  return session.finish({ lines: summary.lines, endsWithNewline: summary.endsWithNewline });
}

/**
 * Feeds a plain regular file to the session in blocks of whole lines (LintSession.addLines scans them itself);
 * undefined, having read only its first bytes, when the file is gzip.
 */
async function readPlainBlocks(
  path: string,
  session: LintSession,
): Promise<{ lines: number; endsWithNewline: boolean } | undefined> {
  let nextLine = 1;
  const summary = await readLineBlocks(path, (bytes, start, end) => {
    // The last line without its '\n' comes alone.
    if (bytes[end - 1] !== 10) return void session.addLine(bytes, start, end, nextLine++);
    nextLine = session.addLines(bytes, start, end, nextLine);
    return nextLine >= 0;
  });
  if (summary === undefined) return undefined;
  if (summary.stopped) return { lines: 0, endsWithNewline: true }; // stopped: nothing more is checked
  return { lines: nextLine - 1, endsWithNewline: summary.endsWithNewline };
}
