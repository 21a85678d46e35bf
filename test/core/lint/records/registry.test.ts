import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { recordRules } from '../../../../core/lint/records/registry.ts';
import { repoRoot } from '../../../helpers.ts';

test('every record rule has a unique kebab-case id, a severity, a description and formats', () => {
  const ids = recordRules.map((rule) => rule.id);
  assert.equal(new Set(ids).size, ids.length);
  for (const rule of recordRules) {
    assert.match(rule.id, /^[a-z]+(-[a-z]+)*$/);
    assert.ok(['error', 'warning', 'hint'].includes(rule.severity), rule.id);
    assert.ok(rule.description.length > 40, rule.id);
    for (const format of rule.formats) assert.ok(['jsonl', 'csv', 'tsv'].includes(format), rule.id);
    // File-level verdicts (no check of their own) are the only rules without formats.
    assert.equal(rule.create === undefined, rule.formats.length === 0, rule.id);
  }
});

test('every module in core/lint/records/rules is registered, and has a test', () => {
  const modules = readdirSync(join(repoRoot, 'core', 'lint', 'records', 'rules')).filter((f) => f.endsWith('.ts'));
  assert.equal(modules.length, recordRules.length);
  const tests = new Set(readdirSync(join(repoRoot, 'test', 'core', 'lint', 'records', 'rules')));
  for (const module of modules) assert.ok(tests.has(module.replace(/\.ts$/, '.test.ts')), module);
});
