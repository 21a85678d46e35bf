// A study's gate on its judges (`judge "m" { … accept when tau >= 0.9 and kappa >= 0.6 }`, JudgeModel.accept): a
// judge passes when every condition holds on its quality report; an undefined value (no people's labels to check
// against, one run to rank…) fails its condition. Only a judge that passes may fill the pairs no person labelled in
// a `from human-else-llm` export (humanElseLlmGate); a study that declares no gate exports as before.
import type { JudgeGateCondition, JudgeModel, StudyModel } from '../../dsl/model.ts';
import type { GateCheck, JudgeGateVerdict, JudgeQuality } from './judgeQualityTypes.ts';
import { judgeGateMetrics } from './registry.ts';

/** The study's judge block an annotator name (llm:<model>@<prompt hash 8>, or llm:<model>) belongs to. */
export function judgeModelOf(study: StudyModel, annotator: string): JudgeModel | undefined {
  return study.judges.find((j) => annotator === `llm:${j.model}` || annotator.startsWith(`llm:${j.model}@`));
}

/**
 * Whether `value` meets the condition. A value within 1e-9 of the threshold counts as equal to it: κ = 0.2 computed
 * as 0.19999999999999996 meets `kappa >= 0.2` (floating-point rounding, not a real difference).
 */
function holds(value: number, c: JudgeGateCondition): boolean {
  const difference = Math.abs(value - c.value) <= 1e-9 ? 0 : value - c.value;
  return c.operator === '>='
    ? difference >= 0
    : c.operator === '>'
      ? difference > 0
      : c.operator === '<='
        ? difference <= 0
        : difference < 0;
}

/** The opposite of an operator, as a failed check shows it (`0.71 < 0.9`). */
const failedOperator = { '>=': '<', '>': '<=', '<=': '>', '<': '>=' } as const;

const shown = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(3).replace(/0+$/, ''));

/** The condition as the study file writes it. */
export function conditionText(c: JudgeGateCondition): string {
  return `${c.metric} ${c.operator} ${c.value}`;
}

/** `quality` checked against `conditions` (none or absent: no gate, which passes). */
export function judgeGate(
  quality: Omit<JudgeQuality, 'gate'>,
  conditions: readonly JudgeGateCondition[] | undefined,
): JudgeGateVerdict {
  if (conditions === undefined || conditions.length === 0) return { declared: false, passed: true, checks: [] };
  const checks: GateCheck[] = conditions.map((condition) => {
    const { value, reason } = judgeGateMetrics[condition.metric].read(quality as JudgeQuality);
    return {
      condition,
      value,
      passed: value !== null && holds(value, condition),
      ...(value === null && { reason: reason ?? 'undefined' }),
    };
  });
  const failed = checks.filter((c) => !c.passed);
  if (failed.length === 0) return { declared: true, passed: true, checks };
  const why = failed
    .map((c) =>
      c.value === null
        ? `${c.condition.metric} is undefined (${c.reason}), so \`${conditionText(c.condition)}\` cannot hold`
        : `${c.condition.metric} ${shown(c.value)} ${failedOperator[c.condition.operator]} ${shown(c.condition.value)} ` +
          `(the gate needs ${conditionText(c.condition)})`,
    )
    .join('; ');
  return { declared: true, passed: false, checks, failure: `judge ${quality.judge} fails its gate: ${why}` };
}

/** Thrown when a `from human-else-llm` export would let a judge that has not passed its gate fill pairs. */
export class JudgeGateRefusal extends Error {}

/**
 * Refuses a `from human-else-llm` export when the judge that would fill the pairs no person labelled has a gate
 * and does not pass it — unless it is named in `accepted` (`--accept-judge NAME`: the user takes it anyway). The
 * verdicts are the report's for the study's LLM label sources; a source no judge block declares a gate for (LLM
 * labels imported `kind llm`, a judge without `accept when`) exports as before.
 */
export function checkHumanElseLlmGate(
  judges: readonly Pick<JudgeQuality, 'judge' | 'gate'>[],
  accepted: readonly string[] = [],
): void {
  for (const { judge, gate } of judges) {
    if (gate.passed) continue;
    const named = accepted.some((a) => a === judge || `llm:${a}` === judge || judge.startsWith(`llm:${a}@`));
    if (named) continue;
    throw new JudgeGateRefusal(
      `export from human-else-llm refused: ${gate.failure}. Only a judge that passes the study's ` +
        '`accept when …` gate may fill the pairs no person labelled; check it with `qrels-studio judges`, or take it ' +
        `anyway with --accept-judge ${judge}`,
    );
  }
}
