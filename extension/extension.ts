import * as vscode from 'vscode';
import { showRuntime } from './commands/showRuntime.ts';
import { startLanguageClientWhenNeeded, stopLanguageClient } from './languageClient.ts';
import { openRuntimePanel } from './panels/runtimePanel.ts';

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
  startLanguageClientWhenNeeded(context);
}

export function deactivate(): Promise<void> {
  return stopLanguageClient();
}
