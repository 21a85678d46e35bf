// Bundled alone as dist/cli.start.cjs, which bin/launch.cjs runs before dist/cli.cjs loads: an eval of large files
// gets its second thread booting before the CLI's 1.5 MB bundle is read (core/metrics/parallel/workerStart.ts).
import { startEarly } from '../core/metrics/parallel/workerStart.ts';

startEarly(process.argv.slice(2), 'the launcher');
