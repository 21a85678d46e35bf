// `qrels-studio export STUDY`: what leaves the database — a qrels file from one label source (--qrels OUT --from
// SOURCE), every judgment with its provenance (--jsonl OUT), and the long-format label file others merge with
// `import --labels` (--labels OUT). Files are written whole or not at all.
import { resolve } from 'node:path';
import { labelSources } from '../../core/store/labelSources.ts';
import { exportJudgmentsJsonl, exportLabels, exportQrels } from '../../core/store/studyExports.ts';
import { type CliCommand, UsageError } from '../cliContext.ts';
import { openStudyDatabase, optionValue } from '../studyDatabaseCommand.ts';

const sources = labelSources.map((s) => (s.takesArgument ? `${s.id}NAME` : s.id)).join('|');

export const exportCommand: CliCommand = {
  name: 'export',
  summary: 'write qrels from a label source, every judgment with provenance (JSONL), or the long-format label file',
  usage: `qrels-studio export STUDY.assess [--name STUDY] [--qrels OUT --from ${sources}] [--jsonl OUT] [--labels OUT]`,
  async run(args, context) {
    let studyArg: string | undefined;
    let name: string | undefined;
    const outputs: { kind: 'qrels' | 'jsonl' | 'labels'; file: string }[] = [];
    let from: string | undefined;
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!;
      if (arg === '--qrels' || arg === '--jsonl' || arg === '--labels') {
        outputs.push({
          kind: arg.slice(2) as 'qrels' | 'jsonl' | 'labels',
          file: optionValue(args, i++, 'an output file'),
        });
      } else if (arg === '--from') from = optionValue(args, i++, `a label source (${sources})`);
      else if (arg === '--name') name = optionValue(args, i++, 'a study name');
      else if (arg.startsWith('-')) throw new UsageError(`unknown option '${arg}'`);
      else if (studyArg === undefined) studyArg = arg;
      else throw new UsageError(`unexpected argument '${arg}'`);
    }
    if (studyArg === undefined) throw new UsageError('no study file');
    if (outputs.length === 0) throw new UsageError('nothing to export: give --qrels OUT, --jsonl OUT or --labels OUT');
    if (outputs.some((o) => o.kind === 'qrels') && from === undefined) {
      throw new UsageError(`--qrels needs --from SOURCE (${sources})`);
    }
    const { study, database } = await openStudyDatabase(studyArg, name, context);
    try {
      const studyId = database.studyId(study.name);
      for (const output of outputs) {
        const file = resolve(context.cwd, output.file);
        if (output.kind === 'qrels') {
          const lines = await exportQrels(database.db, studyId, from!, file);
          context.stdout(`${output.file}: ${lines} judgments (${from})\n`);
        } else if (output.kind === 'jsonl') {
          context.stdout(
            `${output.file}: ${await exportJudgmentsJsonl(database.db, studyId, file)} judgments with provenance\n`,
          );
        } else {
          context.stdout(`${output.file}: ${await exportLabels(database.db, studyId, file)} judgments (label file)\n`);
        }
      }
      return 0;
    } finally {
      database.close();
    }
  },
};
