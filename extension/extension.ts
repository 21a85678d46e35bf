import * as vscode from 'vscode';
import { locateNativeBinding } from '../core/store/sqliteDatabase.ts';
import { registerLabelKeyCommands } from './commands/labelKeyCommands.ts';
import { showRuntime } from './commands/showRuntime.ts';
import { registerStorePasswordCommand } from './commands/storePasswordCommand.ts';
import { registerStudyCommands } from './commands/studyCommands.ts';
import { startLanguageClientWhenNeeded, stopLanguageClient } from './languageClient.ts';
import { registerPanelSerializers } from './panels/panelSerializers.ts';
import { openRuntimePanel } from './panels/runtimePanel.ts';
import { postgresStoreOpener, storeConnectionChanges } from './studies/postgresStore.ts';
import { registerStudiesView } from './studies/studiesTree.ts';
import { StudyFiles } from './studies/studyFiles.ts';
import { StudyStatusBar } from './studies/studyStatusBar.ts';

export function activate(context: vscode.ExtensionContext): void {
  const output = vscode.window.createOutputChannel('Qrels Studio');
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('qrelsStudio.showRuntime', () => showRuntime(context, output)),
    vscode.commands.registerCommand('qrelsStudio.openRuntimePanel', () => {
      try {
        openRuntimePanel(context, output);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        output.appendLine(`Could not open the runtime panel: ${message}`);
        void vscode.window.showErrorMessage(`Qrels Studio: could not open the runtime panel: ${message}`);
      }
    }),
  );
  // Studies: their stores, each in a worker thread (SQLite found when the first one opens, so a missing binary is
  // a message, not a failed activation), the Studies view, the status bar and the commands.
  const dist = vscode.Uri.joinPath(context.extensionUri, 'dist');
  const studyFiles = new StudyFiles(
    {
      nativeBinding: () => locateNativeBinding(vscode.Uri.joinPath(dist, 'native').fsPath),
      workerScript: vscode.Uri.joinPath(dist, 'studyWorker.cjs').fsPath,
      openPostgres: postgresStoreOpener(context.secrets, output, context.subscriptions),
      onDidChangeConnections: storeConnectionChanges(context.secrets),
    },
    output,
  );
  const statusBar = new StudyStatusBar(studyFiles);
  context.subscriptions.push(
    studyFiles,
    statusBar,
    registerStudiesView(studyFiles),
    registerStudyCommands({ context, studyFiles, statusBar, output }),
    registerPanelSerializers({ context, studyFiles, statusBar, output }),
    registerLabelKeyCommands(),
    registerStorePasswordCommand(context),
  );
  startLanguageClientWhenNeeded(context);
}

export function deactivate(): Promise<void> {
  return stopLanguageClient();
}
