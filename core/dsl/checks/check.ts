// A semantic check is a record: its code (the diagnostic code it reports), severity, a description of what it
// checks and why, and a pure function over the syntax tree. No I/O here: checks that read the files a study
// refers to live in ../fileChecks/. The registry (registry.ts) lists them; checkStudyFile runs them all.
import type { BlockNode, StudyFileAst } from '../ast.ts';
import type { DslDiagnostic, DslSeverity } from '../types.ts';

export type CheckReport = Omit<DslDiagnostic, 'code' | 'severity'> & { severity?: DslSeverity };

export interface CheckContext {
  readonly file: StudyFileAst;
  readonly text: string;
  report(problem: CheckReport): void;
}

export interface StudyCheck {
  readonly code: string;
  readonly severity: DslSeverity;
  /** What the check finds and why it matters (help text). */
  readonly description: string;
  check(context: CheckContext): void;
}

/** A per-block check: most checks look at one block at a time. */
export function eachBlock(
  context: CheckContext,
  check: (block: BlockNode, report: CheckContext['report']) => void,
): void {
  for (const block of context.file.blocks) check(block, context.report);
}

/** `study "name"` / `review "name"` for messages. */
export function blockLabel(block: BlockNode): string {
  return block.name ? `${block.kind} ${JSON.stringify(block.name.value)}` : `this ${block.kind}`;
}

/** "a, b and c". */
export function listWords(words: readonly string[], quote = true): string {
  const shown = words.map((w) => (quote ? `\`${w}\`` : w));
  if (shown.length <= 1) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
}
