// Panels come back after a window reload: VS Code keeps an open webview panel's tab and its webview state (which
// holds what the panel shows: panelHost.ts writes it into the page, hostMessenger.ts stores it) and hands both to
// the serializer registered for the panel's view type, which opens the same view again in the revived panel.
// Activation on `onWebviewPanel:<viewType>` (package.json) lets VS Code call us for it.
import * as vscode from 'vscode';
import type { StudyFiles } from '../studies/studyFiles.ts';
import type { StudyStatusBar } from '../studies/studyStatusBar.ts';
import { findStudyFiles, readStudies } from '../studies/workspaceStudies.ts';
import { openAgreementPanel } from './agreementPanel.ts';
import { openEvaluatePanel } from './evaluatePanel.ts';
import { openLabelPanel } from './labelPanel.ts';
import { showReviewPanel } from './reviewPanel.ts';
import { openRuntimePanel } from './runtimePanel.ts';

interface SerializerDeps {
  context: vscode.ExtensionContext;
  studyFiles: StudyFiles;
  statusBar: StudyStatusBar;
  output: vscode.OutputChannel;
}

/** The panel's part of its webview's state, as hostMessenger.ts stores it. */
function panelStateOf(state: unknown): Record<string, unknown> | undefined {
  const panel = (state as { panel?: unknown } | null | undefined)?.panel;
  return typeof panel === 'object' && panel !== null ? (panel as Record<string, unknown>) : undefined;
}

function stringField(state: Record<string, unknown> | undefined, name: string): string | undefined {
  const value = state?.[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

type Revive = (panel: vscode.WebviewPanel, state: Record<string, unknown> | undefined) => Promise<void>;

/**
 * The study a revived study panel showed, from its title ("Label: energy-dev") when the webview state has none — a
 * browser tab of code-server closed without the workbench saving it: the one study of the workspace by that name.
 */
async function studyNamedByTitle(panel: vscode.WebviewPanel): Promise<Record<string, unknown> | undefined> {
  const name = /^(?:Label|Evaluate|Agreement): (.+)$/.exec(panel.title)?.[1];
  if (name === undefined) return undefined;
  const found: { studyFile: string; study: string }[] = [];
  for (const studyFile of await findStudyFiles()) {
    for (const study of await readStudies(studyFile)) if (study.name === name) found.push({ studyFile, study: name });
  }
  return found.length === 1 ? found[0] : undefined;
}

/** Every panel's view type and how to open it again in a revived panel. */
export const revivablePanels: readonly string[] = [
  'qrelsStudio.label',
  'qrelsStudio.evaluate',
  'qrelsStudio.agreement',
  'qrelsStudio.review',
  'qrelsStudio.runtime',
];

export function registerPanelSerializers(deps: SerializerDeps): vscode.Disposable {
  const { context, studyFiles, statusBar, output } = deps;
  const study = (state: Record<string, unknown> | undefined) => {
    const studyFile = stringField(state, 'studyFile');
    const name = stringField(state, 'study');
    return studyFile && name ? { studyFile, study: name } : undefined;
  };
  const studyView =
    (open: typeof openLabelPanel): Revive =>
    async (panel, state) => {
      const target = study(state);
      if (target) await open(context, studyFiles, target, output, panel);
    };
  const revivers: Record<string, Revive> = {
    'qrelsStudio.label': async (panel, state) => {
      const target = study(state);
      if (!target) return;
      statusBar.setStudy(target); // as the Label command does: the status bar follows the study being labelled
      await openLabelPanel(context, studyFiles, target, output, panel);
    },
    'qrelsStudio.evaluate': studyView(openEvaluatePanel),
    'qrelsStudio.agreement': studyView(openAgreementPanel),
    'qrelsStudio.review': async (panel, state) => {
      const studyFile = stringField(state, 'studyFile');
      const review = stringField(state, 'review');
      if (studyFile && review) await showReviewPanel(context, studyFiles, output, { studyFile, review }, panel);
    },
    'qrelsStudio.runtime': async (panel) => openRuntimePanel(context, output, panel),
  };
  return vscode.Disposable.from(
    ...revivablePanels.map((viewType) =>
      vscode.window.registerWebviewPanelSerializer(viewType, {
        async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
          const shown = panelStateOf(state) ?? (await studyNamedByTitle(panel));
          output.appendLine(`[${viewType}] restoring after a window reload: ${JSON.stringify(shown ?? null)}`);
          try {
            await revivers[viewType]!(panel, shown);
          } catch (error) {
            output.appendLine(`[${viewType}] not restored: ${error instanceof Error ? error.message : String(error)}`);
          }
          // VS Code revives the tab without its page: when the view could not be opened again (its study file was
          // deleted or no longer parses, which the notification or Problems panel says), no empty tab stays.
          if (panel.webview.html === '') panel.dispose();
        },
      }),
    ),
  );
}
