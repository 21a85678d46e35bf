// `qrels-studio import STUDY`: loads what the study file declares — its queries, its corpus, its pooled runs and
// the qrels it imports — into the study's database; with files named on the command line (--queries, --corpus,
// --qrels, --labels), those files only. All or nothing: every file is read and checked before anything is written,
// and one short transaction writes it all (core/store/declaredImport.ts, which the extension runs too).
import { resolve } from 'node:path';
import { closestWords } from '../../core/dsl/editDistance.ts';
import type { ImportTarget } from '../../core/importers/types.ts';
import { importReviewItems } from '../../core/review/reviewSession.ts';
import { importReviewVerdicts } from '../../core/review/verdictsFile.ts';
import { ImportRequestError, importDeclaredSources, type NamedImportFile } from '../../core/store/declaredImport.ts';
import { declaredLabelKinds, type LabelKind } from '../../core/store/labelKind.ts';
import { poolWarnings } from '../../core/store/runCoverage.ts';
import type { ImportReport, RowCounts } from '../../core/store/studyDatabase.ts';
import { type CliCommand, type CliContext, UsageError } from '../cliContext.ts';
import { openReviewDatabase, openStudyDatabase, optionValue } from '../studyDatabaseCommand.ts';

interface FileArgument {
  target: ImportTarget;
  file: string;
  format?: string;
  mapping?: Record<string, string>;
  annotator?: string;
  kind?: LabelKind;
}

const fileOptions: Record<string, ImportTarget> = {
  '--queries': 'queries',
  '--corpus': 'corpus',
  '--qrels': 'qrels',
  '--labels': 'labels',
};

/** `id=qid,text=query` → { id: 'qid', text: 'query' }. */
export function parseMapping(text: string): Record<string, string> {
  const mapping: Record<string, string> = {};
  for (const part of text.split(',')) {
    const at = part.indexOf('=');
    if (at <= 0 || at === part.length - 1)
      throw new UsageError(`--map expects ROLE=FIELD pairs separated by commas, found '${part}'`);
    mapping[part.slice(0, at).trim()] = part.slice(at + 1).trim();
  }
  return mapping;
}

interface ImportArguments {
  study: string;
  name?: string;
  files: FileArgument[];
  pools: boolean;
  /** A review's verdicts file (`--verdicts FILE [--annotator NAME]`). */
  verdicts?: { file: string; reviewer?: string };
}

/** `--kind WORD`: who made a file's labels (core/store/labelKind.ts). */
function labelKindArgument(word: string): LabelKind {
  if ((declaredLabelKinds as readonly string[]).includes(word)) return word as LabelKind;
  const near = closestWords(word, declaredLabelKinds);
  const hint = near.length > 0 ? `; did you mean '${near[0]}'?` : '';
  throw new UsageError(`--kind expects one of ${declaredLabelKinds.join(', ')}, found '${word}'${hint}`);
}

function parseArguments(args: string[]): ImportArguments {
  let study: string | undefined;
  let name: string | undefined;
  let pools = true;
  const files: FileArgument[] = [];
  let verdicts: ImportArguments['verdicts'];
  const last = (option: string): FileArgument => {
    const file = files.at(-1);
    if (file === undefined)
      throw new UsageError(
        `${option} applies to the file before it (--queries, --corpus, --qrels or --labels FILE ${option} …)`,
      );
    return file;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const target = fileOptions[arg];
    if (target !== undefined) {
      files.push({ target, file: optionValue(args, i++, 'a file') });
    } else if (arg === '--verdicts') {
      verdicts = { file: optionValue(args, i++, 'a verdicts file (JSONL)') };
    } else if (arg === '--annotator' && verdicts !== undefined && files.length === 0) {
      verdicts.reviewer = optionValue(args, i++, 'a name');
    } else if (arg === '--format') {
      last(arg).format = optionValue(args, i++, 'a format');
    } else if (arg === '--map') {
      last(arg).mapping = parseMapping(optionValue(args, i++, 'ROLE=FIELD pairs'));
    } else if (arg === '--annotator') {
      last(arg).annotator = optionValue(args, i++, 'a name');
    } else if (arg === '--kind') {
      last(arg).kind = labelKindArgument(optionValue(args, i++, 'a kind (person, crowd, gold or llm)'));
    } else if (arg === '--name') {
      name = optionValue(args, i++, 'a study name');
    } else if (arg === '--no-pools') {
      pools = false;
    } else if (arg.startsWith('-')) {
      throw new UsageError(`unknown option '${arg}'`);
    } else if (study === undefined) {
      study = arg;
    } else {
      throw new UsageError(`unexpected argument '${arg}' (one study file; data files go after --queries, --corpus, …)`);
    }
  }
  if (study === undefined) throw new UsageError('no study file');
  if (verdicts !== undefined && files.length > 0) {
    throw new UsageError("--verdicts records a review block's verdicts: import data files (--queries, …) separately");
  }
  for (const file of files) {
    if (file.target === 'qrels' && file.annotator === undefined) {
      throw new UsageError(`--qrels ${file.file} needs --annotator NAME (who made these judgments)`);
    }
  }
  return { study, ...(name !== undefined ? { name } : {}), files, pools, ...(verdicts && { verdicts }) };
}

function counts(what: string, c: RowCounts): string {
  return `${what}: ${c.added} added, ${c.updated} updated, ${c.unchanged} unchanged\n`;
}

export function formatImportReport(report: ImportReport): string {
  let text = '';
  for (const file of report.files) text += `${file.file}: ${file.records} ${file.target} records (${file.format})\n`;
  for (const pool of report.pools) {
    text += `${pool.run}: ${pool.pooled} pairs at depth ${pool.depth} over ${pool.queries} queries, ${pool.added} new\n`;
  }
  text += counts('queries', report.queries) + counts('documents', report.documents);
  text += `judgments: ${report.judgments.added} added, ${report.judgments.unchanged} already there\n`;
  return text;
}

export const importCommand: CliCommand = {
  name: 'import',
  summary:
    "load a study's queries, corpus, runs and qrels (or the files named), or a review's verdicts, into its database, " +
    'all or nothing',
  usage:
    'qrels-studio import STUDY.assess [--name STUDY] [--no-pools] [--queries FILE] [--corpus FILE] ' +
    '[--qrels FILE --annotator NAME [--kind KIND]] [--labels FILE [--annotator NAME] [--kind KIND]] ' +
    '(each file optionally followed by --format FMT --map ROLE=FIELD,…)\n       qrels-studio import REVIEW.assess [--name REVIEW] --verdicts FILE [--annotator NAME]',
  details:
    '--labels reads a label file (CSV/TSV with query_id, doc_id, annotator, label [, created_at, source, rationale]),\n' +
    'JSON Lines ({"qid", "docid", "label", "annotator", "note"}; query_id, doc_id, rationale under those names too) or\n' +
    "TREC qrels lines; --annotator NAME names who made the judgments a record does not say (a qrels file's all).\n" +
    "--kind person|crowd|gold|llm says who made the file's labels (default person): agreement counts people only, gold\n" +
    'never, llm with agree --include-llm; gold and llm labels do not vote in `majority`.\n' +
    '--verdicts reads JSON Lines, one verdict a line: {"item_id", "verdict", "reason", "reviewer", "text" (an edit\'s\n' +
    'new text), "rubric" ({"dimension": "level"})}. Either file is checked whole before anything is written.',
  async run(args, context) {
    const parsed = parseArguments(args);
    if (parsed.verdicts !== undefined) return importVerdicts(parsed, parsed.verdicts, context);
    const opened = await openStudyDatabase(parsed.study, parsed.name, context);
    const { study, folder, store } = opened;
    try {
      const files: NamedImportFile[] = parsed.files.map((file) => ({
        target: file.target,
        path: resolve(context.cwd, file.file),
        shown: file.file,
        ...(file.format !== undefined && { format: file.format }),
        ...(file.mapping !== undefined && { mapping: file.mapping }),
        ...(file.annotator !== undefined && { annotator: file.annotator }),
        ...(file.kind !== undefined && { kind: file.kind }),
      }));
      let report: ImportReport;
      try {
        report = await importDeclaredSources(store, study, folder, { files, pools: parsed.pools });
      } catch (error) {
        if (!(error instanceof ImportRequestError)) throw error;
        throw new UsageError(
          error.reason === 'nothing to import'
            ? `nothing to import: ${opened.studyFile} declares no queries, corpus, pools or qrels, and no file was named`
            : error.message,
        );
      }
      context.stdout(formatImportReport(report));
      for (const warning of await poolWarnings(store, study.name, report.pools)) context.stderr(`${warning}\n`);
      return 0;
    } finally {
      await store.close();
    }
  },
};

/** `import REVIEW.assess --verdicts FILE`: the review's items as declared, then the file's verdicts, all or none. */
async function importVerdicts(
  parsed: ImportArguments,
  verdicts: NonNullable<ImportArguments['verdicts']>,
  context: CliContext,
): Promise<number> {
  const { review, store, folder } = await openReviewDatabase(parsed.study, parsed.name, context);
  try {
    await importReviewItems(store, review, folder);
    const result = await importReviewVerdicts(store, review, resolve(context.cwd, verdicts.file), {
      shown: verdicts.file,
      ...(verdicts.reviewer !== undefined && { reviewer: verdicts.reviewer }),
    });
    context.stdout(`${verdicts.file}: ${result.recorded} verdicts recorded, ${result.unchanged} already there\n`);
    return 0;
  } finally {
    await store.close();
  }
}
