// The studies a command may offer to pick: those of study files that lint without errors (the checks the editor's
// Problems panel shows). A file with errors offers none: opening it would only say what is wrong with it. No
// `vscode` here, so it is tested on real files.
import { readFile } from 'node:fs/promises';
import { lintStudyText, nodeStudyHost, parseStudyFile, resolveStudies, type StudyModel } from '../../core/dsl/index.ts';
import type { StudyTarget } from './workspaceStudies.ts';

export interface PickableStudies {
  /** The studies of the files without errors, in the files' order. */
  studies: (StudyTarget & { model: StudyModel })[];
  /** The study files left out because they have errors (or cannot be read). */
  withErrors: string[];
}

export async function pickableStudies(studyFiles: readonly string[]): Promise<PickableStudies> {
  const checked = await Promise.all(
    studyFiles.map(async (studyFile) => {
      let text: string;
      try {
        text = await readFile(studyFile, 'utf8');
      } catch {
        return { studyFile, studies: undefined };
      }
      const errors = (await lintStudyText(text, studyFile, nodeStudyHost())).filter((d) => d.severity === 'error');
      if (errors.length > 0) return { studyFile, studies: undefined };
      const studies = resolveStudies(parseStudyFile(text), studyFile).studies.filter((s) => s.name !== '');
      return { studyFile, studies: studies.map((model) => ({ studyFile, study: model.name, model })) };
    }),
  );
  return {
    studies: checked.flatMap((c) => c.studies ?? []),
    withErrors: checked.filter((c) => c.studies === undefined).map((c) => c.studyFile),
  };
}
