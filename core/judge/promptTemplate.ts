// Judge prompts are Markdown files in the workspace with `{{variables}}`, so a team can read, diff and tune the
// exact words the model sees. A fixed set of variable names (no expressions, no loops) keeps a template readable
// and lets a typo be reported at its line and column instead of silently rendering an empty hole. The hash of the
// template text goes into the judge's cache key and its records: a changed prompt is a different judge.
import { createHash } from 'node:crypto';
import { closestWords } from '../dsl/editDistance.ts';
import { offsetToLineColumn } from '../dsl/textPosition.ts';

export const promptVariableNames = ['query', 'instruction', 'document', 'title', 'conditions', 'scale'] as const;
export type PromptVariableName = (typeof promptVariableNames)[number];

export interface PromptTemplate {
  name: string;
  text: string;
  /** sha256 hex of text */
  hash: string;
}

/** What a template is rendered with for one (query, document) pair. */
export interface PromptValues {
  query: string;
  instruction?: string;
  document: string;
  title?: string;
  /** The query's conditions in order; rendered as a numbered list ("1. …"). */
  conditions?: string[];
  /** The study's scale; rendered one grade per line, highest first. */
  scale: { value: number; label: string; description?: string }[];
}

/** A template that cannot be rendered, with the 1-based position of the offending text. */
export class PromptTemplateError extends Error {
  /** 1-based */
  readonly line: number;
  /** 1-based, in characters (code points) like the study file diagnostics */
  readonly column: number;
  constructor(message: string, line: number, column: number) {
    super(message);
    this.name = 'PromptTemplateError';
    this.line = line;
    this.column = column;
  }
}

/** A template from its file name and text, with the hash filled in. */
export function promptTemplate(name: string, text: string): PromptTemplate {
  return { name, text, hash: sha256(text) };
}

export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

// `{{ name }}`: whatever sits between the braces on one line, trimmed, is the name (checked when rendering).
const variablePattern = /\{\{([^{}\n]*)\}\}/g;

/** The {{name}} uses in a template with positions (whitespace inside braces allowed: {{ query }}). */
export function templateVariables(text: string): { name: string; line: number; column: number }[] {
  return [...text.matchAll(variablePattern)].map((match) => ({
    name: match[1]!.trim(),
    ...offsetToLineColumn(text, match.index),
  }));
}

/**
 * Everything that stops a template from rendering, in text order: unknown variables and `{{` left unclosed on its
 * line. Empty when the template is sound; a checker can report them all at once where renderPrompt stops at the first.
 */
export function templateProblems(text: string): PromptTemplateError[] {
  const problems: { offset: number; message: string }[] = [];
  for (const match of text.matchAll(variablePattern)) {
    const name = match[1]!.trim();
    if (!isVariableName(name)) problems.push({ offset: match.index, message: unknownVariableMessage(name) });
  }
  // An opening `{{` that no `}}` closes on the same line is a typo ({{query}, {{ query) that would otherwise reach
  // the model verbatim. Masking the sound uses first leaves only the stray openings.
  const masked = text.replace(variablePattern, (whole) => ' '.repeat(whole.length));
  for (let at = masked.indexOf('{{'); at !== -1; at = masked.indexOf('{{', at + 2)) {
    problems.push({
      offset: at,
      message: 'unclosed {{: expected a variable such as {{query}} closed by }} on the same line',
    });
  }
  return problems
    .sort((a, b) => a.offset - b.offset)
    .map((p) => {
      const { line, column } = offsetToLineColumn(text, p.offset);
      return new PromptTemplateError(p.message, line, column);
    });
}

/**
 * Renders; an unknown variable is a PromptTemplateError at its position ("unknown variable {{foo}}: expected one of
 * query, …"). A variable whose value is undefined renders as an empty string. Values are inserted verbatim and never
 * re-scanned, so a document that itself contains `{{…}}` renders as written.
 */
export function renderPrompt(template: PromptTemplate, values: PromptValues): string {
  const [first] = templateProblems(template.text);
  if (first) throw first;
  const rendered: Record<PromptVariableName, string> = {
    query: values.query,
    instruction: values.instruction ?? '',
    document: values.document,
    title: values.title ?? '',
    conditions: renderConditions(values.conditions ?? []),
    scale: renderScale(values.scale),
  };
  return template.text.replace(variablePattern, (_whole, name: string) => rendered[name.trim() as PromptVariableName]);
}

/** How conditions render: "1. …\n2. …". */
export function renderConditions(conditions: readonly string[]): string {
  return conditions.map((condition, i) => `${i + 1}. ${condition}`).join('\n');
}

/** How a scale renders: "2 = Highly relevant: Answers the query directly", one per line, highest first. */
export function renderScale(scale: PromptValues['scale']): string {
  return [...scale]
    .sort((a, b) => b.value - a.value)
    .map((entry) => `${entry.value} = ${entry.label}${entry.description ? `: ${entry.description}` : ''}`)
    .join('\n');
}

function isVariableName(name: string): name is PromptVariableName {
  return (promptVariableNames as readonly string[]).includes(name);
}

function unknownVariableMessage(name: string): string {
  const suggestions = closestWords(name, promptVariableNames);
  const hint = suggestions.length > 0 ? ` (did you mean {{${suggestions[0]}}}?)` : '';
  return `unknown variable {{${name}}}: expected one of ${promptVariableNames.join(', ')}${hint}`;
}
