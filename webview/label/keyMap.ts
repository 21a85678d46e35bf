// The Label view's keyboard: which action a key press means. Pure, so the view and its tests agree on one table.
//   scale keys (from the study file)   label the pair and move on, in one stroke
//   Shift+1 … Shift+9                  tick answer n: the study's aspects first, then the query's conditions
//   Enter                              commit the label the study's `derive` rule gives for the ticked answers
//   j / →   k / ←                      next / previous pair (↑ ↓ stay with scrolling the document)
//   u   n   ?   Esc                    undo, write a note, guidelines and keys, close / leave the note
// Keys pressed while typing in the note (or any field) belong to the field, except Esc and Ctrl/⌘+Enter.
// Shift+digit is read from `code` (the physical key), so it is the same on every keyboard layout.
import type { ScaleEntryModel } from '../../core/dsl/model.ts';

export type KeyAction =
  | { kind: 'label'; value: number }
  | { kind: 'toggle'; n: number }
  | { kind: 'derived' }
  | { kind: 'move'; delta: 1 | -1 }
  | { kind: 'undo' }
  | { kind: 'note' }
  | { kind: 'help' }
  | { kind: 'escape' };

export interface KeyPress {
  key: string;
  code: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
  /** Focus is in a text field. */
  inField: boolean;
}

export function keyAction(press: KeyPress, scale: readonly ScaleEntryModel[]): KeyAction | undefined {
  if (press.key === 'Escape') return { kind: 'escape' };
  if (press.inField) {
    return press.key === 'Enter' && (press.ctrlKey || press.metaKey) ? { kind: 'derived' } : undefined;
  }
  if (press.ctrlKey || press.altKey || press.metaKey) return undefined;
  const digit = /^Digit([1-9])$/.exec(press.code);
  if (press.shiftKey && digit) return { kind: 'toggle', n: Number(digit[1]) };
  const entry = scale.find((e) => e.key === press.key);
  if (entry) return { kind: 'label', value: entry.value };
  switch (press.key) {
    case 'Enter':
      return { kind: 'derived' };
    case 'j':
    case 'ArrowRight':
      return { kind: 'move', delta: 1 };
    case 'k':
    case 'ArrowLeft':
      return { kind: 'move', delta: -1 };
    case 'u':
      return { kind: 'undo' };
    case 'n':
      return { kind: 'note' };
    case '?':
      return { kind: 'help' };
    default:
      return undefined;
  }
}

/**
 * Where a key press goes when VS Code's keybindings own the view's commands (in VS Code: next, previous, undo, note,
 * help, the derived label and the ticks are `contributes.keybindings`, remappable in Keyboard Shortcuts). VS Code
 * forwards every key press a webview does not stop to the workbench, which runs the bound command; the view keeps
 * what no keybinding can express or must never reach one:
 *   view       the study's own scale keys (declared per study file), `?` (a character typed differently on every
 *              keyboard layout, which a keybinding names by key), Esc, Ctrl/⌘+Enter in a field: done here, stopped
 *   field      typing and editing in the note or reason: the field's, stopped (so `j` in a note is a letter, not
 *              "next pair"); F1 and other keys that type nothing still reach the workbench
 *   held       a key held down: its repeats are stopped (one press, one command: a held `u` undoes one label)
 *   workbench  everything else: left to VS Code's keybindings
 */
export type KeyRoute = 'view' | 'field' | 'held' | 'workbench';

/** Keys that edit text in a field without typing a character. */
const editingKeys: ReadonlySet<string> = new Set([
  'Backspace',
  'Delete',
  'Enter',
  'Tab',
  'ArrowLeft',
  'ArrowRight',
  'ArrowUp',
  'ArrowDown',
  'Home',
  'End',
  'PageUp',
  'PageDown',
]);

export function routeKey(press: KeyPress & { repeat: boolean }, action: KeyAction | undefined): KeyRoute {
  if (action?.kind === 'escape' || action?.kind === 'help') return 'view';
  const modified = press.ctrlKey || press.altKey || press.metaKey;
  if (press.inField) {
    if (action?.kind === 'derived') return 'view';
    const typed = [...press.key].length === 1 || editingKeys.has(press.key);
    return modified || !typed ? 'workbench' : 'field';
  }
  if (action?.kind === 'label') return press.repeat ? 'held' : 'view';
  if (press.repeat && !modified) return 'held';
  return 'workbench';
}

/** The key map as the help overlay lists it. */
export function keyMapRows(scale: readonly ScaleEntryModel[], toggles: readonly string[]): [string, string][] {
  return [
    ...scale.map((e): [string, string] => [e.key, `label ${e.value} · ${e.label}, then next pair`]),
    ...toggles.slice(0, 9).map((t, i): [string, string] => [`⇧${i + 1}`, `tick ${t}`]),
    ['Enter', 'commit the derived label (when the study derives one)'],
    ['j / →', 'next pair'],
    ['k / ←', 'previous pair'],
    ['u', 'undo your last label of this session'],
    ['n', 'write a note (saved with the next label)'],
    ['?', 'guidelines and keys'],
    ['Esc', 'close this / leave the note'],
  ];
}
