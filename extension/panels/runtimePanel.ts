// "Qrels Studio: Open runtime panel": the runtime report (versions, SQLite, WAL check) in a webview, with a button
// that builds it again. One panel at a time; opening it again brings the open one to the front.
import type * as vscode from 'vscode';
import { formatRuntimeReport, type RuntimeReport } from '../../core/runtime/runtimeReport.ts';
import { errorValue, type Result } from '../../webview/protocol.ts';
import { hostRuntimeReport } from '../commands/showRuntime.ts';
import { createPanelHost, type PanelHost } from './panelHost.ts';

let openPanel: PanelHost | undefined;

export function openRuntimePanel(
  context: vscode.ExtensionContext,
  output: vscode.OutputChannel,
  revived?: vscode.WebviewPanel,
): void {
  if (openPanel) {
    revived?.dispose(); // one runtime panel at a time
    openPanel.panel.reveal();
    return;
  }
  let latest: Result<RuntimeReport> | undefined;
  const check = (): RuntimeReport => {
    try {
      const report = hostRuntimeReport(context);
      output.appendLine(formatRuntimeReport(report, 'lines'));
      latest = { ok: true, value: report };
      return report;
    } catch (error) {
      output.appendLine(`Runtime check failed: ${errorValue(error).message}`);
      latest = { ok: false, error: errorValue(error) };
      throw error;
    }
  };
  const host = createPanelHost(context.extensionUri, {
    viewType: 'qrelsStudio.runtime',
    title: 'Qrels Studio runtime',
    webview: 'runtime',
    output,
    ...(revived && { revived }),
    handlers: { 'runtime/check': () => check() },
    onReady: () => {
      if (!latest) {
        try {
          check();
        } catch {
          // `latest` now holds the error; the view shows it.
        }
      }
      if (latest) host.postEvent('runtime/report', { result: latest });
    },
  });
  openPanel = host;
  host.panel.onDidDispose(() => {
    openPanel = undefined;
  });
}
