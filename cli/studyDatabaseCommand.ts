// What the task-database commands (import, pool, export, judged) share: read the study file (refused, with its
// errors, when it has any), pick the study (`--name` when the file has several), open its database next to it and
// bring it in line with the study file (syncStudies: a change that would orphan judgments is an error naming them).
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { lintStudyText, nodeStudyHost, parseStudyFile, resolveStudies } from '../core/dsl/index.ts';
import type { ReviewModel, StudyFileModel, StudyModel } from '../core/dsl/model.ts';
import { FileReadError } from '../core/formats/lineReader.ts';
import { openStudyStore, storesFromEnvironment } from '../core/store/openStudyStore.ts';
import { locateNativeBinding } from '../core/store/sqliteDatabase.ts';
import type { StudyStore } from '../core/store/studyStore.ts';
import { type CliContext, InputError, UsageError } from './cliContext.ts';
import { studyDiagnostics } from './commands/lint.ts';

export interface OpenedStudy {
  /** The study file as the user named it. */
  studyFile: string;
  /** Its folder: the study's relative paths resolve against it. */
  folder: string;
  study: StudyModel;
  /** The study's record (the storage port); the command closes it. */
  store: StudyStore;
}

/** Opens the database of study `name` (or the file's only study) of the study file `studyArg`. */
export async function openStudyDatabase(
  studyArg: string,
  name: string | undefined,
  context: CliContext,
): Promise<OpenedStudy> {
  const opened = await openBlockDatabase(studyArg, name, context, 'study');
  return { ...opened, study: opened.block as StudyModel };
}

/** Opens the database of review `name` (or the file's only review block) of the study file `studyArg`. */
export async function openReviewDatabase(
  studyArg: string,
  name: string | undefined,
  context: CliContext,
): Promise<Omit<OpenedStudy, 'study'> & { review: ReviewModel }> {
  const opened = await openBlockDatabase(studyArg, name, context, 'review');
  return {
    studyFile: opened.studyFile,
    folder: opened.folder,
    store: opened.store,
    review: opened.block as ReviewModel,
  };
}

async function openBlockDatabase(
  studyArg: string,
  name: string | undefined,
  context: CliContext,
  kind: 'study' | 'review',
): Promise<Omit<OpenedStudy, 'study'> & { block: StudyModel | ReviewModel }> {
  const { path, model, block: study } = await readStudyBlock(studyArg, name, context, kind);
  // Where the file's `store` statement says: the SQLite file next to it, or a PostgreSQL store whose connection
  // comes from the environment (QRELS_STUDIO_STORES, PG* variables, ~/.pgpass).
  const store = await openStudyStore(path, model, {
    nativeBinding: () => locateNativeBinding(context.nativeDir),
    env: process.env,
    settings: storesFromEnvironment(process.env),
    onWarning: (message) => context.stderr(`warning: ${message}\n`),
  });
  try {
    await store.studies.sync(model);
  } catch (error) {
    await store.close();
    throw error;
  }
  return { studyFile: studyArg, folder: dirname(path), block: study, store };
}

/**
 * Reads the study file `studyArg` (refused, with its errors, when it has any) and picks block `name` (or the
 * file's only one of `kind`), without opening its database: for commands that only read what the study declares.
 */
export async function readStudyBlock(
  studyArg: string,
  name: string | undefined,
  context: CliContext,
  kind: 'study' | 'review',
): Promise<{ path: string; model: StudyFileModel; block: StudyModel | ReviewModel }> {
  const { path, model } = await readStudyFile(studyArg, context);
  const studies: (StudyModel | ReviewModel)[] = kind === 'study' ? model.studies : model.reviews;
  const study =
    name === undefined ? (studies.length === 1 ? studies[0] : undefined) : studies.find((s) => s.name === name);
  if (study === undefined) {
    const names = studies.map((s) => `'${s.name}'`).join(', ') || 'none';
    throw new UsageError(
      name === undefined
        ? studies.length === 0
          ? `${studyArg} has no ${kind} block` +
            (kind === 'study' && model.reviews.length > 0
              ? ` (its reviews' agreement on verdicts: qrels-studio export ${studyArg} --summary [--json])`
              : '')
          : `${studyArg} has several ${kind === 'study' ? 'studies' : 'reviews'} (${names}): choose one with --name`
        : `${studyArg} has no ${kind} '${name}' (it has ${names})`,
    );
  }
  return { path, model, block: study };
}

/** The value after option `args[i]` (`--depth 20`), or a usage error. */
export function optionValue(args: readonly string[], i: number, what: string): string {
  const value = args[i + 1];
  if (value === undefined || value.startsWith('--')) throw new UsageError(`${args[i]} needs ${what}`);
  return value;
}

/** The file's block a command is for is a review: --name names one, or the file has reviews and no study. */
export async function namesReview(file: string, name: string | undefined, context: CliContext): Promise<boolean> {
  let text: string;
  try {
    text = await readFile(resolve(context.cwd, file), 'utf8');
  } catch {
    return false; // openStudyDatabase says what is wrong
  }
  const model = resolveStudies(parseStudyFile(text));
  return name !== undefined
    ? model.reviews.some((r) => r.name === name)
    : model.studies.length === 0 && model.reviews.length > 0;
}

/** Reads the study file `studyArg` and resolves its model; refused, with its errors, when it has any. */
export async function readStudyFile(
  studyArg: string,
  context: CliContext,
): Promise<{ path: string; model: StudyFileModel }> {
  if (!studyArg.endsWith('.assess')) throw new UsageError(`expected a study file (*.assess), found '${studyArg}'`);
  const path = resolve(context.cwd, studyArg);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new FileReadError(studyArg, error);
  }
  const errors = (await lintStudyText(text, path, nodeStudyHost())).filter((d) => d.severity === 'error');
  if (errors.length > 0) {
    for (const d of studyDiagnostics(studyArg, text, errors)) {
      context.stderr(`${d.file}:${d.line}:${d.column}: ${d.severity} [${d.rule}] ${d.message}\n`);
    }
    throw new InputError(`${studyArg} has errors: fix them first (qrels-studio lint ${studyArg})`);
  }
  return { path, model: resolveStudies(parseStudyFile(text), path) };
}
