// Lints a file on disk (plain or gzip, streamed as byte ranges: no string per line). Rejects with the reader's
// FileReadError ("FILE: cannot read: no such file") when the file cannot be read.
//
// A plain file is read in blocks of whole lines that the session scans itself (LintSession.addLines: one pass
// over the bytes finds each line's end and splits it); gzip goes through the shared line reader, line by line.
import { open, stat } from 'node:fs/promises';
import { estimateLineCount, FileReadError, readLines } from '../formats/lineReader.ts';
import { LintSession } from './lintSession.ts';
import type { StudyLintContext } from './studyContext.ts';
import type { LintOptions, LintResult } from './types.ts';

const blockSize = 1 << 19;

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
 * Feeds a plain regular file to the session in blocks of whole lines (a line longer than the buffer grows it);
 * undefined, having read only its first bytes, when the file is gzip.
 */
async function readPlainBlocks(
  path: string,
  session: LintSession,
): Promise<{ lines: number; endsWithNewline: boolean } | undefined> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(path, 'r');
    let buffer = Buffer.allocUnsafe(blockSize);
    let filled = 0; // bytes of an unfinished line at the start of the buffer
    let nextLine = 1;
    let first = true;
    for (;;) {
      if (filled === buffer.length) {
        const longer = Buffer.allocUnsafe(buffer.length * 2);
        buffer.copy(longer, 0, 0, filled);
        buffer = longer;
      }
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, null);
      if (first && filled + bytesRead >= 2 && buffer[0] === 0x1f && buffer[1] === 0x8b) return undefined;
      first = false;
      if (bytesRead === 0) break;
      const end = filled + bytesRead;
      const lastNewline = buffer.lastIndexOf(10, end - 1);
      filled = end;
      if (lastNewline === -1) continue;
      nextLine = session.addLines(buffer, 0, lastNewline + 1, nextLine);
      if (nextLine < 0) return { lines: 0, endsWithNewline: true }; // stopped: nothing more is checked
      buffer.copyWithin(0, lastNewline + 1, end);
      filled = end - lastNewline - 1;
    }
    if (filled > 0) session.addLine(buffer, 0, filled, nextLine++);
    return { lines: nextLine - 1, endsWithNewline: filled === 0 };
  } catch (error) {
    // System errors (which carry a code) become a FileReadError; the session's own errors pass through unchanged.
    if (typeof (error as NodeJS.ErrnoException | undefined)?.code === 'string') throw new FileReadError(path, error);
    throw error;
  } finally {
    await handle?.close();
  }
}
