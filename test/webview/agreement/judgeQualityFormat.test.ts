// The Judges section's words: a gate condition as the study file writes it, a check with its number, the gate in
// one line (passed / failed with what failed / none declared), undefined values as "—: why", cost per 1,000 pairs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { GateCheck } from '../../../core/judge/quality/judgeQualityTypes.ts';
import {
  conditionText,
  costPer1000Text,
  gateCheckText,
  gateText,
  qualityText,
} from '../../../webview/agreement/judgeQualityFormat.ts';

const tau: GateCheck = { condition: { metric: 'tau', operator: '>=', value: 0.9 }, value: 0.8667, passed: false };
const kappa: GateCheck = { condition: { metric: 'kappa', operator: '>=', value: 0.6 }, value: 0.71, passed: true };

test('conditions read as written; a check names its value and what it needs', () => {
  assert.equal(conditionText(tau.condition), 'tau >= 0.9');
  assert.equal(conditionText({ metric: 'ece', operator: '<', value: 0.1 }), 'ece < 0.1');
  assert.equal(gateCheckText(tau), 'τ = 0.867 (needs tau >= 0.9)');
  assert.equal(
    gateCheckText({ ...tau, value: null, reason: 'fewer than two runs' }),
    'τ undefined: fewer than two runs (needs tau >= 0.9)',
  );
});

test('the gate: passed with its conditions, failed with the failure, or none declared', () => {
  assert.equal(gateText({ declared: false, passed: true, checks: [] }), 'No gate declared');
  assert.equal(gateText({ declared: true, passed: true, checks: [kappa] }), 'Gate passed: kappa >= 0.6');
  // The report's own sentence when it gives one, else the failing checks.
  assert.equal(
    gateText({ declared: true, passed: false, checks: [tau, kappa], failure: 'judge X fails tau >= 0.9: τ = 0.867' }),
    'Gate failed: judge X fails tau >= 0.9: τ = 0.867',
  );
  assert.equal(
    gateText({ declared: true, passed: false, checks: [tau, kappa] }),
    'Gate failed: τ = 0.867 (needs tau >= 0.9)',
  );
});

test('undefined values are "—" with the reason, never NaN; cost per 1,000 pairs in dollars', () => {
  assert.equal(qualityText({ value: 0.5 }), '0.500');
  assert.equal(qualityText({ value: -0.25 }), '−0.250');
  assert.equal(qualityText({ value: null, reason: 'one vote per pair' }), '—: one vote per pair');
  assert.equal(costPer1000Text({ value: 0.123456 }), '$0.1235 per 1,000 pairs');
  assert.equal(costPer1000Text({ value: 12.5 }), '$12.50 per 1,000 pairs');
  assert.equal(costPer1000Text({ value: null, reason: 'the model has no price' }), '—: the model has no price');
});
