// The studies of the workspace: every `*.assess` file (node_modules left out) and the `study` blocks in it, read from
// disk and parsed without the cross-file checks — enough to list and pick them. Opening one (StudyFiles) lints it.
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { parseStudyFile, type ReviewModel, resolveStudies, type StudyModel } from '../../core/dsl/index.ts';

export const studyFileGlob = '**/*.assess';
export const excludedFolders = '**/node_modules/**';

/** A study of a study file: what commands, the tree and the Label view are given. */
export interface StudyTarget {
  /** Absolute path of the `.assess` file. */
  studyFile: string;
  /** The study's name in it. */
  study: string;
}

/** Absolute paths of the workspace's study files, sorted. */
export async function findStudyFiles(): Promise<string[]> {
  const found = await vscode.workspace.findFiles(studyFileGlob, excludedFolders);
  return found
    .filter((uri) => uri.scheme === 'file')
    .map((uri) => uri.fsPath)
    .sort();
}

/** A review block of a study file: what the Studies view and *Open review* are given. */
export interface ReviewTarget {
  /** Absolute path of the `.assess` file. */
  studyFile: string;
  /** The review's name in it. */
  review: string;
}

/** The named `study` and `review` blocks of a study file as they parse now; a file that cannot be read has none. */
export async function readStudyBlocks(studyFile: string): Promise<{ studies: StudyModel[]; reviews: ReviewModel[] }> {
  let text: string;
  try {
    text = await readFile(studyFile, 'utf8');
  } catch {
    return { studies: [], reviews: [] };
  }
  const model = resolveStudies(parseStudyFile(text), studyFile);
  return { studies: model.studies.filter((s) => s.name !== ''), reviews: model.reviews.filter((r) => r.name !== '') };
}

/** The `study` blocks of a study file as they parse now; a file that cannot be read has none. */
export async function readStudies(studyFile: string): Promise<StudyModel[]> {
  return (await readStudyBlocks(studyFile)).studies;
}

/** The study file's path relative to its workspace folder, for display. */
export function shownPath(studyFile: string): string {
  return vscode.workspace.asRelativePath(studyFile, vscode.workspace.workspaceFolders?.length !== 1);
}
