import { resolve } from 'node:path';
import { FileReadError } from '../../core/formats/lineReader.ts';
import { lintFile } from '../../core/lint/lintFile.ts';
import { type LintDiagnostic, type LintFileType, lintFileTypes } from '../../core/lint/types.ts';
import { type CliCommand, UsageError } from '../cliContext.ts';

interface LintArguments {
  type: LintFileType | undefined;
  json: boolean;
  files: string[];
}

function parseArguments(args: string[]): LintArguments {
  const parsed: LintArguments = { type: undefined, json: false, files: [] };
  const setType = (value: string | undefined): void => {
    if (value === undefined || value === '') throw new UsageError('--type needs a value: qrels, run or beir-qrels');
    if (!lintFileTypes.includes(value as LintFileType)) {
      throw new UsageError(`unknown file type '${value}' (expected qrels, run or beir-qrels)`);
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
    else if (arg === '--type') setType(args[++i]);
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
  summary: 'check qrels, run and BEIR qrels files (plain or .gz) for what trec_eval would reject or misread',
  usage: 'qrels-studio lint [--type qrels|run|beir-qrels] [--json] FILE...',
  async run(args, context) {
    const { type, json, files } = parseArguments(args);
    let failed = false;
    const all: LintDiagnostic[] = [];
    for (const file of files) {
      let diagnostics: LintDiagnostic[];
      try {
        ({ diagnostics } = await lintFile(resolve(context.cwd, file), { type, name: file }));
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
