// `npm start` opens a copy of demo/: a quick fix saved while trying the demo lands in the copy, and demo/ — what
// the end-to-end tests copy — stays as committed.
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { folderDigest, prepareDemoWorkspace } from '../../scripts/demoWorkspace.ts';
import { repoRoot, scratchDir } from '../helpers.ts';

function demoCopy(): { demo: string; copy: string } {
  const dir = scratchDir('demo-workspace-');
  const demo = join(dir, 'demo');
  cpSync(join(repoRoot, 'demo'), demo, { recursive: true, filter: (path) => !path.includes('.qrels-studio') });
  return { demo, copy: join(dir, 'cache', 'demo-workspace') };
}

test('the workspace npm start opens is a copy: editing it (the demo quick fix) leaves demo/ unchanged', () => {
  const { demo, copy } = demoCopy();
  const before = folderDigest(demo);
  const { folder, made } = prepareDemoWorkspace(demo, copy);
  assert.equal(made, 'new');
  assert.notEqual(folder, demo);
  const typo = join(folder, 'broken', 'typo.assess');
  assert.equal(readFileSync(typo, 'utf8'), readFileSync(join(demo, 'broken', 'typo.assess'), 'utf8'));
  writeFileSync(typo, readFileSync(typo, 'utf8').replace('scal ordinal', 'scale ordinal'));
  mkdirSync(join(folder, '.qrels-studio'));
  writeFileSync(join(folder, '.qrels-studio', 'relevance.sqlite'), 'labels');
  assert.equal(folderDigest(demo), before);
  // The next start keeps the copy, with what was tried in it.
  assert.equal(prepareDemoWorkspace(demo, copy).made, 'kept');
  assert.match(readFileSync(typo, 'utf8'), /scale ordinal/);
  assert.ok(existsSync(join(folder, '.qrels-studio', 'relevance.sqlite')));
});

test('when demo/ itself changes (a pull), the copy is made again from it', () => {
  const { demo, copy } = demoCopy();
  prepareDemoWorkspace(demo, copy);
  writeFileSync(join(demo, 'README.md'), `${readFileSync(join(demo, 'README.md'), 'utf8')}\nA new step.\n`);
  assert.equal(prepareDemoWorkspace(demo, copy).made, 'renewed');
  assert.match(readFileSync(join(copy, 'README.md'), 'utf8'), /A new step\.\n$/);
});
