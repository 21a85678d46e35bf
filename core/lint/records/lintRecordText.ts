// Lints a record file held in memory (an editor buffer) with exactly the per-line code lintRecordFile uses.
import { RecordLintSession } from './recordSession.ts';
import type { RecordLintOptions, RecordLintResult } from './types.ts';

export function lintRecordText(text: string, options: RecordLintOptions = {}): RecordLintResult {
  const bytes = Buffer.from(text, 'utf8');
  const session = new RecordLintSession(options.file ?? '<text>', options);
  let lineNumber = 0;
  let position = 0;
  let stopped = false;
  for (;;) {
    const newline = bytes.indexOf(10, position);
    if (newline === -1) break;
    if (!session.addLine(bytes, position, newline, ++lineNumber)) {
      stopped = true; // the session will not lint further: no need to split the rest
      break;
    }
    position = newline + 1;
  }
  const endsWithNewline = position === bytes.length;
  if (!stopped && !endsWithNewline) session.addLine(bytes, position, bytes.length, ++lineNumber);
  return session.finish({ lines: lineNumber, endsWithNewline });
}
