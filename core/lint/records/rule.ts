// A record lint rule is a record, like core/lint's: id, severity, one-line description, the formats (and kinds)
// it checks, and a factory for its per-file check. The session calls `line` for every physical line, `header` for
// a CSV/TSV header, `record` for every JSONL line and CSV/TSV row (a rule looks at `record.kind`), and `end` once.
// Rules with no `create` are file-level verdicts the session reports itself (an undetectable format, no records).
import type { RecordFormat } from '../../data/recordFormat.ts';
import type { FileEnd, Problem } from '../rule.ts';
import type { LintSeverity } from '../types.ts';
import type { RequiredField } from './recordKinds.ts';
import type { HeaderView, PhysicalLine, RecordView } from './recordView.ts';
import type { RecordKind } from './types.ts';

export type { Problem };

/** What end checks learn about the file: core/lint's FileEnd, and where its last line ends. */
export interface RecordFileEnd extends FileEnd {
  /** Column just past the last line's text (1 for an empty file). */
  lastLineEndColumn: number;
}
export { plural, quote } from '../rule.ts';

export interface RecordRule {
  readonly id: string;
  readonly severity: LintSeverity;
  /** What the rule checks and why it matters, in a sentence or two (help text, hover). */
  readonly description: string;
  readonly formats: readonly RecordFormat[];
  /** The kinds it checks; every kind when absent. */
  readonly kinds?: readonly RecordKind[];
  create?(context: RecordRuleContext): RecordCheck;
}

export interface RecordCheck {
  line?(line: PhysicalLine): void;
  header?(header: HeaderView): void;
  record?(record: RecordView): void;
  end?(file: RecordFileEnd): void;
}

export interface RecordRuleContext {
  readonly file: string;
  readonly format: RecordFormat;
  readonly kind: RecordKind;
  /** The id field (the study's `mapping.id`, the kind's, or `_id`/`id` when the first record has one). */
  readonly idField: string | undefined;
  /** Fields every record needs (the study's mapping, the kind's). */
  readonly requiredFields: readonly RequiredField[];
  report(problem: Problem): void;
}
