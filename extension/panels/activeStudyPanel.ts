// Which study the user is in when a view of it (Label, Agreement, Evaluate) is the active editor tab: the study
// commands run on it instead of asking "choose a study".
import type * as vscode from 'vscode';
import type { StudyTarget } from '../studies/workspaceStudies.ts';

const studyPanels = new Map<vscode.WebviewPanel, StudyTarget>();

/** Remembers the study a panel shows, until the panel is closed. */
export function trackStudyPanel(panel: vscode.WebviewPanel, target: StudyTarget): void {
  studyPanels.set(panel, { studyFile: target.studyFile, study: target.study });
  panel.onDidDispose(() => studyPanels.delete(panel));
}

/** The study of the active panel, when it is one of the study's views. */
export function activeStudyPanel(): StudyTarget | undefined {
  for (const [panel, target] of studyPanels) if (panel.active) return target;
  return undefined;
}
