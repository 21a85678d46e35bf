import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { lintRules } from '../../../core/lint/registry.ts';
import { repoRoot } from '../../helpers.ts';

test('every rule has a unique kebab-case id, a severity and a description', () => {
  const ids = lintRules.map((rule) => rule.id);
  assert.equal(new Set(ids).size, ids.length);
  for (const rule of lintRules) {
    assert.match(rule.id, /^[a-z]+(-[a-z]+)*$/);
    assert.ok(['error', 'warning', 'hint'].includes(rule.severity), rule.id);
    assert.ok(rule.description.length > 40, rule.id);
  }
});

test('every module in core/lint/rules is registered', () => {
  const modules = readdirSync(join(repoRoot, 'core', 'lint', 'rules')).filter((f) => f.endsWith('.ts'));
  assert.equal(modules.length, lintRules.length);
});
