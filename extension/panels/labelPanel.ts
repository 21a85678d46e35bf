// The Label view: one webview panel per study, serving the `label/*` protocol (labelHandlers.ts) from a core
// LabelSession over the study's store. The store is opened (and on first use imported) by StudyFiles;
// the annotator is the `qrelsStudio.annotator` setting, and changing it starts a new session in the open panels; so
// does the study file changing on disk (StudyFiles syncs it again: blind, scale and annotators may have changed, and
// the old session refuses to go on under its old rules — LabelSession.studyChanged).
import { resolve } from 'node:path';
import * as vscode from 'vscode';
import { LabelSession } from '../../core/labelling/labelSession.ts';
import type { KeyAction } from '../../webview/label/keyMap.ts';
import { annotatorName, setAnnotatorName } from '../settings.ts';
import { annotatorNameProblem } from '../studies/annotatorIdentity.ts';
import type { StudyFiles } from '../studies/studyFiles.ts';
import { trackStudyPanel } from './activeStudyPanel.ts';
import { labelRequestHandlers } from './labelHandlers.ts';
import { createPanelHost, type PanelHost } from './panelHost.ts';

export interface LabelTarget {
  /** Absolute path of the `.assess` file. */
  studyFile: string;
  /** The study's name in it. */
  study: string;
}

interface OpenLabelPanel {
  host: PanelHost;
  session: LabelSession;
  /** Sessions being opened for this panel: only the latest one asked for replaces the session. */
  openings: number;
  /** The study file, as the panel was opened with it. */
  studyFile: string;
}

const openPanels = new Map<string, OpenLabelPanel>();

const keyOf = (target: LabelTarget): string => `${target.studyFile}#${target.study}`;

/** Opens a session on the study for the current annotator; a refusal (not one of its annotators) is shown. */
async function openSession(
  studies: StudyFiles,
  target: LabelTarget,
  output: vscode.OutputChannel,
  replaces?: LabelSession,
): Promise<LabelSession | undefined> {
  const opened = await studies.open(target.studyFile);
  if (!opened) return undefined;
  const study = opened.model.studies.find((s) => s.name === target.study);
  if (!study) {
    void vscode.window.showErrorMessage(`Qrels Studio: ${target.studyFile} has no study '${target.study}'`);
    return undefined;
  }
  // The setting may have been written by hand (settings.json): the same rules as "Switch annotator".
  const annotator = annotatorName();
  const problem = annotatorNameProblem(annotator);
  if (problem !== undefined) {
    void vscode.window.showErrorMessage(
      `Qrels Studio: the setting qrelsStudio.annotator is '${annotator}': ${problem}`,
    );
    return undefined;
  }
  try {
    return await LabelSession.open(opened.store, {
      studyFile: target.studyFile,
      study,
      annotator,
      ...(replaces && { replaces }),
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    output.appendLine(`[label] ${target.study}: ${message}`);
    void vscode.window.showErrorMessage(`Qrels Studio: ${message}`);
    return undefined;
  }
}

/**
 * Runs a keyboard action in the Label view that has the focus: what the view's keybinding commands
 * (`qrelsStudio.label.*`, labelKeyCommands.ts) do. False when no Label view is active.
 */
export function sendKeyActionToActiveLabelPanel(action: KeyAction): boolean {
  for (const entry of openPanels.values()) {
    if (entry.host.panel.active) {
      entry.host.postEvent('label/keyAction', { action });
      return true;
    }
  }
  return false;
}

/** Tells the open Label views of a study file that its pairs changed outside them (an LLM judge ran). */
export function refreshLabelPanels(studyFile: string): void {
  for (const entry of openPanels.values()) {
    if (resolve(entry.studyFile) === resolve(studyFile)) entry.host.postEvent('label/refresh', {});
  }
}

/** Opens (or brings to the front, with a fresh queue) the Label view of a study. */
export async function openLabelPanel(
  context: vscode.ExtensionContext,
  studies: StudyFiles,
  target: LabelTarget,
  output: vscode.OutputChannel,
  revived?: vscode.WebviewPanel,
): Promise<void> {
  const key = keyOf(target);
  const session = await openSession(studies, target, output, openPanels.get(key)?.session);
  if (!session) return;
  const existing = openPanels.get(key);
  if (existing) {
    existing.openings++;
    existing.session = session;
    existing.host.postEvent('label/reset', { state: session.state() });
    existing.host.panel.reveal();
    return;
  }
  const entry = { session, openings: 0, studyFile: target.studyFile } as OpenLabelPanel;
  entry.host = createPanelHost(context.extensionUri, {
    viewType: 'qrelsStudio.label',
    title: `Label: ${target.study}`,
    webview: 'label',
    retainContextWhenHidden: true,
    panelState: { studyFile: target.studyFile, study: target.study },
    hostKeybindings: true,
    ...(revived && { revived }),
    output,
    handlers: labelRequestHandlers(() => entry.session, {
      onLabelsChanged: (progress) =>
        studies.labelStored({
          studyFile: target.studyFile,
          study: target.study,
          annotator: entry.session.annotator,
          progress,
        }),
    }),
  });
  openPanels.set(key, entry);
  trackStudyPanel(entry.host.panel, target);
  /** A new session in this panel (the annotator or the study file changed); the view starts over with it. */
  const reopen = async () => {
    const opening = ++entry.openings;
    const next = await openSession(studies, target, output, entry.session);
    if (!next || opening !== entry.openings || openPanels.get(key) !== entry) return;
    entry.session = next;
    entry.host.postEvent('label/reset', { state: next.state() });
  };
  const annotatorChanged = vscode.workspace.onDidChangeConfiguration((event) => {
    // Already labelling as the new name (openAdjudicationQueue switched to the adjudicator and opened the session
    // itself): keep that session and its adjudication queue.
    if (event.affectsConfiguration('qrelsStudio.annotator') && annotatorName() !== entry.session.annotator) {
      void reopen();
    }
  });
  const studyFile = resolve(target.studyFile);
  // One check at a time; a change while one runs checks again after it (the session asks its store: asynchronous).
  let checking: Promise<void> | undefined;
  let checkAgain = false;
  const studyChanged = studies.onDidChange((changed) => {
    if (changed !== '' && changed !== studyFile) return;
    if (checking !== undefined) {
      checkAgain = true;
      return;
    }
    checking = (async () => {
      do {
        checkAgain = false;
        const session = entry.session;
        let stale: boolean;
        try {
          stale = await session.studyChanged();
        } catch {
          return; // the store was closed (the study file deleted): the session says so on the next request
        }
        if (stale && entry.session === session) await reopen();
      } while (checkAgain);
    })().finally(() => {
      checking = undefined;
    });
  });
  entry.host.panel.onDidDispose(() => {
    annotatorChanged.dispose();
    studyChanged.dispose();
    openPanels.delete(key);
  });
  context.subscriptions.push(annotatorChanged, studyChanged);
}

/**
 * Opens pairs the Agreement view picked as an adjudication queue in the study's Label view. The adjudicator labels:
 * when the Label view labels as someone else, a modal offers to switch the annotator setting to the adjudicator
 * first. Throws (the Agreement view shows the message) when the study declares no adjudicator or the switch is
 * declined.
 */
export async function openAdjudicationQueue(
  context: vscode.ExtensionContext,
  studies: StudyFiles,
  target: LabelTarget,
  output: vscode.OutputChannel,
  queue: { title: string; pairIds: number[] },
): Promise<void> {
  const opened = await studies.open(target.studyFile);
  const study = opened?.model.studies.find((s) => s.name === target.study);
  if (!study) throw new Error(`${target.studyFile} has no study '${target.study}'`);
  const adjudicator = study.adjudicator;
  if (adjudicator === undefined) {
    throw new Error(
      `study '${study.name}' declares no adjudicator: add \`adjudicator NAME\` to its block to adjudicate its disagreements`,
    );
  }
  const current = annotatorName();
  if (current !== adjudicator) {
    const switchTo = `Adjudicate as ${adjudicator}`;
    const answer = await vscode.window.showInformationMessage(
      `Only ${adjudicator}, the adjudicator of study '${study.name}', adjudicates. You label as '${current}'.`,
      { modal: true, detail: `Switching sets qrelsStudio.annotator to '${adjudicator}'.` },
      switchTo,
    );
    if (answer !== switchTo)
      throw new Error(`not adjudicated: the Label view labels as '${current}', not ${adjudicator}`);
    await setAnnotatorName(adjudicator);
  }
  await openLabelPanel(context, studies, target, output);
  const entry = openPanels.get(keyOf(target));
  if (!entry) throw new Error(`the Label view of study '${study.name}' did not open`);
  const state = await entry.session.adjudicate(queue.pairIds, queue.title);
  entry.host.postEvent('label/reset', { state });
  entry.host.panel.reveal();
}
