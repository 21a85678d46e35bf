import { buildRuntimeReport, formatRuntimeReport } from '../../core/runtime/runtimeReport.ts';
import { locateNativeBinding } from '../../core/store/sqliteDatabase.ts';
import { type CliCommand, UsageError } from '../cliContext.ts';

export const versionCommand: CliCommand = {
  name: 'version',
  summary: 'print the version, the runtime and the SQLite it loads (opens a WAL database to prove it)',
  usage: 'qrels-studio version [--json]',
  run(args, context) {
    const json = args.includes('--json');
    const unknown = args.filter((a) => a !== '--json');
    if (unknown.length > 0) throw new UsageError(`unknown argument '${unknown[0]}'`);
    const report = buildRuntimeReport({
      productVersion: context.productVersion,
      host: 'cli',
      nativeBinding: locateNativeBinding(context.nativeDir),
    });
    context.stdout(json ? `${JSON.stringify(report, null, 2)}\n` : `${formatRuntimeReport(report, 'lines')}\n`);
    return report.walReadBack ? 0 : 1;
  },
};
