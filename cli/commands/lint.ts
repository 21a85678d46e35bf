// `qrels-studio lint`: the same findings as the editor. A study file (*.assess) gets core/dsl's syntax, semantic
// and cross-file checks; qrels, runs and BEIR qrels core/lint's rules (the content decides the type); a JSONL/CSV/
// TSV record file (by its name, when its content is not TREC data) core/lint/records' rules. With `--study FILE`,
// qrels and runs are also checked against that study's queries, corpus and scale.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { recordFileByName } from '../../core/data/recordFormat.ts';
import { offsetToLineColumn } from '../../core/dsl/textPosition.ts';
import type { DslDiagnostic } from '../../core/dsl/types.ts';
import { FileReadError } from '../../core/formats/lineReader.ts';
import { lintFile } from '../../core/lint/lintFile.ts';
import type { StudyLintContext } from '../../core/lint/studyContext.ts';
import type { loadStudyLintContext } from '../../core/lint/studyLoader.ts';
import { type LintDiagnostic, type LintFileType, lintFileTypes } from '../../core/lint/types.ts';
import { type CliCommand, InputError, UsageError } from '../cliContext.ts';

interface LintArguments {
  type: LintFileType | undefined;
  json: boolean;
  study: string | undefined;
  files: string[];
}

/** A study file's diagnostics in core/lint's shape (1-based lines, code point columns). */
export function studyDiagnostics(file: string, text: string, found: readonly DslDiagnostic[]): LintDiagnostic[] {
  return found.map((d) => {
    const start = offsetToLineColumn(text, d.range.start);
    const end = offsetToLineColumn(text, d.range.end);
    return {
      file,
      line: start.line,
      column: start.column,
      endLine: end.line,
      endColumn: end.column,
      severity: d.severity,
      rule: d.code,
      message: d.message,
    };
  });
}

// The study language, the study loader and the records linter are loaded only for the files that need them: a qrels
// file or a run (the common, large case) starts linting without initialising them.
async function lintRecordFile(path: string, options: { file: string }) {
  return (await import('../../core/lint/records/lintRecordFile.ts')).lintRecordFile(path, options);
}

/** Lints one file of any kind the linter knows. */
async function lintAnyFile(
  path: string,
  name: string,
  type: LintFileType | undefined,
  study: StudyLintContext | undefined,
): Promise<LintDiagnostic[]> {
  if (path.endsWith('.assess')) {
    const text = await readStudyText(path, name);
    const { lintStudyText, nodeStudyHost } = await import('../../core/dsl/index.ts');
    const found = await lintStudyText(text, path, nodeStudyHost());
    return studyDiagnostics(name, text, found);
  }
  const byName = type === undefined ? recordFileByName(path) : undefined;
  if (byName === 'records') return (await lintRecordFile(path, { file: name })).diagnostics;
  const result = await lintFile(path, { type, name, study });
  if (byName === 'records-unless-trec' && !lintFileTypes.includes(result.type as LintFileType)) {
    return (await lintRecordFile(path, { file: name })).diagnostics;
  }
  return result.diagnostics;
}

async function readStudyText(path: string, name: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new FileReadError(name, error);
  }
}

function parseArguments(args: string[]): LintArguments {
  const parsed: LintArguments = { type: undefined, json: false, study: undefined, files: [] };
  const setType = (value: string | undefined): void => {
    if (value === undefined || value === '')
      throw new UsageError('--type needs a value: qrels, run, beir-qrels or diversity-qrels');
    if (!lintFileTypes.includes(value as LintFileType)) {
      throw new UsageError(`unknown file type '${value}' (expected qrels, run, beir-qrels or diversity-qrels)`);
    }
    parsed.type = value as LintFileType;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      parsed.files.push(...args.slice(i + 1));
      break;
    }
    if (arg === '--json') parsed.json = true;
    else if (arg === '--study' || arg.startsWith('--study=')) {
      const value = arg === '--study' ? args[++i] : arg.slice('--study='.length);
      if (value === undefined || value === '') throw new UsageError('--study needs a study file (*.assess)');
      parsed.study = value;
    } else if (arg === '--type') setType(args[++i]);
    else if (arg.startsWith('--type=')) setType(arg.slice('--type='.length));
    else if (arg.startsWith('-') && arg !== '-') throw new UsageError(`unknown option '${arg}'`);
    else parsed.files.push(arg);
  }
  if (parsed.files.length === 0) throw new UsageError('no files to lint');
  return parsed;
}

function formatDiagnostic(d: LintDiagnostic): string {
  return `${d.file}:${d.line}:${d.column}: ${d.severity} [${d.rule}] ${d.message}\n`;
}

export const lintCommand: CliCommand = {
  name: 'lint',
  summary:
    'check study files (*.assess), qrels, runs, BEIR qrels (plain or .gz) and JSONL/CSV/TSV data files; ' +
    'with --study, against a study',
  usage: 'qrels-studio lint [--type qrels|run|beir-qrels|diversity-qrels] [--study STUDY.assess] [--json] FILE...',
  async run(args, context) {
    const { type, json, study: studyFile, files } = parseArguments(args);
    let failed = false;
    const all: LintDiagnostic[] = [];
    let study: StudyLintContext | undefined;
    if (studyFile !== undefined) {
      const path = resolve(context.cwd, studyFile);
      let loaded: Awaited<ReturnType<typeof loadStudyLintContext>>;
      try {
        loaded = await (await import('../../core/lint/studyLoader.ts')).loadStudyLintContext(path);
      } catch (error) {
        throw new InputError(`${studyFile}: cannot read the study: ${error instanceof Error ? error.message : error}`);
      }
      if (!loaded.ok) {
        for (const d of studyDiagnostics(studyFile, loaded.text, loaded.diagnostics))
          context.stderr(formatDiagnostic(d));
        throw new InputError(`${studyFile} has errors: fix them before checking data files against it`);
      }
      study = loaded.context;
    }
    for (const file of files) {
      let diagnostics: LintDiagnostic[];
      try {
        diagnostics = await lintAnyFile(resolve(context.cwd, file), file, type, study);
      } catch (error) {
        if (!(error instanceof FileReadError)) throw error;
        context.stderr(`${file}: ${error.message.slice(error.message.indexOf('cannot read:'))}\n`);
        failed = true;
        continue;
      }
      if (diagnostics.some((d) => d.severity === 'error')) failed = true;
      if (json) {
        for (const d of diagnostics) all.push(d);
        continue;
      }
      // Printed in batches: a broken million-line file can have a million problems.
      for (let i = 0; i < diagnostics.length; i += 8192) {
        context.stdout(
          diagnostics
            .slice(i, i + 8192)
            .map(formatDiagnostic)
            .join(''),
        );
      }
    }
    if (json) {
      const rows = all.map(({ file, line, column, endLine, endColumn, severity, rule, message }) =>
        JSON.stringify({ file, line, column, endLine, endColumn, severity, rule, message }),
      );
      context.stdout(rows.length === 0 ? '[]\n' : `[\n${rows.join(',\n')}\n]\n`);
    }
    return failed ? 1 : 0;
  },
};
