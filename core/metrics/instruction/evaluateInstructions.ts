// Evaluates a run with the instruction-following measures: one case per id the qrels judge (as trec_eval evaluates
// the qrels' queries: an id the run lacks is an error, or with -c an empty ranking), the values of each case, their
// macro means (over the cases where a measure is defined) overall, per instruction type, per subset and per the
// measure's own groups (k:, j:), and micro averages where a measure has them. Plain data: the CLI prints it, a view
// can show it.
import { FormatError } from '../../formats/formatError.ts';
import { type PairedTest, pairedTests } from '../significance.ts';
import {
  defaultInstructionInfo,
  type GradedQrels,
  type InstructionInfo,
  type ScoredDocument,
  type ScoredRun,
} from './instructionInputs.ts';
import {
  type CaseValues,
  type InstructionCase,
  type InstructionMeasure,
  type InstructionOptions,
  taskSteps,
} from './instructionMeasure.ts';

/** An input that does not fit the others (an instruction without its baseline query, a trap of no instruction). */
export class InstructionInputError extends Error {
  override name = 'InstructionInputError';
}

export interface InstructionInputs {
  run: ScoredRun;
  /** The query-only run (keyed by query id), or the other query style's run (flip_rate; same ids). */
  baseline?: ScoredRun;
  qrels: GradedQrels;
  /** Instruction id → query id, type, subset (default: split at the last `_`). */
  instructions?: Map<string, InstructionInfo>;
  traps?: Map<string, Set<string>>;
  /** Names for messages. */
  files: { qrels?: string; run?: string; baseline?: string; instructions?: string; traps?: string };
  /** Lines where each id is first judged (qrels) and each trap is given (`id\0docid`): errors point there. */
  lines?: { qrels?: Map<string, number>; traps?: Map<string, number> };
  /** -c: an id the qrels judge but the run does not rank is an empty ranking (else an error, as trec_eval's). */
  complete?: boolean;
  /** -M: only the top documents of each ranking (the run's and the baseline's) count. */
  maxRetrieved?: number;
}

export interface Average {
  /** null when no case has a value. */
  value: number | null;
  /** Cases averaged. */
  n: number;
}

export interface CaseResult {
  id: string;
  queryId?: string;
  type?: string;
  subset?: string;
  values: CaseValues;
}

export interface InstructionEvaluation {
  valueNames: string[];
  cases: CaseResult[];
  /** Macro mean over cases, per value name. */
  all: Record<string, Average>;
  /** Micro averages (Σ numerators / Σ denominators) of the measures that have them. */
  micro: Record<string, number | null>;
  /** Macro means per group: `type:C1`, `subset:WQT`, `k:3` (win_rate), `j:5` (adjacent pairs). */
  groups: Record<string, Record<string, Average>>;
  /** What is suspicious but not wrong (a trap the qrels do not label violating), as `file:line:col: warning: …`. */
  warnings: string[];
}

function mean(values: readonly (number | null)[]): Average {
  const defined = values.filter((v): v is number => v !== null);
  return {
    value: defined.length === 0 ? null : defined.reduce((s, v) => s + v, 0) / defined.length,
    n: defined.length,
  };
}

export function evaluateInstructions(
  inputs: InstructionInputs,
  measures: readonly InstructionMeasure[],
  options: InstructionOptions,
): InstructionEvaluation {
  const needsBaseline = measures.filter((m) => m.needsBaseline);
  if (needsBaseline.length > 0 && !inputs.baseline) {
    throw new InstructionInputError(`${needsBaseline.map((m) => m.name).join(', ')} need --baseline RUN_Q`);
  }
  if (measures.some((m) => m.name === 'nfr') && !inputs.traps) {
    throw new InstructionInputError('nfr needs --traps FILE (the trap tables of each instruction)');
  }
  /** An error at `line` of `file` when the line is known, else about the file. */
  const fail = (file: string | undefined, line: number | undefined, message: string): never => {
    if (file !== undefined && line !== undefined) throw new FormatError(file, line, 1, message);
    throw new InstructionInputError(`${file ?? 'input'}: ${message}`);
  };
  const trapLine = (id: string, docid: string) => inputs.lines?.traps?.get(`${id}\u0000${docid}`);
  const warnings: string[] = [];
  for (const [id, traps] of inputs.traps ?? []) {
    const labels = inputs.qrels.get(id);
    const [first] = traps;
    if (!labels)
      fail(inputs.files.traps, trapLine(id, first!), `instruction '${id}' has traps but no judgments in the qrels`);
    // FollowTable's traps are violating tables (T−): a trap the qrels label otherwise is a mistake in one of them.
    for (const docid of traps) {
      const label = labels!.get(docid);
      if (label === 1) continue;
      const line = trapLine(id, docid);
      const at = line === undefined ? `${inputs.files.traps ?? 'traps'}` : `${inputs.files.traps}:${line}:1`;
      warnings.push(
        `${at}: warning: trap '${docid}' of '${id}' is ${label === undefined ? 'not judged' : `labelled ${label}`} ` +
          'in the qrels, not 1 (violating): a trap table is a violating one',
      );
    }
  }
  const depth = inputs.maxRetrieved ?? Number.POSITIVE_INFINITY;
  const top = (ranking: ScoredDocument[]) => (ranking.length > depth ? ranking.slice(0, depth) : ranking);
  const valueNames = measures.flatMap((m) => m.valueNames(options));
  const cases: CaseResult[] = [];
  const microParts: Record<string, [number, number]> = {};
  const groupValues: Record<string, Record<string, (number | null)[]>> = {};
  const addToGroup = (group: string, values: CaseValues) => {
    groupValues[group] ??= {};
    const target = groupValues[group];
    for (const [name, value] of Object.entries(values)) {
      target[name] ??= [];
      target[name].push(value);
    }
  };
  const steps = taskSteps(inputs.qrels.keys());
  for (const [id, labels] of [...inputs.qrels].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const step = steps.get(id);
    // The measures this case is for: a task's earlier steps are not cases of the last-step measures.
    const caseMeasures = measures.filter((m) => !m.lastStepOnly || !step || step.last);
    if (caseMeasures.length === 0) continue;
    const qrelsLine = inputs.lines?.qrels?.get(id);
    const info = inputs.instructions ? inputs.instructions.get(id) : defaultInstructionInfo(id);
    if (inputs.instructions && !info) {
      fail(
        inputs.files.qrels,
        qrelsLine,
        `instruction '${id}' is judged here but has no line in ${inputs.files.instructions} (the instruction map)`,
      );
    }
    let baseline: ScoredDocument[] | undefined;
    if (caseMeasures.some((m) => m.needsBaseline)) {
      baseline = inputs.baseline!.get(id) ?? (info ? inputs.baseline!.get(info.queryId) : undefined);
      if (!baseline) {
        fail(
          inputs.files.qrels,
          qrelsLine,
          `'${id}' is judged here but ${inputs.files.baseline} (--baseline) has no ranking for its query ` +
            `'${info?.queryId ?? id}'`,
        );
      }
    }
    const ranking = inputs.run.get(id);
    if (!ranking && !inputs.complete) {
      fail(
        inputs.files.qrels,
        qrelsLine,
        `'${id}' is judged here but has no results in ${inputs.files.run ?? 'the run'}. Evaluating only what a ` +
          'run answered would inflate its scores (is the run keyed by instruction ids?): add results for it, remove ' +
          'it from the qrels, or pass -c to count it as an empty ranking (as trec_eval -c does).',
      );
    }
    const c: InstructionCase = {
      id,
      ...(info && { info }),
      ranking: top(ranking ?? []),
      ...(baseline && { baseline: top(baseline) }),
      labels,
      ...(inputs.traps && { traps: inputs.traps.get(id) ?? new Set() }),
      ...(step && { step }),
    };
    const values: CaseValues = {};
    for (const measure of caseMeasures) {
      Object.assign(values, measure.compute(c, options));
      for (const [name, [num, den]] of Object.entries(measure.micro?.(c, options) ?? {})) {
        microParts[name] ??= [0, 0];
        microParts[name][0] += num;
        microParts[name][1] += den;
      }
      for (const [group, groupValue] of Object.entries(measure.groups?.(c) ?? {})) addToGroup(group, groupValue);
    }
    if (info?.type) addToGroup(`type:${info.type}`, values);
    if (info?.subset) addToGroup(`subset:${info.subset}`, values);
    cases.push({
      id,
      ...(info && info.queryId !== id && { queryId: info.queryId }),
      ...(info?.type && { type: info.type }),
      ...(info?.subset && { subset: info.subset }),
      values,
    });
  }
  const all: Record<string, Average> = {};
  for (const name of valueNames) all[name] = mean(cases.map((c) => c.values[name] ?? null));
  const micro: Record<string, number | null> = {};
  for (const [name, [num, den]] of Object.entries(microParts)) micro[name] = den === 0 ? null : num / den;
  const groups: Record<string, Record<string, Average>> = {};
  for (const group of Object.keys(groupValues).sort()) {
    groups[group] = {};
    for (const [name, values] of Object.entries(groupValues[group]!)) groups[group][name] = mean(values);
  }
  return { valueNames, cases, all, micro, groups, warnings };
}

/** Per value name, the paired tests of b against a over the cases where both have a value. */
export function compareEvaluations(
  a: InstructionEvaluation,
  b: InstructionEvaluation,
  options: { samples?: number; seed?: number } = {},
): Record<string, PairedTest> {
  const byId = new Map(b.cases.map((c) => [c.id, c]));
  const result: Record<string, PairedTest> = {};
  for (const name of a.valueNames) {
    const left: number[] = [];
    const right: number[] = [];
    for (const c of a.cases) {
      const x = c.values[name];
      const y = byId.get(c.id)?.values[name];
      if (x == null || y == null) continue;
      left.push(x);
      right.push(y);
    }
    result[name] = pairedTests(left, right, options);
  }
  return result;
}
