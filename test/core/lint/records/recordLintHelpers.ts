// Shared by the record lint tests: run lintRecordText and look at diagnostics as compact, exact strings.
import { lintRecordText } from '../../../../core/lint/records/lintRecordText.ts';
import type { RecordLintOptions } from '../../../../core/lint/records/types.ts';
import type { LintDiagnostic } from '../../../../core/lint/types.ts';

export { where } from '../lintTestHelpers.ts';

import { where } from '../lintTestHelpers.ts';

/** The diagnostics of `rule` for `text`. */
export function findings(text: string, rule: string, options?: RecordLintOptions): LintDiagnostic[] {
  return lintRecordText(text, options).diagnostics.filter((d) => d.rule === rule);
}

/** Every diagnostic of `text`, as `where` strings. */
export function summary(text: string, options?: RecordLintOptions): string[] {
  return lintRecordText(text, options).diagnostics.map(where);
}

/** `count` BEIR corpus lines d1…dN. */
export function corpusLines(count: number, from = 1): string {
  let text = '';
  for (let i = from; i < from + count; i++) {
    text += `{"_id": "d${i}", "title": "Title ${i}", "text": "Text of document ${i}."}\n`;
  }
  return text;
}
