// Run before the rest of the CLI initialises, so that an eval of large files gets its second thread booting while
// the main thread loads (core/metrics/parallel): bundled alone as dist/cli.start.cjs, which bin/launch.cjs runs
// before dist/cli.cjs loads, and imported first by the CLI's entry (cli/index.ts) for `node dist/cli.cjs` (once).
import { startEarly } from '../core/metrics/parallel/workerStart.ts';

startEarly(process.argv.slice(2));
