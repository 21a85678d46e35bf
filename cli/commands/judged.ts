// `qrels-studio judged STUDY --run FILE --k K`: judged@k per query and over all queries — how much of a run's top k
// (trec_eval's order) has a label in the study. Printed as trec_eval prints a measure: `judged@10  qid  0.7000`.
import { resolve } from 'node:path';
import { judgedAtK } from '../../core/pooling/judgedAtK.ts';
import { readRunRanking } from '../../core/pooling/runRanking.ts';
import { noMatchingQueryWarning } from '../../core/pooling/runWarnings.ts';
import { findLabelSource } from '../../core/store/labelSources.ts';
import { studyQueryIds } from '../../core/store/runCoverage.ts';
import { type CliCommand, UsageError } from '../cliContext.ts';
import { openStudyDatabase, optionValue } from '../studyDatabaseCommand.ts';

export const judgedCommand: CliCommand = {
  name: 'judged',
  summary: "judged@k of a run against a study's labels: the share of its top k that is judged, per query and overall",
  usage: 'qrels-studio judged STUDY.assess [--name STUDY] --run FILE [--k K] [--from SOURCE] [-q]',
  async run(args, context) {
    let studyArg: string | undefined;
    let name: string | undefined;
    let run: string | undefined;
    let k = 10;
    let from: string | undefined;
    let perQuery = false;
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!;
      if (arg === '--run') run = optionValue(args, i++, 'a run file');
      else if (arg === '--k') {
        const text = optionValue(args, i++, 'a cutoff');
        k = Number(text);
        if (!Number.isInteger(k) || k < 1) throw new UsageError(`--k expects a whole number ≥ 1, found '${text}'`);
      } else if (arg === '--from') from = optionValue(args, i++, 'a label source');
      else if (arg === '-q') perQuery = true;
      else if (arg === '--name') name = optionValue(args, i++, 'a study name');
      else if (arg.startsWith('-')) throw new UsageError(`unknown option '${arg}'`);
      else if (studyArg === undefined) studyArg = arg;
      else throw new UsageError(`unexpected argument '${arg}'`);
    }
    if (studyArg === undefined) throw new UsageError('no study file');
    if (run === undefined) throw new UsageError('--run FILE is required');
    const ranking = await readRunRanking(resolve(context.cwd, run), k);
    const { study, store } = await openStudyDatabase(studyArg, name, context);
    try {
      const judged = new Set<string>();
      const key = (qid: string, docid: string) => `${qid}\u0000${docid}`;
      if (from === undefined) {
        // Any current label by anyone.
        for (const row of await store.exports.currentLabels(study.name)) judged.add(key(row.qid, row.docid));
      } else {
        const { source, argument } = findLabelSource(from);
        const studyId = await store.studies.studyId(study.name);
        for (const label of await source.labels(store, studyId, argument)) judged.add(key(label.qid, label.docid));
      }
      const result = judgedAtK(ranking, k, (qid, docid) => judged.has(key(qid, docid)));
      const measure = `judged@${k}`;
      let text = '';
      if (perQuery) for (const q of result.queries) text += `${measure.padEnd(22)}\t${q.qid}\t${q.value.toFixed(4)}\n`;
      text += `${measure.padEnd(22)}\tall\t${result.mean.toFixed(4)}\n`;
      context.stdout(text);
      const warning = noMatchingQueryWarning(run, ranking, await studyQueryIds(store, study.name));
      if (warning !== undefined) context.stderr(`${warning}\n`);
      return 0;
    } finally {
      await store.close();
    }
  },
};
