// package.json's contributions and the extension's code agree: every command registered is declared (with the
// palette category) and every declared command registered; menus name declared commands and the tree's context
// values; the Studies view's icon exists and is packaged; the annotator setting is declared.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../helpers.ts';

interface Contributes {
  commands: { command: string; title: string; category?: string }[];
  configuration: { properties: Record<string, { type: string; default: unknown; markdownDescription?: string }> };
  viewsContainers: { activitybar: { id: string; icon: string }[] };
  views: Record<string, { id: string; icon?: string }[]>;
  viewsWelcome: { view: string; contents: string }[];
  menus: Record<string, { command: string; when?: string }[]>;
}

const contributes = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).contributes as Contributes;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [readFileSync(join(dir, entry.name), 'utf8')]
        : [],
  );
}
const extensionCode = sources(join(repoRoot, 'extension')).join('\n');
/** The Label view's keyboard commands, registered from one table (extension/commands/labelKeyCommands.ts). */
const labelKeyCommandNames = [
  ...(/export const labelKeyCommands[\s\S]*?= \{\n([\s\S]*?)\n\};/.exec(extensionCode)?.[1] ?? '').matchAll(
    /^ {2}'(qrelsStudio\.label\.\w+)'/gm,
  ),
].map((m) => m[1]!);

test('every registered command is declared with the category, and every declared one is registered', () => {
  const registered = new Set([
    ...[...extensionCode.matchAll(/registerCommand\(\s*'([^']+)'/g)].map((m) => m[1]!),
    ...labelKeyCommandNames,
  ]);
  const declared = new Set(contributes.commands.map((c) => c.command));
  assert.deepEqual([...registered].sort(), [...declared].sort());
  for (const command of contributes.commands) assert.equal(command.category, 'Qrels Studio', command.command);
  for (const used of ['qrelsStudio.openStudy', 'qrelsStudio.labelNext']) {
    assert.ok(extensionCode.includes(`command: '${used}'`), `${used} is what a tree item or the status bar runs`);
  }
});

test("menus name declared commands; the study items' context value is the tree's", () => {
  const declared = new Set(contributes.commands.map((c) => c.command));
  for (const [menu, entries] of Object.entries(contributes.menus)) {
    for (const entry of entries) assert.ok(declared.has(entry.command), `${menu}: ${entry.command}`);
  }
  const studyItems = contributes.menus['view/item/context']!.filter((e) =>
    e.when?.includes('viewItem == qrelsStudio.study'),
  );
  assert.deepEqual([...new Set(studyItems.map((e) => e.command))].sort(), [
    'qrelsStudio.evaluate',
    'qrelsStudio.exportQrels',
    'qrelsStudio.importStudy',
    'qrelsStudio.labelNext',
    'qrelsStudio.poolStudy',
    'qrelsStudio.showAgreement',
    'qrelsStudio.switchAnnotator',
  ]);
  assert.match(extensionCode, /study: 'qrelsStudio\.study'/);
});

test('the Studies view: its container, icon (packaged), welcome text', () => {
  const container = contributes.viewsContainers.activitybar.find((c) => c.id === 'qrelsStudio');
  assert.ok(container);
  assert.ok(existsSync(join(repoRoot, container.icon)), container.icon);
  assert.match(
    readFileSync(join(repoRoot, container.icon), 'utf8'),
    /^<svg [^>]*viewBox="0 0 24 24"[^>]*stroke="currentColor"/,
  );
  assert.match(readFileSync(join(repoRoot, '.vscodeignore'), 'utf8'), /^!media\/icons\/\*\*$/m);
  assert.deepEqual(
    contributes.views.qrelsStudio?.map((v) => v.id),
    ['qrelsStudio.studies'],
  );
  assert.match(extensionCode, /studiesViewId = 'qrelsStudio\.studies'/);
  assert.ok(contributes.viewsWelcome.some((w) => w.view === 'qrelsStudio.studies' && /\*\.assess/.test(w.contents)));
});

test('the annotator setting is declared: a string, empty by default, described', () => {
  const setting = contributes.configuration.properties['qrelsStudio.annotator'];
  assert.equal(setting?.type, 'string');
  assert.equal(setting?.default, '');
  assert.match(setting?.markdownDescription ?? '', /OS user name/);
  assert.match(extensionCode, /annotatorSetting = `\$\{section\}\.annotator`/);
});

test('the walkthrough: five steps, each with packaged Markdown, its links naming declared or built-in commands', () => {
  const { walkthroughs } = contributes as Contributes & {
    walkthroughs: { id: string; steps: { id: string; description: string; media: { markdown: string } }[] }[];
  };
  const steps = walkthroughs.find((w) => w.id === 'qrelsStudio.gettingStarted')?.steps ?? [];
  assert.equal(steps.length, 5);
  const declared = new Set(contributes.commands.map((c) => c.command));
  const builtIn = new Set(['workbench.view.extension.qrelsStudio', 'workbench.actions.view.problems']);
  for (const step of steps) {
    assert.ok(existsSync(join(repoRoot, step.media.markdown)), step.media.markdown);
    assert.match(step.media.markdown, /^media\/walkthrough\//);
    for (const [, command] of step.description.matchAll(/\(command:([\w.]+)\)/g)) {
      assert.ok(declared.has(command!) || builtIn.has(command!), `${step.id}: unknown command ${command}`);
    }
  }
  assert.match(readFileSync(join(repoRoot, '.vscodeignore'), 'utf8'), /^!media\/walkthrough\/\*\*$/m);
});

const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
  activationEvents: string[];
  contributes: Contributes & { keybindings: { key: string; command: string; when?: string; args?: unknown }[] };
};

test("the Label view's keys are keybindings VS Code users can remap, each only in the Label view", () => {
  const { keybindings } = manifest.contributes;
  const declared = new Set(contributes.commands.map((c) => c.command));
  const keyCommands = labelKeyCommandNames;
  assert.ok(keyCommands.length >= 8, keyCommands.join());
  for (const command of keyCommands) assert.ok(declared.has(command), `${command} is declared`);
  for (const binding of keybindings) {
    assert.ok(keyCommands.includes(binding.command), `${binding.key}: ${binding.command} is a Label view command`);
    // In the Label view only, and never while typing in the workbench or working in a side bar or panel.
    assert.match(binding.when ?? '', /^activeWebviewPanelId == 'qrelsStudio\.label' && !inputFocus && /);
  }
  // The keys the help overlay lists (webview/label/keyMap.ts), one binding each.
  const keyOf = (command: string, args?: unknown) =>
    keybindings
      .filter((b) => b.command === command && JSON.stringify(b.args) === JSON.stringify(args))
      .map((b) => b.key);
  assert.deepEqual(keyOf('qrelsStudio.label.next'), ['j', 'right']);
  assert.deepEqual(keyOf('qrelsStudio.label.previous'), ['k', 'left']);
  assert.deepEqual(keyOf('qrelsStudio.label.undo'), ['u']);
  assert.deepEqual(keyOf('qrelsStudio.label.note'), ['n']);
  // `?` is typed differently on every layout: the view reads the character; the command has no default key.
  assert.deepEqual(keyOf('qrelsStudio.label.help'), []);
  assert.deepEqual(keyOf('qrelsStudio.label.commitDerived'), ['enter']);
  for (let n = 1; n <= 9; n++) assert.deepEqual(keyOf('qrelsStudio.label.toggle', { answer: n }), [`shift+${n}`]);
});

test('activation: on what needs the extension (its languages, study and data files, restored panels), not at startup', () => {
  const events = manifest.activationEvents;
  assert.ok(!events.includes('onStartupFinished') && !events.includes('*'), events.join());
  const serialized = /revivablePanels[^=]*=\s*\[([\s\S]*?)\]/.exec(extensionCode)?.[1] ?? '';
  const viewTypes = [...serialized.matchAll(/'(qrelsStudio\.\w+)'/g)].map((m) => m[1]!);
  const created = [...extensionCode.matchAll(/viewType: '(qrelsStudio\.\w+)'/g)].map((m) => m[1]!);
  assert.deepEqual([...new Set(created)].sort(), [...viewTypes].sort(), 'every panel has a serializer');
  for (const viewType of viewTypes) assert.ok(events.includes(`onWebviewPanel:${viewType}`), viewType);
  assert.match(extensionCode, /registerWebviewPanelSerializer\(viewType/);
  // A data file too large for VS Code to hand to extensions opens no document (so no onLanguage): the workspace
  // holding it activates us, by the same names the languages claim.
  for (const language of (manifest.contributes as unknown as { languages: { id: string; extensions?: string[] }[] })
    .languages) {
    if (language.id !== 'qrels' && language.id !== 'trec-run') continue;
    for (const extension of language.extensions ?? []) {
      assert.ok(events.includes(`workspaceContains:**/*${extension}`), extension);
    }
  }
});
