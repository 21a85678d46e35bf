// What the judge model must answer, and reading what it did answer. The schema goes to endpoints that enforce
// structured output (OpenAI, vLLM); the parser also has to read endpoints and models that ignore it (small local
// models wrap JSON in prose or a code fence, or just write "Label: 2"). Its one rule: a verdict is read, never
// guessed. A label off the scale, a wrong number of conditions or a rubric level nobody defined is a recorded parse
// failure with a sentence saying why — turning it into the nearest label would put the judge's noise in the qrels.
import { evaluateDerive } from '../dsl/evaluateDerive.ts';
import type { StudyModel } from '../dsl/model.ts';

export type JudgeOutputKind = 'label' | 'conditions' | 'rubric';

/** What the answer is checked against: the scale's values, the number of conditions, the review's rubric. */
export interface JudgeOutputShape {
  scale?: number[];
  conditions?: number;
  rubric?: { dimensions: string[]; levels: string[] };
}

export type ParsedJudgeOutput =
  | {
      ok: true;
      label?: number;
      conditions?: boolean[];
      scores?: Record<string, string>;
      rationale?: string;
      via: 'json' | 'fallback';
    }
  | { ok: false; error: string };

/**
 * JSON schema for response_format (OpenAI json_schema, strict): rationale FIRST, verdict LAST, so the model reasons
 * before it commits. Strict mode wants every property required and no additional properties.
 */
export function judgeOutputSchema(
  kind: JudgeOutputKind,
  shape: JudgeOutputShape,
): { name: string; schema: Record<string, unknown>; strict: true } {
  const rationale = { type: 'string', description: 'Your reasoning, written before the verdict.' };
  const object = (name: string, verdictKey: string, verdict: Record<string, unknown>) => ({
    name,
    schema: {
      type: 'object',
      properties: { rationale, [verdictKey]: verdict },
      required: ['rationale', verdictKey],
      additionalProperties: false,
    },
    strict: true as const,
  });
  switch (kind) {
    case 'label': {
      const scale = requireScale(shape);
      return object('judge_label', 'label', {
        type: 'integer',
        enum: [...scale].sort((a, b) => a - b),
        description: 'The grade on the scale.',
      });
    }
    case 'conditions': {
      const count = requireConditionCount(shape);
      return object('judge_conditions', 'conditions', {
        type: 'array',
        items: { type: 'boolean' },
        minItems: count,
        maxItems: count,
        description: `One entry per condition, in order: true when the document satisfies it (${count} entries).`,
      });
    }
    case 'rubric': {
      const rubric = requireRubric(shape);
      const level = { type: 'string', enum: rubric.levels };
      return object('judge_rubric', 'scores', {
        type: 'object',
        properties: Object.fromEntries(rubric.dimensions.map((d) => [d, level])),
        required: rubric.dimensions,
        additionalProperties: false,
        description: 'One level per rubric dimension.',
      });
    }
  }
}

/**
 * JSON first (the whole text, then a ```json fence, then the first balanced {…} object in the text); then a tolerant
 * fallback for labels ("Label: 2", "grade = 1", "**Final answer: 0**" — the LAST such statement wins; a bare final
 * integer on its own last line). A label not on the scale, a wrong number of conditions, an unknown level: ok false,
 * never a guessed label.
 */
export function parseJudgeOutput(answer: string, kind: JudgeOutputKind, shape: JudgeOutputShape): ParsedJudgeOutput {
  const reader = readers[kind](shape);
  // Reasoning models (DeepSeek-R1, Qwen3 through vLLM or Ollama) think aloud in <think>…</think> first; drafts and
  // "label: 1?" musings in there are not the answer.
  const text = answer.replace(/<think>[\s\S]*?<\/think>/gi, '');
  if (text.trim() === '') return { ok: false, error: `Expected ${reader.expected}, found an empty answer.` };
  for (const candidate of jsonCandidates(text)) {
    const value = parseJsonObject(candidate);
    // An object without the verdict key (a stray `{…}` in the prose) is not the answer; keep looking.
    if (value === undefined || !reader.hasVerdict(value)) continue;
    return reader.fromJson(value);
  }
  if (kind === 'label') {
    const statement = lastLabelStatement(text);
    if (statement !== undefined) {
      const scale = requireScale(shape);
      const label = Number(statement);
      if (!scale.includes(label)) return { ok: false, error: offScale(scale, statement) };
      return { ok: true, label, via: 'fallback' };
    }
  }
  return { ok: false, error: `Expected ${reader.expected}, found none in "${excerpt(text)}".` };
}

/**
 * For 'conditions' outputs the label is the study's derive rule over the conditions (the judge answers no aspects,
 * so every aspect counts as unanswered, i.e. false); without a derive rule: all satisfied → the highest scale value,
 * else the lowest.
 */
export function labelFromConditions(study: StudyModel, conditions: boolean[]): number {
  if (study.derive) return evaluateDerive(study.derive, { aspects: {}, conditions });
  const values = (study.scale?.entries ?? []).map((e) => e.value);
  if (values.length === 0)
    throw new Error(
      `Study "${study.name}" has neither a derive rule nor a scale, so judged conditions cannot become a label.`,
    );
  return conditions.every(Boolean) ? Math.max(...values) : Math.min(...values);
}

interface OutputReader {
  /** "a JSON object with …", for error sentences. */
  expected: string;
  hasVerdict(value: Record<string, unknown>): boolean;
  fromJson(value: Record<string, unknown>): ParsedJudgeOutput;
}

// Keys a model that ignores the schema uses instead of ours; the schema's own key comes first.
const labelKeys = ['label', 'grade', 'relevance', 'score', 'judgment', 'judgement'];
const rationaleKeys = ['rationale', 'reasoning', 'explanation', 'reason'];

const readers: Record<JudgeOutputKind, (shape: JudgeOutputShape) => OutputReader> = {
  label: (shape) => {
    const scale = requireScale(shape);
    const key = (value: Record<string, unknown>) => labelKeys.find((k) => k in value);
    return {
      expected: `a JSON object with a "label" (one of ${listed(scale)}) or a statement such as "Label: ${Math.max(...scale)}"`,
      hasVerdict: (value) => key(value) !== undefined,
      fromJson: (value) => {
        const raw = value[key(value)!];
        const label = typeof raw === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(raw) ? Number(raw) : raw;
        if (typeof label !== 'number' || !scale.includes(label))
          return { ok: false, error: offScale(scale, JSON.stringify(raw)) };
        return { ok: true, label, ...rationaleOf(value), via: 'json' };
      },
    };
  },
  conditions: (shape) => {
    const count = requireConditionCount(shape);
    return {
      expected: `a JSON object with "conditions", a list of ${count} true/false values`,
      hasVerdict: (value) => 'conditions' in value,
      fromJson: (value) => {
        const raw = value.conditions;
        if (!Array.isArray(raw))
          return {
            ok: false,
            error: `Expected "conditions" to be a list of ${count} true/false values, found ${JSON.stringify(raw)}.`,
          };
        if (raw.length !== count)
          return { ok: false, error: `Expected ${count} conditions, found ${raw.length}: ${JSON.stringify(raw)}.` };
        const conditions: boolean[] = [];
        for (const [i, item] of raw.entries()) {
          const satisfied = asBoolean(item);
          if (satisfied === undefined)
            return {
              ok: false,
              error: `Expected condition ${i + 1} to be true or false, found ${JSON.stringify(item)}.`,
            };
          conditions.push(satisfied);
        }
        return { ok: true, conditions, ...rationaleOf(value), via: 'json' };
      },
    };
  },
  rubric: (shape) => {
    const { dimensions, levels } = requireRubric(shape);
    return {
      expected: `a JSON object with "scores", one of ${levels.join(', ')} for each of ${dimensions.join(', ')}`,
      hasVerdict: (value) => 'scores' in value,
      fromJson: (value) => {
        const raw = value.scores;
        if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
          return {
            ok: false,
            error: `Expected "scores" to map each rubric dimension to a level, found ${JSON.stringify(raw)}.`,
          };
        const given = raw as Record<string, unknown>;
        const scores: Record<string, string> = {};
        for (const dimension of dimensions) {
          if (!(dimension in given))
            return { ok: false, error: `Expected a level for "${dimension}", found none in ${JSON.stringify(raw)}.` };
          const answer = given[dimension];
          // Levels are matched ignoring case ("Excellent" is excellent) and recorded as the rubric spells them.
          const level =
            typeof answer === 'string'
              ? levels.find((l) => l.toLowerCase() === answer.trim().toLowerCase())
              : undefined;
          if (level === undefined)
            return {
              ok: false,
              error: `Expected one of ${levels.join(', ')} for "${dimension}", found ${JSON.stringify(answer)}.`,
            };
          scores[dimension] = level;
        }
        return { ok: true, scores, ...rationaleOf(value), via: 'json' };
      },
    };
  },
};

/** The places an answer's JSON may be, most deliberate first: the whole text, fenced blocks, balanced objects. */
function* jsonCandidates(text: string): Generator<string> {
  yield text.trim();
  for (const fence of text.matchAll(/```[ \t]*(?:json|JSON)?[ \t]*\n([\s\S]*?)```/g)) yield fence[1]!.trim();
  for (let start = text.indexOf('{'); start !== -1; start = text.indexOf('{', start + 1)) {
    const end = balancedObjectEnd(text, start);
    if (end !== undefined) yield text.slice(start, end);
  }
}

/** The end (exclusive) of the `{…}` opening at `start`, braces inside JSON strings ignored; undefined if unclosed. */
function balancedObjectEnd(text: string, start: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i + 1;
  }
  return undefined;
}

function parseJsonObject(candidate: string): Record<string, unknown> | undefined {
  if (!candidate.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(candidate);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

// "Label: 2", "grade = 1", "**Final answer: 0**", "relevance score is 2", "I would give it a grade of 1",
// `"label": 2` in JSON too broken to parse. A separator is required, so "label 0 means not relevant" is no verdict.
const labelStatement =
  /\b(?:final\s+(?:answer|label|grade|score|verdict)|label|grade|relevance(?:\s+(?:score|grade|label))?|score|rating|verdict)\b["'*]*\s*(?:[:=]|\bis\b|\bof\b)\s*[*"'`]*\s*(-?\d+(?:\.\d+)?)(?![\d.]*\d)/gi;
// A lone number on the answer's last non-empty line ("2", "**2**", "2.").
const bareFinalNumber = /(?:^|\n)[ \t]*[*_`]*(-?\d+)[*_`]*\.?[ \t]*\s*$/;

/** The verdict the text states last, as written (a number string), or undefined when it states none. */
function lastLabelStatement(text: string): string | undefined {
  let found: { at: number; value: string } | undefined;
  for (const match of text.matchAll(labelStatement)) found = { at: match.index, value: match[1]! };
  const bare = bareFinalNumber.exec(text);
  if (bare && (found === undefined || bare.index > found.at)) found = { at: bare.index, value: bare[1]! };
  return found?.value;
}

function asBoolean(item: unknown): boolean | undefined {
  if (typeof item === 'boolean') return item;
  // [{ "condition": 1, "satisfied": true }, …] from a model that restates each condition.
  if (typeof item === 'object' && item !== null && 'satisfied' in item) return asBoolean(item.satisfied);
  if (item === 1 || item === 0) return item === 1;
  if (typeof item === 'string') {
    const word = item.trim().toLowerCase();
    if (['true', 'yes', 'satisfied'].includes(word)) return true;
    if (['false', 'no', 'not satisfied'].includes(word)) return false;
  }
  return undefined;
}

function rationaleOf(value: Record<string, unknown>): { rationale?: string } {
  const key = rationaleKeys.find((k) => typeof value[k] === 'string');
  return key ? { rationale: value[key] as string } : {};
}

function offScale(scale: readonly number[], found: string): string {
  return `Expected a label on the scale (${listed(scale)}), found ${found}.`;
}

function listed(scale: readonly number[]): string {
  return [...scale].sort((a, b) => a - b).join(', ');
}

function excerpt(text: string): string {
  const flat = text.trim().replace(/\s+/g, ' ');
  return flat.length > 120 ? `${flat.slice(0, 117)}…` : flat;
}

function requireScale(shape: JudgeOutputShape): number[] {
  if (!shape.scale || shape.scale.length === 0)
    throw new Error('A label output needs the scale: give the study scale values (shape.scale).');
  return shape.scale;
}

function requireConditionCount(shape: JudgeOutputShape): number {
  const count = shape.conditions;
  if (count === undefined || !Number.isInteger(count) || count < 1)
    throw new Error(`A conditions output needs the number of the query's conditions (at least 1), got ${count}.`);
  return count;
}

function requireRubric(shape: JudgeOutputShape): { dimensions: string[]; levels: string[] } {
  const rubric = shape.rubric;
  if (!rubric || rubric.dimensions.length === 0 || rubric.levels.length === 0)
    throw new Error('A rubric output needs the rubric: its dimensions and levels (shape.rubric).');
  return rubric;
}
