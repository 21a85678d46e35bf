// Builds the StudyLintContext of a study file from disk: parses it with core/dsl, indexes the queries and corpus
// files its studies declare (core/data RecordIndex) and collects their scale values. The CLI's
// `qrels-studio lint --study FILE` uses it; the language server keeps its own cached indexes (they change as the
// user edits) but builds the same context with studyLintContext.
import { readFile } from 'node:fs/promises';
import { RecordIndex } from '../data/recordIndex.ts';
import { lintStudyText, nodeStudyHost, parseStudyFile, resolveStudies } from '../dsl/index.ts';
import type { DataSourceModel, StudyModel } from '../dsl/model.ts';
import type { DslDiagnostic } from '../dsl/types.ts';
import { FileReadError, readLines } from '../formats/lineReader.ts';
import type { StudyIdSource, StudyLintContext } from './studyContext.ts';

/** A study's declared source with its loaded index, or undefined while/when it has none. */
export interface IndexedSource {
  written: string;
  index: { has(id: string): boolean } | undefined;
}

/** The context of `studies` given their sources' indexes (undefined sources are not checked). */
export function studyLintContext(
  studies: readonly {
    name: string;
    queries?: IndexedSource;
    corpus?: IndexedSource;
    scaleValues: readonly number[];
    qrels?: { written: string; queryIds: ReadonlySet<string> | undefined };
  }[],
): StudyLintContext | undefined {
  if (studies.length === 0) return undefined;
  const name =
    studies.length === 1 ? `study '${studies[0]!.name}'` : `studies ${studies.map((s) => `'${s.name}'`).join(', ')}`;
  const union = (sources: (IndexedSource | undefined)[]): StudyIdSource | undefined => {
    const declared = sources.filter((s): s is IndexedSource => s !== undefined);
    // Until every index is there, nothing is reported unknown.
    if (declared.length === 0 || declared.some((s) => s.index === undefined)) return undefined;
    return {
      source: [...new Set(declared.map((s) => s.written))].join(' or '),
      has: (id) => declared.some((s) => s.index!.has(id)),
    };
  };
  const queries = union(studies.map((s) => s.queries));
  const corpus = union(studies.map((s) => s.corpus));
  const scaleValues = [...new Set(studies.flatMap((s) => s.scaleValues))];
  const qrelsFiles = studies.flatMap((s) =>
    s.qrels?.queryIds ? [{ written: s.qrels.written, ids: s.qrels.queryIds }] : [],
  );
  const qrels =
    qrelsFiles.length === 0
      ? undefined
      : {
          source: [...new Set(qrelsFiles.map((q) => q.written))].join(' and '),
          queryIds: new Set(qrelsFiles.flatMap((q) => [...q.ids])),
        };
  return {
    name,
    ...(queries ? { queries } : {}),
    ...(corpus ? { corpus } : {}),
    ...(scaleValues.length > 0 ? { scaleValues } : {}),
    ...(qrels ? { qrels } : {}),
  };
}

/** The qrels file a study's runs are checked against: its exported qrels (or else imported ones), if on disk. */
export function qrelsFileOf(study: StudyModel): { path: string; written: string } | undefined {
  const file = study.exports.find((e) => e.what === 'qrels') ?? study.imports.find((i) => i.what === 'qrels');
  return file === undefined ? undefined : { path: file.absolutePath ?? file.path, written: file.path };
}

/** The query ids of a qrels file (the first field of each judgment line), or undefined when it cannot be read. */
export async function readQrelsQueryIds(path: string): Promise<Set<string> | undefined> {
  const ids = new Set<string>();
  const decoder = new TextDecoder();
  let last = '';
  try {
    await readLines(path, (bytes, start, end) => {
      let from = start;
      // A blank line of a CRLF file is a lone '\r': blank too.
      while (from < end && (bytes[from] === 32 || bytes[from] === 9 || bytes[from] === 13)) from++;
      if (from === end || bytes[from] === 35) return;
      let to = from;
      while (to < end && bytes[to] !== 32 && bytes[to] !== 9 && bytes[to] !== 13) to++;
      const id = decoder.decode(bytes.subarray(from, to));
      if (id !== last) ids.add(id);
      last = id;
    });
  } catch (error) {
    if (error instanceof FileReadError) return undefined;
    throw error;
  }
  return ids;
}

export function scaleValuesOf(study: StudyModel): number[] {
  return (study.scale?.entries ?? []).map((entry) => entry.value).filter((value) => Number.isInteger(value));
}

export type LoadedStudyContext =
  | { ok: true; context: StudyLintContext | undefined }
  | { ok: false; diagnostics: DslDiagnostic[]; text: string };

/** Reads the study file at `path`; a study file with errors is refused with its diagnostics. */
export async function loadStudyLintContext(path: string): Promise<LoadedStudyContext> {
  const text = await readFile(path, 'utf8');
  const diagnostics = await lintStudyText(text, path, nodeStudyHost());
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) return { ok: false, diagnostics: errors, text };
  const { studies } = resolveStudies(parseStudyFile(text), path);
  const indexed = async (source: DataSourceModel | undefined): Promise<IndexedSource | undefined> => {
    if (source === undefined) return undefined;
    const index = await RecordIndex.load(source.absolutePath ?? source.path, { idField: source.fields.id ?? '_id' });
    return { written: source.path, index };
  };
  const loaded = await Promise.all(
    studies.map(async (study) => {
      const queries = await indexed(study.queries);
      const corpus = await indexed(study.corpus);
      const qrelsFile = qrelsFileOf(study);
      const qrels = qrelsFile && { written: qrelsFile.written, queryIds: await readQrelsQueryIds(qrelsFile.path) };
      return {
        name: study.name,
        scaleValues: scaleValuesOf(study),
        ...(queries ? { queries } : {}),
        ...(corpus ? { corpus } : {}),
        ...(qrels ? { qrels } : {}),
      };
    }),
  );
  return { ok: true, context: studyLintContext(loaded) };
}
