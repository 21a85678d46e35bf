// Lints a document held in memory (an editor buffer) with exactly the per-line code lintFile uses.
import { LintSession } from './lintSession.ts';
import type { StudyLintContext } from './studyContext.ts';
import type { LintFileType, LintResult } from './types.ts';

export function lintText(text: string, type?: LintFileType, file = '<text>', study?: StudyLintContext): LintResult {
  return lintTextWith(new LintSession(file, { type, study }), text);
}

/** Feeds `text` to `session` (its whole lines at once, then a last line without a newline) and finishes it. */
export function lintTextWith(session: LintSession, text: string): LintResult {
  const bytes = Buffer.from(text, 'utf8');
  const result = feedText(session, bytes);
  // Queries came back after others: lint again keeping every pair (see LintSession.needsEveryPair).
  return session.needsEveryPair ? feedText(session.again(), bytes) : result;
}

function feedText(session: LintSession, bytes: Buffer): LintResult {
  const wholeLinesEnd = bytes.lastIndexOf(10) + 1;
  const next = session.addLines(bytes, 0, wholeLinesEnd, 1);
  const endsWithNewline = wholeLinesEnd === bytes.length;
  // Once the session stops, what follows is not looked at (the number of lines only matters to a running session).
  let lines = next < 0 ? 0 : next - 1;
  if (next >= 0 && !endsWithNewline) session.addLine(bytes, wholeLinesEnd, bytes.length, ++lines);
  return session.finish({ lines, endsWithNewline });
}
