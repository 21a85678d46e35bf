// Imported first by the CLI's entry (cli/index.ts), so that an eval of large files gets its second thread booting
// while the main thread loads (core/metrics/parallel). Through bin/launch.cjs, dist/cli.start.cjs
// (startEvalWorkerFromLauncher.ts) has done it already, before this bundle loaded; this is for `node dist/cli.cjs`.
import { startEarly } from '../core/metrics/parallel/workerStart.ts';

startEarly(process.argv.slice(2), 'the CLI entry');
