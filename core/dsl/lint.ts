// The three passes over a study file: syntax (the parser), semantic checks (pure, sync) and cross-file checks
// (async, through the caller's StudyHost). lintStudyText runs all three and sorts the findings by position; the
// CLI prints them, the language server publishes them.
import type { CheckReport } from './checks/check.ts';
import { studyChecks } from './checks/registry.ts';
import { createFileCheckContext } from './fileChecks/fileCheck.ts';
import { fileChecks } from './fileChecks/registry.ts';
import { parseStudyFile } from './parser.ts';
import type { StudyHost } from './studyHost.ts';
import type { DslDiagnostic, DslSeverity, ParsedStudyFile } from './types.ts';

function collector(code: string, severity: DslSeverity, into: DslDiagnostic[]): (problem: CheckReport) => void {
  return (problem) => into.push({ ...problem, code, severity: problem.severity ?? severity });
}

export function sortDiagnostics(diagnostics: DslDiagnostic[]): DslDiagnostic[] {
  return diagnostics.sort(
    (a, b) => a.range.start - b.range.start || a.range.end - b.range.end || a.code.localeCompare(b.code),
  );
}

/** The semantic checks (no I/O), in text order. */
export function checkStudyFile(parsed: ParsedStudyFile): DslDiagnostic[] {
  const out: DslDiagnostic[] = [];
  for (const check of studyChecks) {
    check.check({ file: parsed.ast, text: parsed.text, report: collector(check.code, check.severity, out) });
  }
  return sortDiagnostics(out);
}

/**
 * The cross-file checks: referenced files exist, mapped fields exist, pool runs parse, prompt variables are
 * provided. `studyPath` is the study file's absolute path (relative paths in it resolve against its directory).
 * A host that fails is reported as a `check-failed` diagnostic, not thrown.
 */
export async function checkStudyFiles(
  parsed: ParsedStudyFile,
  studyPath: string,
  host: StudyHost,
): Promise<DslDiagnostic[]> {
  const out: DslDiagnostic[] = [];
  // One context (and so one memo of host answers) for all checks; each check reports under its own code.
  const shared = createFileCheckContext(parsed.ast, parsed.text, studyPath, host, () => {});
  await Promise.all(
    fileChecks.map(async (check) => {
      const context = { ...shared, report: collector(check.code, check.severity, out) };
      try {
        await check.check(context);
      } catch (error) {
        const first = parsed.ast.blocks[0];
        out.push({
          range: first ? first.keyword : { start: 0, end: Math.min(1, parsed.text.length) },
          severity: 'error',
          code: 'check-failed',
          message: `the ${check.code} check could not run: ${error instanceof Error ? error.message : String(error)}`,
        });
      }
    }),
  );
  return sortDiagnostics(out);
}

/** Parse, semantic and cross-file diagnostics of a study text, sorted by position. */
export async function lintStudyText(text: string, studyPath: string, host: StudyHost): Promise<DslDiagnostic[]> {
  const parsed = parseStudyFile(text);
  const semantic = checkStudyFile(parsed);
  const files = await checkStudyFiles(parsed, studyPath, host);
  return sortDiagnostics([...parsed.diagnostics, ...semantic, ...files]);
}
