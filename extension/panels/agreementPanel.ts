// The Agreement view: one webview panel per study, serving the `agreement/*` protocol (agreementHandlers.ts) from the
// study's task database, opened (and on first use imported) by StudyFiles. Whenever the study file's labels change
// (a Label view stored one, an LLM judge or a CLI import wrote the database, the study file was edited) the view is
// told to fetch its report again. Clicking a disagreement opens it as an adjudication queue in the Label view.
import { basename, resolve } from 'node:path';
import * as vscode from 'vscode';
import type { StudyFiles } from '../studies/studyFiles.ts';
import { type AgreementSource, agreementRequestHandlers } from './agreementHandlers.ts';
import { type LabelTarget, openAdjudicationQueue } from './labelPanel.ts';
import { createPanelHost, type PanelHost } from './panelHost.ts';

const openPanels = new Map<string, PanelHost>();

const keyOf = (target: LabelTarget): string => `${resolve(target.studyFile)}#${target.study}`;

/** The study as its database now has it (synced again first when the study file changed). */
async function agreementSource(studies: StudyFiles, target: LabelTarget): Promise<AgreementSource> {
  const opened = await studies.open(target.studyFile);
  if (!opened) throw new Error(`${basename(target.studyFile)} could not be opened (the notification says why)`);
  const study = opened.model.studies.find((s) => s.name === target.study);
  if (!study) throw new Error(`${basename(target.studyFile)} has no study '${target.study}' any more`);
  return { db: opened.database.db, studyId: opened.database.studyId(study.name), study };
}

/** Opens (or brings to the front, with a fresh report) the Agreement view of a study. */
export async function openAgreementPanel(
  context: vscode.ExtensionContext,
  studies: StudyFiles,
  target: LabelTarget,
  output: vscode.OutputChannel,
): Promise<void> {
  const key = keyOf(target);
  const existing = openPanels.get(key);
  if (existing) {
    existing.postEvent('agreement/refresh', {});
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
    viewType: 'qrelsStudio.agreement',
    title: `Agreement: ${target.study}`,
    webview: 'agreement',
    output,
    handlers: agreementRequestHandlers(() => agreementSource(studies, target), {
      onAdjudicate: async (_selection, pairIds, title) => {
        output.appendLine(`[agreement] ${target.study}: adjudicating ${title}`);
        await openAdjudicationQueue(context, studies, target, output, { title, pairIds });
      },
    }),
  });
  openPanels.set(key, host);
  const studyFile = resolve(target.studyFile);
  const changed = studies.onDidChange((file) => {
    if (file === '' || file === studyFile) host.postEvent('agreement/refresh', {});
  });
  host.panel.onDidDispose(() => {
    changed.dispose();
    openPanels.delete(key);
  });
  context.subscriptions.push(changed);
}
