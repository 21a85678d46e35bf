// `qrels-studio import STUDY`: loads what the study file declares — its queries, its corpus, its pooled runs and
// the qrels it imports — into the study's database; with files named on the command line (--queries, --corpus,
// --qrels, --labels), those files only. All or nothing: every file is read and checked before anything is written,
// and one short transaction writes it all.
import { resolve } from 'node:path';
import { importerFor } from '../../core/importers/registry.ts';
import type { DocumentFormat, ImportOptions, ImportTarget } from '../../core/importers/types.ts';
import { readRunRanking } from '../../core/pooling/runRanking.ts';
import type { ImportOrigin, ImportReport, PoolInput, RowCounts } from '../../core/store/studyDatabase.ts';
import { type CliCommand, UsageError } from '../cliContext.ts';
import { openStudyDatabase, optionValue } from '../studyDatabaseCommand.ts';

interface FileArgument {
  target: ImportTarget;
  file: string;
  format?: string;
  mapping?: Record<string, string>;
  annotator?: string;
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

function parseArguments(args: string[]): { study: string; name?: string; files: FileArgument[]; pools: boolean } {
  let study: string | undefined;
  let name: string | undefined;
  let pools = true;
  const files: FileArgument[] = [];
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
    } else if (arg === '--format') {
      last(arg).format = optionValue(args, i++, 'a format');
    } else if (arg === '--map') {
      last(arg).mapping = parseMapping(optionValue(args, i++, 'ROLE=FIELD pairs'));
    } else if (arg === '--annotator') {
      last(arg).annotator = optionValue(args, i++, 'a name');
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
  for (const file of files) {
    if (file.target === 'qrels' && file.annotator === undefined) {
      throw new UsageError(`--qrels ${file.file} needs --annotator NAME (who made these judgments)`);
    }
  }
  return { study, ...(name !== undefined ? { name } : {}), files, pools };
}

/** The document format a study's corpus `format:` names. */
function documentFormatOf(format: 'markdown' | 'html' | 'text' | 'json' | undefined): DocumentFormat | undefined {
  if (format === 'json') return 'table-json';
  if (format === 'text') return 'plain';
  return format;
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
  summary: "load a study's queries, corpus, runs and qrels (or the files named) into its database, all or nothing",
  usage:
    'qrels-studio import STUDY.assess [--name STUDY] [--no-pools] [--queries FILE] [--corpus FILE] ' +
    '[--qrels FILE --annotator NAME] [--labels FILE] (each file optionally followed by --format FMT --map ROLE=FIELD,…)',
  async run(args, context) {
    const parsed = parseArguments(args);
    const opened = await openStudyDatabase(parsed.study, parsed.name, context);
    const { study, folder, database } = opened;
    try {
      const sources: { path: string; options: ImportOptions; origin: ImportOrigin }[] = [];
      const declared = (
        target: ImportTarget,
        source: { path: string; absolutePath?: string; fields: Record<string, string> } | undefined,
        documentFormat?: DocumentFormat,
      ) => {
        if (source === undefined) return;
        const options: ImportOptions = { target, mapping: source.fields, name: source.path };
        if (documentFormat !== undefined) options.documentFormat = documentFormat;
        sources.push({
          path: source.absolutePath ?? resolve(folder, source.path),
          options,
          origin: { file: source.path, target, format: '' },
        });
      };
      // Named files are additions: the declared sources (re-read, unchanged, on every import) are left alone then.
      const declaredToo = parsed.files.length === 0;
      if (declaredToo) {
        declared('queries', study.queries);
        declared('corpus', study.corpus, documentFormatOf(study.corpus?.format));
      }
      for (const qrels of declaredToo ? study.imports : []) {
        sources.push({
          path: qrels.absolutePath ?? resolve(folder, qrels.path),
          options: { target: 'qrels', name: qrels.path },
          origin: { file: qrels.path, target: 'qrels', format: '', annotator: qrels.as },
        });
      }
      for (const file of parsed.files) {
        const options: ImportOptions = { target: file.target, name: file.file };
        if (file.format !== undefined) options.format = file.format;
        if (file.mapping !== undefined) options.mapping = file.mapping;
        sources.push({
          path: resolve(context.cwd, file.file),
          options,
          origin: {
            file: file.file,
            target: file.target,
            format: file.format ?? '',
            ...(file.annotator ? { annotator: file.annotator } : {}),
          },
        });
      }
      // Runs first: reading one checks all of it, before anything is written.
      const pools: PoolInput[] = [];
      if (parsed.pools && declaredToo) {
        for (const pool of study.pools) {
          const ranking = await readRunRanking(pool.absolutePath ?? resolve(folder, pool.path), pool.depth);
          pools.push({ run: { path: pool.path, tag: ranking.tag, depth: pool.depth }, queries: ranking.queries });
        }
      }
      if (sources.length === 0 && pools.length === 0) {
        throw new UsageError(
          `nothing to import: ${opened.studyFile} declares no queries, corpus, pools or qrels, and no file was named`,
        );
      }
      // The same file twice would be every id twice: say so plainly.
      const seen = new Set<string>();
      for (const source of sources) {
        if (seen.has(source.path)) throw new UsageError(`${source.origin.file} is named twice`);
        seen.add(source.path);
      }
      const files = [];
      for (const source of sources) {
        // The database checks ids across all files of the import (core/store Staging), with their positions.
        source.options.idsCheckedByCaller = true;
        const importer = await importerFor(source.path, source.options);
        files.push({
          records: importer.read(source.path, source.options),
          origin: { ...source.origin, format: importer.id },
        });
      }
      const report = await database.importBatch(study.name, files, pools);
      context.stdout(formatImportReport(report));
      return 0;
    } finally {
      database.close();
    }
  },
};
