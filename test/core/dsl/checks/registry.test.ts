import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findStudyCheck, studyChecks } from '../../../../core/dsl/checks/registry.ts';
import { fileChecks } from '../../../../core/dsl/fileChecks/registry.ts';

test('check codes are unique kebab-case ids, each with a description', () => {
  const all = [...studyChecks, ...fileChecks];
  const codes = all.map((c) => c.code);
  assert.equal(new Set(codes).size, codes.length);
  for (const check of all) {
    assert.match(check.code, /^[a-z]+(-[a-z]+)*$/, check.code);
    assert.ok(check.description.length > 20, check.code);
  }
  assert.equal(findStudyCheck('navigation-key')?.code, 'navigation-key');
  assert.equal(findStudyCheck('no-such-check'), undefined);
});
