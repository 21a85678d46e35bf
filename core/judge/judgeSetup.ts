// What a judge run needs settled before anything is sent, shared by the online run (judgeStudy.ts) and the Batch API
// run (batch/): which judge, its annotator name, and the checks that refuse a run that cannot work (no scale, a
// prompt asking for conditions the study has none of, a broken template, votes or concurrency that are not whole).
import type { JudgeModel, StudyModel } from '../dsl/model.ts';
import type { JudgeOutputShape } from './judgeOutput.ts';
import { type PromptTemplate, type PromptValues, templateProblems } from './promptTemplate.ts';

/** A judge that cannot run as asked (none declared, an unknown name, a study it cannot judge): nothing was sent. */
export class JudgeSetupError extends Error {
  override name = 'JudgeSetupError';
}

/** `llm:<model>@<first 8 hex of the prompt template hash>`. */
export function judgeAnnotatorName(model: string, promptTemplateHash: string): string {
  return `llm:${model}@${promptTemplateHash.slice(0, 8)}`;
}

/** The judge `wanted` names (model name or 1-based place), or the study's only judge; an error saying which exist. */
export function selectJudge(study: StudyModel, wanted?: string): JudgeModel {
  const judges = study.judges;
  if (judges.length === 0) {
    throw new JudgeSetupError(
      `study '${study.name}' declares no judge: add one to it, such as judge "gpt-4.1-mini" { endpoint "https://api.openai.com/v1" }`,
    );
  }
  const listed = judges.map((j, i) => `${i + 1}. ${j.model}`).join(', ');
  if (wanted === undefined) {
    if (judges.length === 1) return judges[0]!;
    throw new JudgeSetupError(`study '${study.name}' has ${judges.length} judges (${listed}): name the one to run`);
  }
  const byModel = judges.find((j) => j.model === wanted);
  if (byModel) return byModel;
  if (/^\d+$/.test(wanted) && Number(wanted) >= 1 && Number(wanted) <= judges.length)
    return judges[Number(wanted) - 1]!;
  throw new JudgeSetupError(`study '${study.name}' has no judge '${wanted}' (its judges: ${listed})`);
}

/** The prompt a judge runs with, and what it asks the model for: a label, or one true/false per condition. */
export type JudgeRunPrompt = PromptTemplate & { output: 'label' | 'conditions' };

/** A judge run's settled choices. */
export interface JudgeSetup {
  judge: JudgeModel;
  output: 'label' | 'conditions';
  votesPerPair: number;
  scaleValues: number[];
  scaleForPrompt: PromptValues['scale'];
  /** What an answer of a pair is checked against. */
  shapeOf(conditions: readonly string[]): JudgeOutputShape;
}

/** The judge to run and its settled choices; a JudgeSetupError (nothing sent) when it cannot run as asked. */
export function judgeSetup(
  study: StudyModel,
  options: { judge?: string; prompt: JudgeRunPrompt; limit?: number },
): JudgeSetup {
  const judge = selectJudge(study, options.judge);
  const scale = study.scale?.entries ?? [];
  if (scale.length === 0) {
    throw new JudgeSetupError(`study '${study.name}' declares no scale: a judge needs one to label on`);
  }
  const output = options.prompt.output;
  if (output === 'conditions' && study.conditionsFrom === undefined) {
    throw new JudgeSetupError(
      `prompt ${options.prompt.name} asks for conditions, but study '${study.name}' has none (add \`conditions from FIELD\`)`,
    );
  }
  const [problem] = templateProblems(options.prompt.text);
  if (problem)
    throw new JudgeSetupError(`${options.prompt.name}:${problem.line}:${problem.column}: ${problem.message}`);
  const votesPerPair = judge.votes ?? 1;
  if (!Number.isInteger(votesPerPair) || votesPerPair < 1) {
    throw new JudgeSetupError(`expected the judge's votes to be a whole number ≥ 1, found ${votesPerPair}`);
  }
  if (options.limit !== undefined && (!Number.isInteger(options.limit) || options.limit < 0)) {
    throw new JudgeSetupError(`expected the limit to be a whole number ≥ 0, found ${options.limit}`);
  }
  const scaleValues = scale.map((entry) => entry.value);
  return {
    judge,
    output,
    votesPerPair,
    scaleValues,
    scaleForPrompt: scale.map((entry) => ({
      value: entry.value,
      label: entry.label,
      ...(entry.description !== undefined && { description: entry.description }),
    })),
    shapeOf: (conditions) => (output === 'conditions' ? { conditions: conditions.length } : { scale: scaleValues }),
  };
}
