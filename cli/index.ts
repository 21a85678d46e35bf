// Bundle entry of dist/cli.cjs. Reached through bin/qrels-studio.cjs, which has already checked the Node version.
import { join } from 'node:path';
import { runCli } from './main.ts';

declare const QRELS_STUDIO_VERSION: string;

// EPIPE (`qrels-studio eval … | head`) is a normal end of output, not a crash.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

runCli(process.argv.slice(2), {
  productVersion: QRELS_STUDIO_VERSION,
  nativeDir: join(__dirname, 'native'),
  cwd: process.cwd(),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
}).then((code) => {
  process.exitCode = code;
});
