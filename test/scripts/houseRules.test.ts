// The house rules (scripts/houseRules.ts) hold on this repository, and each one catches a planted violation at its
// position: an editor import in core/, SQL outside core/store/, a webview reaching store code by type or at run time.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { formatViolation, houseRuleViolations } from '../../scripts/houseRules.ts';
import { repoRoot, scratchDir } from '../helpers.ts';

test('this repository keeps the house rules', () => {
  assert.deepEqual(houseRuleViolations(repoRoot).map(formatViolation), []);
});

function plant(files: Record<string, string>): string {
  const root = scratchDir();
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

test('each rule reports a planted violation where it is, and leaves allowed code alone', () => {
  const root = plant({
    // Allowed: SQL in the store, prose and RegExp.exec elsewhere, a webview importing plain types and logic.
    'core/store/sqlite/labels.ts': "export const q = 'SELECT id FROM pair WHERE study_id = ?';\n",
    'core/store/thing.ts': 'export const thing = 1;\n',
    'core/labelling/types.ts': 'export interface PairView { id: number }\n',
    'core/labelling/prose.ts':
      "export const hint = 'select a label, then update the view';\nexport const m = /x/.exec('x');\n",
    'webview/label/ok.tsx':
      "import type { PairView } from '../../core/labelling/types.ts';\nexport type V = PairView;\n",
    // Violations.
    'core/labelling/editor.ts': "import * as vscode from 'vscode';\nexport const v = vscode;\n",
    'core/agreement/dashboard.ts':
      'export interface Dashboard { n: number }\nexport function count(db: { prepare(s: string): unknown }) {\n  return db.prepare(`SELECT count(*) FROM pair`);\n}\n',
    'cli/commands/raw.ts': "import Database from 'better-sqlite3';\nexport const d = Database;\n",
    'core/labelling/helper.ts': "import { thing } from '../store/thing.ts';\nexport const helper = thing;\n",
    'webview/agreement/protocol.ts':
      "import type { Dashboard } from '../../core/agreement/dashboard.ts';\nexport type D = Dashboard;\n",
    'webview/label/main.tsx': "\nimport { helper } from '../../core/labelling/helper.ts';\nexport const h = helper;\n",
  });
  assert.deepEqual(houseRuleViolations(root).map(formatViolation), [
    "cli/commands/raw.ts:1:1: sql-only-in-core-store: an import of 'better-sqlite3'",
    'core/agreement/dashboard.ts:3:13: sql-only-in-core-store: a database call .prepare()',
    'core/agreement/dashboard.ts:3:21: sql-only-in-core-store: SQL text `SELECT count(*) FROM pair`',
    "core/labelling/editor.ts:1:1: core-is-editor-free: an import of 'vscode'",
    'webview/agreement/protocol.ts:1:1: webviews-import-no-store-code: a type import of core/agreement/dashboard.ts, which holds SQL',
    'webview/label/main.tsx:2:1: webviews-import-no-store-code: an import of core/labelling/helper.ts, which imports core/store/thing.ts',
    'webview/label/main.tsx:2:1: webviews-import-no-store-code: store code core/store/thing.ts at run time (through core/labelling/helper.ts)',
  ]);
});
