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

test('every registered command is declared with the category, and every declared one is registered', () => {
  const registered = new Set([...extensionCode.matchAll(/registerCommand\(\s*'([^']+)'/g)].map((m) => m[1]!));
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
