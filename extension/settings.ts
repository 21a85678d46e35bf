// The extension's settings, read and written in this one typed place (package.json `contributes.configuration`
// declares them). The annotator's identity: `qrelsStudio.annotator`, stored on every label they make; empty means
// the OS user name (the rules: studies/annotatorIdentity.ts). The LLM judge's: `qrelsStudio.judge.*`.
import * as vscode from 'vscode';
import type { PriceTable } from '../core/judge/priceTable.ts';
import { effectiveAnnotatorName } from './studies/annotatorIdentity.ts';

const section = 'qrelsStudio';
/** The full id of the annotator setting. */
export const annotatorSetting = `${section}.annotator`;

/** Who is labelling: the setting, trimmed, or the OS user name when it is empty. */
export function annotatorName(): string {
  return effectiveAnnotatorName(vscode.workspace.getConfiguration(section).get<unknown>('annotator'));
}

/**
 * Sets the annotator. Written where it is set now — the workspace's settings when they set it, else
 * the user's — so that the new name is the one that takes effect.
 */
export async function setAnnotatorName(name: string): Promise<void> {
  const configuration = vscode.workspace.getConfiguration(section);
  const where = configuration.inspect<string>('annotator');
  const target =
    where?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await configuration.update('annotator', name.trim(), target);
}

/** Fires with the new name when the annotator setting changes. */
export const onDidChangeAnnotator: vscode.Event<string> = (listener, thisArgs, disposables) =>
  vscode.workspace.onDidChangeConfiguration(
    (event) => {
      if (event.affectsConfiguration(annotatorSetting)) listener.call(thisArgs, annotatorName());
    },
    undefined,
    disposables,
  );

/** The judge's settings: an endpoint for judges whose study names none, prices per model, calls in flight. */
export function judgeSettings(): { endpoint?: string; prices: PriceTable; concurrency: number } {
  const configuration = vscode.workspace.getConfiguration(`${section}.judge`);
  const endpoint = configuration.get<string>('endpoint')?.trim();
  const prices: PriceTable = {};
  for (const [model, price] of Object.entries(configuration.get<Record<string, unknown>>('prices') ?? {})) {
    const { input, output } = (price ?? {}) as { input?: unknown; output?: unknown };
    if (typeof input === 'number' && typeof output === 'number') {
      prices[model] = { inputPerMillion: input, outputPerMillion: output };
    }
  }
  const concurrency = Math.max(1, Math.min(64, Math.floor(configuration.get<number>('concurrency') ?? 8)));
  return { ...(endpoint ? { endpoint } : {}), prices, concurrency };
}
