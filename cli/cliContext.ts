/** What a command may touch of the outside world; tests pass their own. */
export interface CliContext {
  productVersion: string;
  /** Directory holding the better-sqlite3 binaries (dist/native next to the bundle). */
  nativeDir: string;
  cwd: string;
  stdout: (text: string | Uint8Array) => void;
  /** True when nothing given to stdout is still held (written through): a buffer given last may be filled again.
   * Absent: never assume so. */
  stdoutReleased?: () => boolean;
  stderr: (text: string) => void;
}

export interface CliCommand {
  name: string;
  summary: string;
  usage: string;
  /** More that `--help` prints after the summary (conventions a reader of the output needs). */
  details?: string;
  run(args: string[], context: CliContext): Promise<number> | number;
}

/** Bad command-line use: printed with the command's usage, exit code 2. */
export class UsageError extends Error {}

/** Bad input the user can fix (a missing file, an invalid line): printed as is, exit code 1. */
export class InputError extends Error {}
