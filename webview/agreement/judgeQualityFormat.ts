// How the Agreement view's Judges section words a judge's quality: the gate's conditions as the study file writes
// them, a value that is undefined as "—" with its reason, money per 1,000 pairs. Pure functions (tested in Node).
import type { JudgeGateCondition } from '../../core/dsl/model.ts';
import type { GateCheck, JudgeGateVerdict, QualityValue } from '../../core/judge/quality/judgeQualityTypes.ts';
import { fixed, undefinedText } from './agreementFormat.ts';

/** The metric as the report's columns name it. */
const metricNames: Record<JudgeGateCondition['metric'], string> = {
  tau: 'τ',
  tau_ap: 'τ_ap',
  kappa: 'κ',
  accuracy: 'accuracy',
  ece: 'ECE',
};

/** `tau >= 0.9` as the study file says it: the condition a reader can find in their `accept when …`. */
export function conditionText(condition: JudgeGateCondition): string {
  return `${condition.metric} ${condition.operator} ${condition.value}`;
}

/** "τ = 0.867 (needs tau >= 0.9)", "κ undefined: … (needs kappa >= 0.6)". */
export function gateCheckText(check: GateCheck): string {
  const name = metricNames[check.condition.metric];
  const value =
    check.value === null
      ? `${name} undefined${check.reason ? `: ${check.reason}` : ''}`
      : `${name} = ${fixed(check.value)}`;
  return `${value} (needs ${conditionText(check.condition)})`;
}

/** The gate in one line: "Gate passed: …", "Gate failed: …", or that the judge block declares none. */
export function gateText(gate: JudgeGateVerdict): string {
  if (!gate.declared) return 'No gate declared';
  if (gate.passed) return `Gate passed: ${gate.checks.map((c) => conditionText(c.condition)).join(' and ')}`;
  const failed = gate.checks.filter((c) => !c.passed);
  return `Gate failed: ${gate.failure ?? failed.map(gateCheckText).join('; ')}`;
}

/** A quality value: the number to 3 decimals, or "—: why" (never NaN). */
export function qualityText(value: QualityValue, digits = 3): string {
  if (value.value === null) return `${undefinedText}: ${value.reason ?? 'undefined'}`;
  return fixed(value.value, digits);
}

/** USD per 1,000 pairs: cents matter at this scale, so two decimals, four under a dollar. */
export function costPer1000Text(value: QualityValue): string {
  if (value.value === null) return `${undefinedText}: ${value.reason ?? 'no priced calls'}`;
  return `$${value.value < 1 ? value.value.toFixed(4) : value.value.toFixed(2)} per 1,000 pairs`;
}
