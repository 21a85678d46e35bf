// What the user is told when a study cannot be opened, imported or exported. Errors about their files and data are
// shown as their message (positioned: "corpus.jsonl:3:7: expected …"), never as a stack trace; anything else is
// unexpected and the caller logs its stack to the output channel.
import { offsetToLineColumn } from '../../core/dsl/index.ts';
import type { DslDiagnostic } from '../../core/dsl/types.ts';
import { FormatError } from '../../core/formats/formatError.ts';
import { FileReadError } from '../../core/formats/lineReader.ts';
import { ImportError } from '../../core/importers/types.ts';
import { MeasureSpecError } from '../../core/metrics/measureSelection.ts';
import { ImportRequestError } from '../../core/store/declaredImport.ts';
import { SchemaVersionError } from '../../core/store/migrate.ts';
import { NativeBindingMissingError } from '../../core/store/sqliteDatabase.ts';
import { ImportCancelledError, StoreError } from '../../core/store/studyDatabase.ts';

/** The message to show for an error the user can act on, or undefined for an unexpected one. */
export function userErrorMessage(error: unknown): string | undefined {
  if (
    error instanceof StoreError ||
    error instanceof ImportError ||
    error instanceof ImportRequestError ||
    error instanceof ImportCancelledError ||
    error instanceof FormatError ||
    error instanceof FileReadError ||
    error instanceof SchemaVersionError ||
    error instanceof NativeBindingMissingError ||
    error instanceof MeasureSpecError
  ) {
    return error.message;
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'SQLITE_BUSY') return 'the study database is busy (another process is writing to it): try again';
  if (code === 'ENOENT' || code === 'EACCES') return (error as Error).message;
  return undefined;
}

/** "wqt.assess has 2 errors: fix them first — 3:5 expected …; 7:1 expected …" (the first `shown` of them). */
export function studyErrorsMessage(
  name: string,
  text: string,
  errors: readonly Pick<DslDiagnostic, 'range' | 'message'>[],
  shown = 3,
): string {
  const listed = errors.slice(0, shown).map((d) => {
    const at = offsetToLineColumn(text, d.range.start);
    return `${at.line}:${at.column} ${d.message}`;
  });
  const more = errors.length > shown ? `; and ${errors.length - shown} more` : '';
  const noun = errors.length === 1 ? 'error' : 'errors';
  return `${name} has ${errors.length} ${noun}: fix them first — ${listed.join('; ')}${more}`;
}
