// Bundle entry of dist/cli.cjs. Reached through bin/qrels-studio.cjs, which has already checked the Node version.
// First: starts eval's second thread, when it will be wanted, before the other modules initialise.
import './startEvalWorkerEarly.ts';
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
  // Files, pipes and terminals are written synchronously on Linux; elsewhere a pipe may hold a chunk a while.
  stdoutReleased: () => process.stdout.writableLength === 0,
  stderr: (text) => process.stderr.write(text),
}).then((code) => {
  process.exitCode = code;
});
