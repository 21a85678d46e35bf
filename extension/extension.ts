import * as vscode from 'vscode';
import { showRuntime } from './commands/showRuntime.ts';

export function activate(context: vscode.ExtensionContext): void {
  const output = vscode.window.createOutputChannel('Qrels Studio');
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('qrelsStudio.showRuntime', () => showRuntime(context, output)),
  );
}

export function deactivate(): void {}
