// What the study's result views (Agreement, Evaluate) share: one panel per study, opened after the study (imported
// on first use) opens, brought to the front and refreshed when asked again, and told to refresh whenever the study
// file's labels change (a Label view stored one, a judge or a CLI import wrote the database, the file was edited).
import { basename, dirname, resolve } from 'node:path';
import * as vscode from 'vscode';
import type { StudyModel } from '../../core/dsl/model.ts';
import type { StudyStore } from '../../core/store/studyStore.ts';
import type { EventKind, RequestKind } from '../../webview/protocol.ts';
import type { StudyFiles } from '../studies/studyFiles.ts';
import { trackStudyPanel } from './activeStudyPanel.ts';
import type { RequestHandlers } from './hostChannel.ts';
import type { LabelTarget } from './labelPanel.ts';
import { createPanelHost, type PanelHost } from './panelHost.ts';

/** A study as its record now has it: what the views' handlers compute from. */
export interface StudySource {
  store: StudyStore;
  studyId: number;
  study: StudyModel;
  /** The study file's folder (its relative paths resolve against it). */
  folder: string;
}

/** The study, synced again first when its file changed; an error the view shows when it cannot be opened. */
export async function studySource(studies: StudyFiles, target: LabelTarget): Promise<StudySource> {
  const opened = await studies.open(target.studyFile);
  if (!opened) throw new Error(`${basename(target.studyFile)} could not be opened (the notification says why)`);
  const study = opened.model.studies.find((s) => s.name === target.study);
  if (!study) throw new Error(`${basename(target.studyFile)} has no study '${target.study}' any more`);
  return {
    store: opened.store,
    studyId: await opened.store.studies.studyId(study.name),
    study,
    folder: dirname(resolve(target.studyFile)),
  };
}

export interface StudyPanelSpec<K extends RequestKind> {
  viewType: string;
  /** "Agreement" → the panel is titled "Agreement: <study>". */
  title: string;
  /** The webview bundle (webview/<name>/). */
  webview: string;
  refreshEvent: Extract<EventKind, `${string}/refresh`>;
  handlers(source: () => Promise<StudySource>): RequestHandlers<K>;
}

const openPanels = new Map<string, PanelHost>();

export async function openStudyPanel<K extends RequestKind>(
  context: vscode.ExtensionContext,
  studies: StudyFiles,
  target: LabelTarget,
  output: vscode.OutputChannel,
  spec: StudyPanelSpec<K>,
  revived?: vscode.WebviewPanel,
): Promise<void> {
  const key = `${spec.viewType}#${resolve(target.studyFile)}#${target.study}`;
  const existing = openPanels.get(key);
  if (existing) {
    existing.postEvent(spec.refreshEvent, {});
    existing.panel.reveal();
    return;
  }
  // Opened (and imported) before the panel exists: a study file with errors or a cancelled import opens nothing.
  const opened = await studies.open(target.studyFile);
  if (!opened) return;
  if (!opened.model.studies.some((s) => s.name === target.study)) {
    void vscode.window.showErrorMessage(`Qrels Studio: ${target.studyFile} has no study '${target.study}'`);
    return;
  }
  if (openPanels.has(key)) {
    openPanels.get(key)?.panel.reveal(); // opened meanwhile (a second click while importing)
    return;
  }
  const host = createPanelHost(context.extensionUri, {
    viewType: spec.viewType,
    title: `${spec.title}: ${target.study}`,
    webview: spec.webview,
    output,
    panelState: { studyFile: target.studyFile, study: target.study },
    ...(revived && { revived }),
    handlers: spec.handlers(() => studySource(studies, target)),
  });
  openPanels.set(key, host);
  trackStudyPanel(host.panel, target);
  const studyFile = resolve(target.studyFile);
  const changed = studies.onDidChange((file) => {
    if (file === '' || file === studyFile) host.postEvent(spec.refreshEvent, {});
  });
  host.panel.onDidDispose(() => {
    changed.dispose();
    openPanels.delete(key);
  });
  context.subscriptions.push(changed);
}
