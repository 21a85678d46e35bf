import { type CliCommand, type CliContext, InputError, UsageError } from './cliContext.ts';

// Each command's code is loaded only when that command runs: `eval` must not pay for the store, PostgreSQL's client
// or HTTP (startup was 10 % of a 1M-line evaluation when every command was loaded up front). In the bundle these
// dynamic imports are lazily initialised modules; the list below is all main.ts knows of a command until then.

/** Every command by name, in the order help lists them, with the import that loads it. */
export const cliCommandLoaders: readonly { name: string; load: () => Promise<CliCommand> }[] = [
  { name: 'eval', load: async () => (await import('./commands/eval.ts')).evalCommand },
  { name: 'lint', load: async () => (await import('./commands/lint.ts')).lintCommand },
  { name: 'import', load: async () => (await import('./commands/import.ts')).importCommand },
  { name: 'pool', load: async () => (await import('./commands/pool.ts')).poolCommand },
  { name: 'export', load: async () => (await import('./commands/export.ts')).exportCommand },
  { name: 'judged', load: async () => (await import('./commands/judged.ts')).judgedCommand },
  { name: 'judge', load: async () => (await import('./commands/judge.ts')).judgeCommand },
  { name: 'judges', load: async () => (await import('./commands/judges.ts')).judgesCommand },
  { name: 'agree', load: async () => (await import('./commands/agree.ts')).agreeCommand },
  { name: 'store', load: async () => (await import('./commands/store.ts')).storeCommand },
  { name: 'version', load: async () => (await import('./commands/version.ts')).versionCommand },
];

/** True when the error is bad input or an environment problem the user can fix: printed as is, exit code 1. The
 * classes are imported here, after the fact, so that a command that never touches the store never loads it. */
async function isUserFacingError(error: unknown): Promise<boolean> {
  if (error instanceof InputError) return true;
  const [formatError, lineReader, importers, migrate, sqliteDatabase, studyDatabase] = await Promise.all([
    import('../core/formats/formatError.ts'),
    import('../core/formats/lineReader.ts'),
    import('../core/importers/types.ts'),
    import('../core/store/migrate.ts'),
    import('../core/store/sqliteDatabase.ts'),
    import('../core/store/studyDatabase.ts'),
  ]);
  return (
    error instanceof sqliteDatabase.NativeBindingMissingError ||
    error instanceof formatError.FormatError ||
    error instanceof lineReader.FileReadError ||
    error instanceof importers.ImportError ||
    error instanceof studyDatabase.StoreError ||
    error instanceof migrate.SchemaVersionError
  );
}

async function helpText(): Promise<string> {
  const cliCommands = await Promise.all(cliCommandLoaders.map((c) => c.load()));
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
    (name === undefined ? context.stderr : context.stdout)(await helpText());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    context.stdout(`${context.productVersion}\n`);
    return 0;
  }
  const loader = cliCommandLoaders.find((c) => c.name === name);
  if (!loader) {
    context.stderr(`qrels-studio: unknown command '${name}'\n\n${await helpText()}`);
    return 2;
  }
  const command = await loader.load();
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
    if (await isUserFacingError(error)) {
      context.stderr(`${(error as Error).message}\n`);
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
