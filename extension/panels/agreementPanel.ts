// The Agreement view: one webview panel per study (studyPanel.ts), serving the `agreement/*` protocol
// (agreementHandlers.ts) from the study's task database; its report is fetched again whenever the study's labels
// change. Clicking a disagreement opens it as an adjudication queue in the Label view.
import type * as vscode from 'vscode';
import type { StudyFiles } from '../studies/studyFiles.ts';
import { agreementRequestHandlers } from './agreementHandlers.ts';
import { type LabelTarget, openAdjudicationQueue } from './labelPanel.ts';
import { openStudyPanel } from './studyPanel.ts';

export function openAgreementPanel(
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
      viewType: 'qrelsStudio.agreement',
      title: 'Agreement',
      webview: 'agreement',
      refreshEvent: 'agreement/refresh',
      handlers: (source) =>
        agreementRequestHandlers(source, {
          onAdjudicate: async (_selection, pairIds, title) => {
            output.appendLine(`[agreement] ${target.study}: adjudicating ${title}`);
            await openAdjudicationQueue(context, studies, target, output, { title, pairIds });
          },
        }),
    },
    revived,
  );
}
