import { mkdirSync } from 'node:fs';
import * as vscode from 'vscode';
import { buildRuntimeReport, formatRuntimeReport, type RuntimeReport } from '../../core/runtime/runtimeReport.ts';
import { locateNativeBinding } from '../../core/store/sqliteDatabase.ts';

/** Builds the runtime report in this extension host (loads the bundled SQLite, opens a WAL database); throws on failure. */
export function hostRuntimeReport(context: vscode.ExtensionContext): RuntimeReport {
  return buildRuntimeReport({
    productVersion: String(context.extension.packageJSON.version),
    host: `VS Code ${vscode.version} (${vscode.env.appHost})`,
    nativeBinding: locateNativeBinding(vscode.Uri.joinPath(context.extensionUri, 'dist', 'native').fsPath),
    scratchDir: context.globalStorageUri.scheme === 'file' ? ensureDir(context.globalStorageUri) : undefined,
  });
}

/** "Qrels Studio: Show version and runtime": loads the bundled SQLite in this extension host and reports it. */
export function showRuntime(context: vscode.ExtensionContext, output: vscode.OutputChannel): void {
  try {
    const report = hostRuntimeReport(context);
    output.appendLine(formatRuntimeReport(report, 'lines'));
    void vscode.window.showInformationMessage(formatRuntimeReport(report, 'line'));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    output.appendLine(`Runtime check failed: ${message}`);
    void vscode.window.showErrorMessage(`Qrels Studio: ${message}`);
  }
}

function ensureDir(uri: vscode.Uri): string {
  // globalStorage may not exist yet on a first run; the probe database lives (briefly) inside it.
  mkdirSync(uri.fsPath, { recursive: true });
  return uri.fsPath;
}
