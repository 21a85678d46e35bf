// Shared by the lint tests: run lintText and look at diagnostics as compact, exact strings.
import { lintText } from '../../../core/lint/lintText.ts';
import type { LintDiagnostic, LintFileType } from '../../../core/lint/types.ts';

/** "line:column-endLine:endColumn severity rule". */
export function where(d: LintDiagnostic): string {
  return `${d.line}:${d.column}-${d.endLine}:${d.endColumn} ${d.severity} ${d.rule}`;
}

/** The diagnostics of `rule` for `text`. */
export function findings(text: string, rule: string, type?: LintFileType): LintDiagnostic[] {
  return lintText(text, type).diagnostics.filter((d) => d.rule === rule);
}

/** Every diagnostic of `text`, as `where` strings. */
export function summary(text: string, type?: LintFileType): string[] {
  return lintText(text, type).diagnostics.map(where);
}

/** `count` well-formed qrels lines for query `qid` (docs d1…dN, the first one relevant). */
export function qrelsLines(qid: string, count: number): string {
  let text = '';
  for (let i = 1; i <= count; i++) text += `${qid} 0 d${i} ${i === 1 ? 1 : 0}\n`;
  return text;
}

/** `count` well-formed run lines for query `qid`, ranks 1…N with decreasing scores. */
export function runLines(qid: string, count: number, tag = 'tag'): string {
  let text = '';
  for (let i = 1; i <= count; i++) text += `${qid} Q0 d${i} ${i} ${(100 - i) / 10} ${tag}\n`;
  return text;
}
