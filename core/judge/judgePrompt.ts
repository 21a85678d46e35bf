// The prompt a study's judge runs with: its `prompt` file (checked: an unknown {{variable}} is an error at its line
// and column), or the default that fits the study (defaultPrompts.ts); and what the prompt asks the model for — one
// label, or one yes/no per condition when the study derives its label from conditions. Shared by
// `qrels-studio judge` and the extension's "Run LLM judge".
import { readFile } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import type { JudgeModel, StudyModel } from '../dsl/model.ts';
import {
  type CorpusKind,
  type DefaultPromptName,
  defaultPromptFor,
  defaultPrompts,
  defaultPromptTemplate,
} from './defaultPrompts.ts';
import { JudgeSetupError } from './judgeStudy.ts';
import { type PromptTemplate, promptTemplate, templateProblems } from './promptTemplate.ts';

export type JudgePrompt = PromptTemplate & { output: 'label' | 'conditions' };

/**
 * Loads the judge's prompt; paths in messages are shown relative to `shownFrom` (the CLI's working directory, the
 * workspace folder). `corpus`: what the study's stored documents are (core/store/corpusKind.ts), for the default
 * when the declaration leaves it open. Throws JudgeSetupError with every problem of the file, positioned.
 */
export async function loadJudgePrompt(
  study: StudyModel,
  judge: JudgeModel,
  folder: string,
  shownFrom: string = folder,
  corpus?: CorpusKind,
): Promise<JudgePrompt> {
  const fitting = defaultPromptFor(study, corpus);
  const output = defaultPrompts[fitting].output;
  if (output !== 'label' && output !== 'conditions') {
    throw new JudgeSetupError(`study '${study.name}' cannot be judged this way (its prompt would rate a ${output})`);
  }
  return { ...(await promptOfJudge(judge, fitting, folder, shownFrom)), output };
}

/** The judge's `prompt` file, checked (every problem positioned), or the shipped default `fallback`. */
export async function promptOfJudge(
  judge: JudgeModel,
  fallback: DefaultPromptName,
  folder: string,
  shownFrom: string = folder,
): Promise<PromptTemplate> {
  if (judge.prompt === undefined) return defaultPromptTemplate(fallback);
  const path = judge.prompt.absolutePath ?? resolve(folder, judge.prompt.path);
  const shown = relative(shownFrom, path) || path;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new JudgeSetupError(`cannot read the prompt template ${shown} of judge '${judge.model}': ${why}`);
  }
  const problems = templateProblems(text);
  if (problems.length > 0) {
    throw new JudgeSetupError(problems.map((p) => `${shown}:${p.line}:${p.column}: ${p.message}`).join('\n'));
  }
  return promptTemplate(shown, text);
}
