// Importing what a study file declares — its queries, its corpus, the qrels it imports and its pooled runs — or
// the files a caller names instead, into the study's database. The CLI (`import`, `pool`) and the extension host
// run this same code. All or nothing: every run is read (and so checked) and every file streamed into staging
// before one short transaction writes it all; an AbortSignal stops it at the next batch with nothing written.
import { resolve } from 'node:path';
import type { LabelKind, StudyModel } from '../dsl/model.ts';
import { importerFor } from '../importers/registry.ts';
import type { DocumentFormat, ImportedRecord, ImportOptions, ImportTarget } from '../importers/types.ts';
import { queryConditions } from '../labelling/queryConditions.ts';
import { readRunRanking } from '../pooling/runRanking.ts';
import {
  type AnswerRules,
  ImportCancelledError,
  type ImportOrigin,
  type ImportReport,
  type PoolInput,
} from './studyDatabase.ts';
import type { StudyStore } from './studyStore.ts';

/** A data file named by the caller (the CLI's `--queries FILE --format F --map … --annotator NAME`). */
export interface NamedImportFile {
  target: ImportTarget;
  /** Absolute path. */
  path: string;
  /** As the user named it: positions, the report and the import log use it. */
  shown: string;
  format?: string;
  mapping?: Record<string, string>;
  /** Who made the judgments of a file that does not say (TREC qrels). */
  annotator?: string;
  /** What kind of label source its annotators are (`import --kind gold`). */
  kind?: LabelKind;
}

/** A run named by the caller to pool besides the study's own (`pool --run FILE --depth K`). */
export interface NamedRun {
  path: string;
  shown: string;
  depth: number;
}

export interface DeclaredImportOptions {
  /** Files to import instead of the declared sources and pools (named files are additions to what is there). */
  files?: readonly NamedImportFile[];
  /** Runs to pool besides the declared ones. */
  runs?: readonly NamedRun[];
  /** The declared pools (default true; only when no file is named). */
  pools?: boolean;
  /** The declared queries, corpus and qrels imports (default true; only when no file is named). */
  sources?: boolean;
  signal?: AbortSignal;
  /** What is being done, for a progress display ("corpus.jsonl: 20,000 records read"). */
  onProgress?: (message: string) => void;
}

/** An import asked for that cannot be done as asked (nothing to import, a file named twice): the caller's mistake. */
export class ImportRequestError extends Error {
  override name = 'ImportRequestError';
  readonly reason: 'nothing to import' | 'named twice';
  constructor(reason: ImportRequestError['reason'], message: string) {
    super(message);
    this.reason = reason;
  }
}

/** The document format a study's corpus `format:` names. */
function documentFormatOf(format: 'markdown' | 'html' | 'text' | 'json' | undefined): DocumentFormat | undefined {
  if (format === 'json') return 'table-json';
  if (format === 'text') return 'plain';
  return format;
}

/** 12345 → "12,345" (without toLocaleString, whose first call loads ICU's number formats: 30 ms). */
const count = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** Who the gold ids of a queries file (`gold: FIELD`) are recorded as. */
export const goldAnnotator = 'gold';

/** Each query record, followed by a judgment at `label` by `gold` for each relevant id it lists (none without a label). */
async function* withGoldJudgments(
  records: AsyncIterable<ImportedRecord>,
  label: number | undefined,
): AsyncIterable<ImportedRecord> {
  for await (const record of records) {
    yield record;
    if (label === undefined || record.kind !== 'query' || record.gold === undefined) continue;
    for (const docid of record.gold) {
      yield { kind: 'judgment', qid: record.qid, docid, label, annotator: goldAnnotator, at: record.at };
    }
  }
}

/** The progress messages of a file's reading: when it starts, every progressEvery records (batchImports) and at the end. */
function reported(shown: string, format: string, onProgress: (message: string) => void) {
  return (records: number, done: boolean): void => {
    onProgress(records === 0 && !done ? `reading ${shown} (${format})` : `${shown}: ${count(records)} records read`);
  };
}

/**
 * Imports into `study` (already synced into `store`) what it declares, resolving relative paths against
 * `folder` — or, with `options.files`, those files only. Rejects with ImportRequestError when there is nothing to
 * import or a file is named twice, ImportCancelledError when `options.signal` aborts (nothing written), and the
 * importers' and the store's positioned errors otherwise.
 */
export async function importDeclaredSources(
  store: StudyStore,
  study: Pick<StudyModel, 'name' | 'queries' | 'corpus'> &
    Partial<Pick<StudyModel, 'imports' | 'pools' | 'scale' | 'conditionsFrom' | 'aspects'>>,
  folder: string,
  options: DeclaredImportOptions = {},
): Promise<ImportReport> {
  const { signal } = options;
  const progress = options.onProgress ?? (() => {});
  const checkSignal = () => {
    if (signal?.aborted) throw new ImportCancelledError();
  };
  const named = options.files ?? [];
  // Named files are additions: the declared sources (re-read, unchanged, on every import) are left alone then.
  const declaredToo = named.length === 0;
  const sources: { path: string; options: ImportOptions; origin: ImportOrigin; goldLabel?: number }[] = [];
  const declared = (
    target: ImportTarget,
    source: { path: string; absolutePath?: string; fields: Record<string, string>; fileFormat?: string } | undefined,
    documentFormat?: DocumentFormat,
  ) => {
    if (source === undefined) return;
    const importOptions: ImportOptions = { target, mapping: source.fields, name: source.path };
    if (documentFormat !== undefined) importOptions.documentFormat = documentFormat;
    if (source.fileFormat !== undefined) importOptions.format = source.fileFormat;
    sources.push({
      path: source.absolutePath ?? resolve(folder, source.path),
      options: importOptions,
      origin: { file: source.path, target, format: '' },
    });
  };
  if (declaredToo && (options.sources ?? true)) {
    declared('queries', study.queries);
    // Gold ids listed in the queries file (`gold: FIELD`) are judgments by `gold`, of kind gold.
    if (study.queries?.fields.gold !== undefined) {
      const queries = sources.at(-1)!;
      const values = study.scale?.entries.map((e) => e.value) ?? [];
      queries.goldLabel = values.length > 0 ? Math.max(...values) : 1;
      queries.origin = { ...queries.origin, annotator: goldAnnotator, kind: 'gold' };
    }
    declared('corpus', study.corpus, documentFormatOf(study.corpus?.format));
    for (const qrels of study.imports ?? []) {
      sources.push({
        path: qrels.absolutePath ?? resolve(folder, qrels.path),
        options: { target: 'qrels', name: qrels.path },
        origin: {
          file: qrels.path,
          target: 'qrels',
          format: '',
          annotator: qrels.as,
          ...(qrels.kind && { kind: qrels.kind }),
        },
      });
    }
  }
  for (const file of named) {
    const importOptions: ImportOptions = { target: file.target, name: file.shown };
    if (file.format !== undefined) importOptions.format = file.format;
    if (file.mapping !== undefined) importOptions.mapping = file.mapping;
    if (file.annotator !== undefined) importOptions.annotator = file.annotator;
    sources.push({
      path: file.path,
      options: importOptions,
      origin: {
        file: file.shown,
        target: file.target,
        format: file.format ?? '',
        ...(file.annotator ? { annotator: file.annotator } : {}),
        ...(file.kind ? { kind: file.kind } : {}),
      },
    });
  }
  const runs: NamedRun[] = [];
  if (declaredToo && (options.pools ?? true)) {
    for (const pool of study.pools ?? []) {
      runs.push({ path: pool.absolutePath ?? resolve(folder, pool.path), shown: pool.path, depth: pool.depth });
    }
  }
  runs.push(...(options.runs ?? []));
  if (sources.length === 0 && runs.length === 0) {
    throw new ImportRequestError(
      'nothing to import',
      `nothing to import: study '${study.name}' declares no queries, corpus, pools or qrels, and no file was named`,
    );
  }
  // The same file twice would be every id twice: say so plainly.
  const seen = new Set<string>();
  for (const source of sources) {
    if (seen.has(source.path)) throw new ImportRequestError('named twice', `${source.origin.file} is named twice`);
    seen.add(source.path);
  }

  // Runs first: reading one checks all of it, before anything is written.
  const pools: PoolInput[] = [];
  for (const run of runs) {
    checkSignal();
    progress(`reading run ${run.shown} (top ${run.depth})`);
    const ranking = await readRunRanking(run.path, run.depth);
    pools.push({ run: { path: run.shown, tag: ranking.tag, depth: run.depth }, queries: ranking.queries });
  }
  const files = [];
  for (const source of sources) {
    checkSignal();
    // The database checks ids across all files of the import (core/store Staging), with their positions.
    source.options.idsCheckedByCaller = true;
    const importer = await importerFor(source.path, source.options);
    const records = importer.read(source.path, source.options);
    files.push({
      // Gold judgments only follow the queries of a file that has a gold label (no layer around other files).
      records: source.goldLabel === undefined ? records : withGoldJudgments(records, source.goldLabel),
      origin: { ...source.origin, format: importer.id },
      progress: reported(source.origin.file, importer.id, progress),
    });
  }
  // A label file's condition ticks and aspect answers are checked by the Label view's rules.
  const answers: AnswerRules = {
    conditionCount: (query) =>
      queryConditions({ conditionsFrom: study.conditionsFrom, queries: study.queries }, query).length,
    aspects: new Map((study.aspects ?? []).map((aspect) => [aspect.name, aspect.levels])),
  };
  return store.imports.importBatch(study.name, files, pools, signal, answers);
}
