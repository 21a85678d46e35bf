// The Label view's keyboard as VS Code commands, so that its keys are `contributes.keybindings` (package.json, with
// `when: activeWebviewPanelId == 'qrelsStudio.label'`) that users see and remap in Keyboard Shortcuts. VS Code
// forwards a key pressed in the view to the workbench, the keybinding runs one of these commands, and the command
// hands the action back to the view (label/keyAction). The study's scale keys stay in the view — they are declared
// per study file — and `qrelsStudio.label.choose` binds any key to a label value.
import * as vscode from 'vscode';
import type { KeyAction } from '../../webview/label/keyMap.ts';
import { sendKeyActionToActiveLabelPanel } from '../panels/labelPanel.ts';

/** Each command and the action it sends; `toggle` and `choose` take their number as the keybinding's `args`. */
export const labelKeyCommands: Readonly<Record<string, (args: unknown) => KeyAction | undefined>> = {
  'qrelsStudio.label.next': () => ({ kind: 'move', delta: 1 }),
  'qrelsStudio.label.previous': () => ({ kind: 'move', delta: -1 }),
  'qrelsStudio.label.undo': () => ({ kind: 'undo' }),
  'qrelsStudio.label.note': () => ({ kind: 'note' }),
  'qrelsStudio.label.help': () => ({ kind: 'help' }),
  'qrelsStudio.label.commitDerived': () => ({ kind: 'derived' }),
  'qrelsStudio.label.toggle': (args) => {
    const n = numberArgument(args, 'answer');
    return n !== undefined && Number.isInteger(n) && n >= 1 && n <= 9 ? { kind: 'toggle', n } : undefined;
  },
  'qrelsStudio.label.choose': (args) => {
    const value = numberArgument(args, 'value');
    return value !== undefined && Number.isInteger(value) ? { kind: 'label', value } : undefined;
  },
};

/** A keybinding's args: the number itself, or `{ "<name>": number }`. */
function numberArgument(args: unknown, name: string): number | undefined {
  if (typeof args === 'number') return args;
  const value = (args as Record<string, unknown> | null | undefined)?.[name];
  return typeof value === 'number' ? value : undefined;
}

export function registerLabelKeyCommands(): vscode.Disposable {
  return vscode.Disposable.from(
    ...Object.entries(labelKeyCommands).map(([command, actionOf]) =>
      vscode.commands.registerCommand(command, (args?: unknown) => {
        const action = actionOf(args);
        if (action === undefined) {
          void vscode.window.showErrorMessage(
            `Qrels Studio: ${command} needs a number as its keybinding's "args" (got ${JSON.stringify(args) ?? 'none'})`,
          );
          return;
        }
        sendKeyActionToActiveLabelPanel(action);
      }),
    ),
  );
}
