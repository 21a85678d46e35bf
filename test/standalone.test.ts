// The repository stands alone: a clone with nothing beside it runs every test. No source, script or test may reach
// outside the checkout (the workplace's shared folder beside it in particular), and every copied fixture says where it
// came from in test/fixtures/README.md.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { test } from 'node:test';
import { fixturesDir, repoRoot } from './helpers.ts';

const sourceFolders = ['bin', 'cli', 'core', 'extension', 'language-server', 'scripts', 'test', 'webview', '.ci'];

function filesUnder(folder: string, keep: (path: string) => boolean): string[] {
  const found: string[] = [];
  const visit = (path: string): void => {
    if (statSync(path).isDirectory()) {
      if (path === fixturesDir) return;
      for (const entry of readdirSync(path).sort()) visit(join(path, entry));
    } else if (keep(path)) {
      found.push(path);
    }
  };
  visit(folder);
  return found;
}

test('no source, script or test reads a path outside the repository (a sibling folder of the checkout)', () => {
  const offenders: string[] = [];
  for (const folder of sourceFolders) {
    for (const file of filesUnder(join(repoRoot, folder), (path) => /\.(ts|cjs|mjs|js|sh)$|\/run$/.test(path))) {
      if (file === import.meta.filename) continue;
      const rel = relative(repoRoot, file);
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          // A relative path written as one string ('../helpers.ts') must resolve inside the checkout; a path built
          // by joining '..' onto the repository root (or naming the workplace's shared folder) never does.
          const literals = [...line.matchAll(/['"`](\.\.\/[^'"`]*)['"`]/g)].map((m) => m[1]!);
          const outside = literals.some((path) => !resolve(dirname(file), path).startsWith(repoRoot + sep));
          if (
            outside ||
            /repoRoot,\s*'\.\.'/.test(line) ||
            /\.\.\/shared\//.test(line) ||
            /'\.\.',\s*'shared'/.test(line)
          ) {
            offenders.push(`${rel}:${i + 1}: ${line.trim()}`);
          }
        });
    }
  }
  assert.deepEqual(offenders, []);
});

test('every fixture file is accounted for in test/fixtures/README.md', () => {
  const readme = readFileSync(join(fixturesDir, 'README.md'), 'utf8');
  const entries = readdirSync(fixturesDir).filter((name) => name !== 'README.md');
  assert.ok(entries.length > 0);
  for (const entry of entries) {
    const named = statSync(join(fixturesDir, entry)).isDirectory() ? `${entry}/` : entry;
    assert.ok(readme.includes(`## ${named}`), `test/fixtures/README.md has a section "## ${named}"`);
  }
});
