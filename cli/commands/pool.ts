// `qrels-studio pool STUDY [--run FILE --depth K]...`: the pairs to judge — the union of each run's top k per query
// (trec_eval's order), with each pair's pool origin and best rank. The study file's own pools are included.
// Pooling only adds: a deeper pool adds pairs, and no judgment is ever dropped.
import { resolve } from 'node:path';
import { importDeclaredSources } from '../../core/store/declaredImport.ts';
import { poolWarnings } from '../../core/store/runCoverage.ts';
import { type CliCommand, UsageError } from '../cliContext.ts';
import { openStudyDatabase, optionValue } from '../studyDatabaseCommand.ts';

export const poolCommand: CliCommand = {
  name: 'pool',
  summary: "add the top-k documents of runs to a study's pairs to judge (the study file's pools and --run files)",
  usage: 'qrels-studio pool STUDY.assess [--name STUDY] [--run FILE --depth K]...',
  async run(args, context) {
    let studyArg: string | undefined;
    let name: string | undefined;
    const runs: { file: string; depth?: number }[] = [];
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!;
      if (arg === '--run') runs.push({ file: optionValue(args, i++, 'a run file') });
      else if (arg === '--depth') {
        const run = runs.at(-1);
        if (run === undefined) throw new UsageError('--depth applies to the --run FILE before it');
        const text = optionValue(args, i++, 'a depth');
        const depth = Number(text);
        if (!Number.isInteger(depth) || depth < 1)
          throw new UsageError(`--depth expects a whole number ≥ 1, found '${text}'`);
        run.depth = depth;
      } else if (arg === '--name') name = optionValue(args, i++, 'a study name');
      else if (arg.startsWith('-')) throw new UsageError(`unknown option '${arg}'`);
      else if (studyArg === undefined) studyArg = arg;
      else throw new UsageError(`unexpected argument '${arg}'`);
    }
    if (studyArg === undefined) throw new UsageError('no study file');
    for (const run of runs) if (run.depth === undefined) throw new UsageError(`--run ${run.file} needs --depth K`);
    const { study, folder, store } = await openStudyDatabase(studyArg, name, context);
    try {
      if (study.pools.length === 0 && runs.length === 0) {
        throw new UsageError(`no runs: ${studyArg} declares no pool and no --run was given`);
      }
      // The study's pools and the named runs, each read (and so checked) before the database is touched.
      const report = await importDeclaredSources(store, study, folder, {
        sources: false,
        runs: runs.map((r) => ({ shown: r.file, path: resolve(context.cwd, r.file), depth: r.depth! })),
      });
      for (const pool of report.pools) {
        context.stdout(
          `${pool.run}: ${pool.pooled} pairs at depth ${pool.depth} over ${pool.queries} queries, ${pool.added} new\n`,
        );
      }
      context.stdout(`pairs: ${report.pools.at(-1)?.pairs ?? 0}\n`);
      for (const warning of await poolWarnings(store, study.name, report.pools)) context.stderr(`${warning}\n`);
      return 0;
    } finally {
      await store.close();
    }
  },
};
