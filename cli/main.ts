import { FormatError } from '../core/formats/formatError.ts';
import { FileReadError } from '../core/formats/lineReader.ts';
import { ImportError } from '../core/importers/types.ts';
import { SchemaVersionError } from '../core/store/migrate.ts';
import { NativeBindingMissingError } from '../core/store/sqliteDatabase.ts';
import { StoreError } from '../core/store/studyDatabase.ts';
import { type CliCommand, type CliContext, InputError, UsageError } from './cliContext.ts';
import { agreeCommand } from './commands/agree.ts';
import { evalCommand } from './commands/eval.ts';
import { exportCommand } from './commands/export.ts';
import { importCommand } from './commands/import.ts';
import { judgeCommand } from './commands/judge.ts';
import { judgedCommand } from './commands/judged.ts';
import { lintCommand } from './commands/lint.ts';
import { poolCommand } from './commands/pool.ts';
import { storeCommand } from './commands/store.ts';
import { versionCommand } from './commands/version.ts';

/** Every command, one line each. */
export const cliCommands: readonly CliCommand[] = [
  evalCommand,
  lintCommand,
  importCommand,
  poolCommand,
  exportCommand,
  judgedCommand,
  judgeCommand,
  agreeCommand,
  storeCommand,
  versionCommand,
];

function helpText(): string {
  const width = Math.max(...cliCommands.map((c) => c.name.length));
  return [
    'usage: qrels-studio <command> [options] [files]',
    '',
    'commands:',
    ...cliCommands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    "Run 'qrels-studio <command> --help' for a command's options.",
    '',
  ].join('\n');
}

/** Runs one CLI invocation and returns its exit code; never throws for bad input or bad use. */
export async function runCli(argv: string[], context: CliContext): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? context.stderr : context.stdout)(helpText());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    context.stdout(`${context.productVersion}\n`);
    return 0;
  }
  const command = cliCommands.find((c) => c.name === name);
  if (!command) {
    context.stderr(`qrels-studio: unknown command '${name}'\n\n${helpText()}`);
    return 2;
  }
  if (args.includes('--help') || args.includes('-h')) {
    context.stdout(`usage: ${command.usage}\n\n${command.summary}\n${command.details ? `\n${command.details}` : ''}`);
    return 0;
  }
  try {
    return await command.run(args, context);
  } catch (error) {
    if (error instanceof UsageError) {
      context.stderr(`qrels-studio ${command.name}: ${error.message}\nusage: ${command.usage}\n`);
      return 2;
    }
    if (
      error instanceof InputError ||
      error instanceof NativeBindingMissingError ||
      error instanceof FormatError ||
      error instanceof FileReadError ||
      error instanceof ImportError ||
      error instanceof StoreError ||
      error instanceof SchemaVersionError
    ) {
      context.stderr(`${error.message}\n`);
      return 1;
    }
    if ((error as { code?: string }).code === 'SQLITE_BUSY') {
      context.stderr(
        "the study's database is busy: another process kept it locked longer than the busy timeout; try again\n",
      );
      return 1;
    }
    const detail =
      error instanceof Error ? (process.env.QRELS_STUDIO_DEBUG ? error.stack : error.message) : String(error);
    context.stderr(
      `qrels-studio ${command.name}: internal error: ${detail}\n` +
        'This is a bug in Qrels Studio; set QRELS_STUDIO_DEBUG=1 for a stack trace and report it.\n',
    );
    return 70;
  }
}
