// Lints a document held in memory (an editor buffer) with exactly the per-line code lintFile uses.
import { LintSession } from './lintSession.ts';
import type { StudyLintContext } from './studyContext.ts';
import type { LintFileType, LintResult } from './types.ts';

export function lintText(text: string, type?: LintFileType, file = '<text>', study?: StudyLintContext): LintResult {
  return lintTextWith(new LintSession(file, { type, study }), text);
}

/** Feeds `text` to `session` line by line and finishes it. */
export function lintTextWith(session: LintSession, text: string): LintResult {
  const bytes = Buffer.from(text, 'utf8');
  let lineNumber = 0;
  let position = 0;
  for (;;) {
    const newline = bytes.indexOf(10, position);
    if (newline === -1) break;
    session.addLine(bytes, position, newline, ++lineNumber);
    position = newline + 1;
  }
  const endsWithNewline = position === bytes.length;
  if (!endsWithNewline) session.addLine(bytes, position, bytes.length, ++lineNumber);
  return session.finish({ lines: lineNumber, endsWithNewline });
}
