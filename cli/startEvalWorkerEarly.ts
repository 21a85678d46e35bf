// Imported first by the CLI's entry (cli/index.ts), so that it runs before the rest of the bundle initialises: an
// eval of large files gets its second thread booting while the main thread loads (core/metrics/parallel).
import { startEarly } from '../core/metrics/parallel/workerStart.ts';

startEarly(process.argv.slice(2));
