// The study files (*.assess) of the workspace and what they say about data files. A qrels, run or BEIR qrels file
// is checked against the studies of the nearest study file in its folder or a folder above it (as .eslintrc is
// found): their queries and corpus ids and their scale values. Query and corpus files are indexed once (core/data
// RecordIndex) and again when they change on disk; a study file open in the editor is read from the editor.
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { RecordIndex } from '../core/data/recordIndex.ts';
import { type ParsedStudyFile, parseStudyFile, resolveStudies } from '../core/dsl/index.ts';
import type { DataSourceModel, StudyModel } from '../core/dsl/model.ts';
import type { StudyLintContext } from '../core/lint/studyContext.ts';
import {
  type IndexedSource,
  qrelsFileOf,
  readQrelsQueryIds,
  scaleValuesOf,
  studyLintContext,
} from '../core/lint/studyLoader.ts';

/** Folders not searched for study files. */
const skippedFolders = new Set([
  'node_modules',
  '.git',
  '.hg',
  '.svn',
  'dist',
  'out',
  '.cache',
  '.venv',
  '__pycache__',
]);
/** Study files looked for at most this deep below a workspace folder, and at most this many folders read. */
const maxDepth = 8;
const maxFolders = 5000;

/** A `queries`, `corpus` or `items` source of a study, resolved. */
export interface StudySource {
  /** Absolute path. */
  path: string;
  /** As the study file writes it, for messages. */
  written: string;
  /** role → field ("id" → "qid"). */
  fields: Map<string, string>;
}

export interface StudyInfo {
  name: string;
  queries?: StudySource;
  corpus?: StudySource;
  scaleValues: number[];
  /** The qrels the study's runs must cover (its exported or imported qrels file). */
  qrels?: { path: string; written: string };
}

interface StudyFile {
  path: string;
  parsed: ParsedStudyFile;
  studies: StudyInfo[];
  /** Held by the editor: the scan does not read it from disk. */
  open: boolean;
}

/** The id field of a source: its `id` role, or `_id` (BEIR) when the study maps none. */
export function idFieldOf(source: StudySource): string {
  return source.fields.get('id') ?? '_id';
}

export function uriToPath(uri: string): string | undefined {
  try {
    return uri.startsWith('file:') ? fileURLToPath(uri) : undefined;
  } catch {
    return undefined;
  }
}

export class StudyWorkspace {
  private folders: string[] = [];
  private readonly files = new Map<string, StudyFile>();
  private readonly indexes = new Map<string, Promise<RecordIndex | undefined>>();
  private readonly loadedIndexes = new Map<string, RecordIndex>();
  private readonly loadedQrels = new Map<string, ReadonlySet<string>>();
  private readonly log: (message: string) => void;
  /** Called when an index finished loading (documents linted before it can now be checked against it). */
  onIndexLoaded: () => void = () => {};

  constructor(log: (message: string) => void) {
    this.log = log;
  }

  setFolders(uris: readonly string[]): void {
    this.folders = uris.map(uriToPath).filter((path): path is string => path !== undefined);
  }

  /** Finds and parses the study files under the workspace folders (those open in the editor are kept as typed). */
  async scan(): Promise<void> {
    const found = new Set<string>();
    let budget = maxFolders;
    const walk = async (folder: string, depth: number): Promise<void> => {
      if (depth > maxDepth || budget-- <= 0) return;
      let entries: import('node:fs').Dirent[];
      try {
        entries = await readdir(folder, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        const path = join(folder, entry.name);
        if (entry.isDirectory() && !skippedFolders.has(entry.name)) await walk(path, depth + 1);
        else if (entry.isFile() && entry.name.endsWith('.assess')) found.add(path);
      }
    };
    for (const folder of this.folders) await walk(folder, 0);
    for (const path of found) {
      if (this.files.get(path)?.open) continue;
      try {
        this.setStudyText(path, await readFile(path, 'utf8'), false);
      } catch (error) {
        this.log(`cannot read study file ${path}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    for (const path of [...this.files.keys()])
      if (!found.has(path) && !this.files.get(path)!.open) this.files.delete(path);
  }

  /** A study file's text as the editor holds it. */
  studyEdited(uri: string, text: string): void {
    const path = uriToPath(uri);
    if (path !== undefined) this.setStudyText(path, text, true);
  }

  studyClosed(uri: string): void {
    const path = uriToPath(uri);
    const file = path === undefined ? undefined : this.files.get(path);
    if (file !== undefined) file.open = false;
  }

  /** A file was saved or changed on disk: an index of it (queries, corpus, qrels) is rebuilt. True when a study uses it. */
  dataFileSaved(uri: string): boolean {
    const path = uriToPath(uri);
    if (path === undefined) return false;
    let used = false;
    for (const key of [...this.indexes.keys()]) {
      if (key.startsWith(`${path}\u0000`)) {
        this.indexes.delete(key);
        this.loadedIndexes.delete(key);
        this.loadedQrels.delete(key);
        used = true;
      }
    }
    return used || path.endsWith('.assess');
  }

  /** The studies that apply to a data file: those of the nearest study file at or above its folder. */
  studiesFor(uri: string): StudyInfo[] {
    const path = uriToPath(uri);
    if (path === undefined) return [];
    let folder = dirname(path);
    for (;;) {
      const here = [...this.files.values()].filter((file) => dirname(file.path) === folder);
      if (here.length > 0) return here.flatMap((file) => file.studies);
      const parent = dirname(folder);
      if (parent === folder || !this.folders.some((root) => folder.startsWith(root + sep) || folder === root))
        return [];
      folder = parent;
    }
  }

  /** What the data file at `uri` is checked against, or undefined when no study applies. */
  studyContextFor(uri: string): StudyLintContext | undefined {
    const indexed = (source: StudySource | undefined): IndexedSource | undefined =>
      source === undefined ? undefined : { written: source.written, index: this.index(source) };
    return studyLintContext(
      this.studiesFor(uri).map((study) => {
        const queries = indexed(study.queries);
        const corpus = indexed(study.corpus);
        const qrels = study.qrels && { written: study.qrels.written, queryIds: this.qrelsQueries(study.qrels.path) };
        return {
          name: study.name,
          scaleValues: study.scaleValues,
          ...(queries ? { queries } : {}),
          ...(corpus ? { corpus } : {}),
          ...(qrels ? { qrels } : {}),
        };
      }),
    );
  }

  /** The loaded index of a source, or undefined while it loads (loading starts here) or when it cannot be read. */
  index(source: StudySource): RecordIndex | undefined {
    const key = `${source.path}\u0000${idFieldOf(source)}`;
    const loaded = this.loadedIndexes.get(key);
    if (loaded !== undefined) return loaded;
    if (!this.indexes.has(key)) {
      const loading = RecordIndex.load(source.path, { idField: idFieldOf(source) }).then(
        (index) => {
          if (this.indexes.get(key) !== loading) return undefined;
          if (index.problem === undefined) {
            this.loadedIndexes.set(key, index);
            this.onIndexLoaded();
          } else {
            this.log(index.problem);
          }
          return index;
        },
        (error: unknown) => {
          this.log(`cannot index ${source.path}: ${error instanceof Error ? error.message : String(error)}`);
          return undefined;
        },
      );
      this.indexes.set(key, loading);
    }
    return undefined;
  }

  /** The query ids of a study's qrels file once read (reading starts here), or undefined. */
  private qrelsQueries(path: string): ReadonlySet<string> | undefined {
    const key = `${path}\u0000qrels`;
    const loaded = this.loadedQrels.get(key);
    if (loaded !== undefined) return loaded;
    if (!this.indexes.has(key)) {
      const loading = readQrelsQueryIds(path).then((ids) => {
        if (this.indexes.get(key) !== loading || ids === undefined) return undefined;
        this.loadedQrels.set(key, ids);
        this.onIndexLoaded();
        return undefined;
      });
      this.indexes.set(key, loading);
    }
    return undefined;
  }

  /** Loads (or waits for) a source's index. */
  async loadIndex(source: StudySource): Promise<RecordIndex | undefined> {
    this.index(source);
    return (await this.indexes.get(`${source.path}\u0000${idFieldOf(source)}`)) ?? undefined;
  }

  private setStudyText(path: string, text: string, open: boolean): void {
    const parsed = parseStudyFile(text);
    const studies = resolveStudies(parsed, path).studies.map((study) => studyInfo(study, dirname(path)));
    this.files.set(path, { path, parsed, studies, open });
  }
}

function studyInfo(study: StudyModel, base: string): StudyInfo {
  const source = (model: DataSourceModel | undefined): StudySource | undefined =>
    model === undefined
      ? undefined
      : {
          path: model.absolutePath ?? resolve(base, model.path),
          written: model.path,
          fields: new Map(Object.entries(model.fields)),
        };
  const info: StudyInfo = {
    name: study.name,
    scaleValues: scaleValuesOf(study),
  };
  const queries = source(study.queries);
  const corpus = source(study.corpus);
  const qrels = qrelsFileOf(study);
  if (queries) info.queries = queries;
  if (corpus) info.corpus = corpus;
  if (qrels) info.qrels = qrels;
  return info;
}

export function pathToUri(path: string): string {
  return pathToFileURL(path).href;
}
