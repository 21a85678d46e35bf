// The Evaluate view: one webview panel per study (studyPanel.ts), serving the `evaluate/*` protocol
// (evaluateHandlers.ts) over the study's task database and its pooled runs; evaluated again when labels change.
import type * as vscode from 'vscode';
import type { StudyFiles } from '../studies/studyFiles.ts';
import { evaluateRequestHandlers } from './evaluateHandlers.ts';
import type { LabelTarget } from './labelPanel.ts';
import { openStudyPanel } from './studyPanel.ts';

export function openEvaluatePanel(
  context: vscode.ExtensionContext,
  studies: StudyFiles,
  target: LabelTarget,
  output: vscode.OutputChannel,
  revived?: vscode.WebviewPanel,
): Promise<void> {
  return openStudyPanel(
    context,
    studies,
    target,
    output,
    {
      viewType: 'qrelsStudio.evaluate',
      title: 'Evaluate',
      webview: 'evaluate',
      refreshEvent: 'evaluate/refresh',
      handlers: (source) => evaluateRequestHandlers(source),
    },
    revived,
  );
}
