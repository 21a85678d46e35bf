// Where a key press in the Label view goes when VS Code's keybindings own its commands (routeKey): the view keeps
// the study's scale keys, Esc and typing; the workbench gets the rest, each held key once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ScaleEntryModel } from '../../../core/dsl/model.ts';
import { type KeyPress, keyAction, routeKey } from '../../../webview/label/keyMap.ts';

const scale = [
  { value: 0, label: 'No', key: '0' },
  { value: 1, label: 'Yes', key: 'j' },
] as ScaleEntryModel[];

function route(key: string, options: Partial<KeyPress & { repeat: boolean }> = {}): string {
  const press = { key, code: '', shiftKey: false, ctrlKey: false, altKey: false, metaKey: false, inField: false };
  const full = { ...press, repeat: false, ...options };
  return routeKey(full, keyAction(full, scale));
}

test("the study's scale keys stay in the view, even one that is also a default keybinding (j)", () => {
  assert.equal(route('0'), 'view');
  assert.equal(route('j'), 'view');
  assert.equal(route('j', { repeat: true }), 'held');
});

test('navigation, undo, note and unknown keys go to the workbench; Esc and ? stay', () => {
  for (const key of ['k', 'ArrowRight', 'u', 'n', 'Enter', 'x', 'F1']) assert.equal(route(key), 'workbench', key);
  assert.equal(route('p', { ctrlKey: true }), 'workbench');
  assert.equal(route('Escape'), 'view');
  assert.equal(route('?'), 'view', 'the help key is the character, on any layout');
});

test('a held key reaches the workbench once; modified repeats (Ctrl+Z held) still do', () => {
  assert.equal(route('u', { repeat: true }), 'held');
  assert.equal(route('ArrowRight', { repeat: true }), 'held');
  assert.equal(route('z', { repeat: true, ctrlKey: true }), 'workbench');
});

test('in a field: characters and editing keys are the field’s; F1, Ctrl+S and Ctrl+Enter are not', () => {
  for (const key of ['j', 'u', 'é', ' ', 'Backspace', 'ArrowLeft', 'Enter', 'Tab']) {
    assert.equal(route(key, { inField: true }), 'field', key);
  }
  assert.equal(route('F1', { inField: true }), 'workbench');
  assert.equal(route('s', { inField: true, ctrlKey: true }), 'workbench');
  assert.equal(route('Enter', { inField: true, ctrlKey: true }), 'view');
  assert.equal(route('Escape', { inField: true }), 'view');
});
