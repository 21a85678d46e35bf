// One vote of a judge on a pair, as the online run (judgeStudy.ts) and the Batch API run (batch/) both ask and read
// it: the rendered prompt, the parameters sent (so both give the same cache key, judgeCallStore.ts judgeCacheKey),
// the chat request, reading the answer (a label on the scale or a parse failure, never a guess), and the pair's
// suggestion from its votes (the majority, votes.ts).
import type { StudyModel } from '../dsl/model.ts';
import type { DocumentToJudge } from '../store/port/judgePort.ts';
import type { StudyStore } from '../store/studyStore.ts';
import type { ChatRequest } from './chatClient.ts';
import { type CallRequest, canonicalJson, type NewSuggestion, type SuggestionVote } from './judgeCallStore.ts';
import { type JudgeOutputShape, judgeOutputSchema, labelFromConditions, parseJudgeOutput } from './judgeOutput.ts';
import type { JudgePair } from './judgePairs.ts';
import type { JudgeRunPrompt, JudgeSetup } from './judgeSetup.ts';
import { promptDocument } from './promptDocument.ts';
import { type PromptValues, renderPrompt, sha256 } from './promptTemplate.ts';
import { summariseVotes } from './votes.ts';

export interface RenderedPrompt {
  prompt: string;
  /** sha256 of the prompt. */
  promptHash: string;
  shape: JudgeOutputShape;
}

/** The pair's prompt, rendered from its query and its document as the store has it now. */
export async function renderPairPrompt(
  store: StudyStore,
  study: StudyModel,
  studyId: number,
  setup: JudgeSetup,
  prompt: JudgeRunPrompt,
  pair: JudgePair,
): Promise<RenderedPrompt> {
  const row = await store.judge.documentToJudge(studyId, pair.docid);
  if (row === undefined) throw new Error(`the corpus has no document '${pair.docid}' any more`);
  return renderPromptOf(row, study, setup, prompt, pair);
}

/** The pair's prompt from its document's row (a page of pairs reads its documents at once: judgeStudy.ts). */
export function renderPromptOf(
  row: DocumentToJudge,
  study: StudyModel,
  setup: JudgeSetup,
  prompt: JudgeRunPrompt,
  pair: JudgePair,
): RenderedPrompt {
  const values: PromptValues = {
    query: pair.query.text,
    ...(pair.query.instruction !== undefined && { instruction: pair.query.instruction }),
    // Tables as Markdown with their context, whatever they are stored as; other documents as stored.
    document: promptDocument(row, study.corpus?.fields),
    ...(row.title !== null && { title: row.title }),
    conditions: pair.query.conditions,
    scale: setup.scaleForPrompt,
  };
  const text = renderPrompt(prompt, values);
  return { prompt: text, promptHash: sha256(text), shape: setup.shapeOf(pair.query.conditions) };
}

/** What vote `voteIndex` of a pair of one shape is asked with (the same for every such pair). */
export interface VoteParameters {
  responseFormat: NonNullable<ChatRequest['responseFormat']>;
  seed?: number;
  /** canonicalJson of what is sent: temperature, max_tokens, seed, response_format. */
  json: string;
}

/** The parameters of each (shape, vote index), built once per run. */
export function voteParametersOf(setup: JudgeSetup): (shape: JudgeOutputShape, voteIndex: number) => VoteParameters {
  const { judge, output } = setup;
  const known = new Map<string, VoteParameters>();
  return (shape, voteIndex) => {
    const key = `${voteIndex}/${shape.conditions ?? ''}`;
    let parameters = known.get(key);
    if (parameters === undefined) {
      const responseFormat = { type: 'json_schema' as const, json_schema: judgeOutputSchema(output, shape) };
      // Votes of one judge with a seed are distinct samples, each reproducible: vote i is asked with seed + i.
      const seed = judge.seed !== undefined ? judge.seed + voteIndex : undefined;
      const sent = {
        ...(judge.temperature !== undefined && { temperature: judge.temperature }),
        ...(judge.maxTokens !== undefined && { max_tokens: judge.maxTokens }),
        ...(seed !== undefined && { seed }),
        response_format: responseFormat,
      };
      parameters = { responseFormat, ...(seed !== undefined && { seed }), json: canonicalJson(sent) };
      known.set(key, parameters);
    }
    return parameters;
  };
}

/** The cache key's inputs of a vote. */
export function voteCallRequest(
  setup: JudgeSetup,
  endpoint: string,
  parameters: VoteParameters,
  promptHash: string,
  voteIndex: number,
): CallRequest {
  return { endpoint, model: setup.judge.model, parameters: parameters.json, promptHash, voteIndex };
}

/** The chat request of a vote (chatClient.ts sends it as the body a batch line carries, batch/batchLines.ts). */
export function voteChatRequest(setup: JudgeSetup, prompt: string, parameters: VoteParameters): ChatRequest {
  const { judge } = setup;
  return {
    model: judge.model,
    messages: [{ role: 'user', content: prompt }],
    ...(judge.temperature !== undefined && { temperature: judge.temperature }),
    ...(judge.maxTokens !== undefined && { maxTokens: judge.maxTokens }),
    ...(parameters.seed !== undefined && { seed: parameters.seed }),
    responseFormat: parameters.responseFormat,
  };
}

export type Interpretation =
  | { ok: true; label: number; conditions?: boolean[]; rationale?: string }
  | { ok: false; error: string };

/** What an answer says: a label on the study's scale (derived from conditions when asked for them), or why not. */
export function interpretAnswer(
  study: StudyModel,
  setup: JudgeSetup,
  text: string,
  shape: JudgeOutputShape,
): Interpretation {
  const parsed = parseJudgeOutput(text, setup.output, shape);
  if (!parsed.ok) return parsed;
  const rationale = parsed.rationale !== undefined ? { rationale: parsed.rationale } : {};
  if (setup.output === 'conditions') {
    const conditions = parsed.conditions ?? [];
    const label = labelFromConditions(study, conditions);
    if (!setup.scaleValues.includes(label)) {
      return {
        ok: false,
        error: `the study's derive rule made ${label} of the answers ${JSON.stringify(conditions)}, not a value of its scale (${setup.scaleValues.join(', ')})`,
      };
    }
    return { ok: true, label, conditions, ...rationale };
  }
  return { ok: true, label: parsed.label!, ...rationale };
}

/** The fields of a recorded call that say what its answer was read as. */
export function readingFields(
  reading: Interpretation,
):
  | { parsedLabel: number; parsedConditions?: boolean[]; rationale?: string }
  | { failure: { kind: 'parse'; message: string } } {
  return reading.ok
    ? {
        parsedLabel: reading.label,
        ...(reading.conditions !== undefined && { parsedConditions: reading.conditions }),
        ...(reading.rationale !== undefined && { rationale: reading.rationale }),
      }
    : { failure: { kind: 'parse' as const, message: reading.error } };
}

/** A vote as a suggestion counts it: answered (parsed or not) or not. */
export interface PairVote {
  callId: number | null;
  answered: boolean;
  /** null: did not parse. */
  label: number | null;
  rationale?: string;
}

/** The pair's suggestion from the votes in (by vote index); undefined when none was answered. */
export function pairSuggestion(
  pairId: number,
  judge: string,
  votesPerPair: number,
  votes: readonly (PairVote | undefined)[],
  createdAt: Date,
): NewSuggestion | undefined {
  const answered: SuggestionVote[] = [];
  votes.forEach((vote, voteIndex) => {
    if (vote?.answered) {
      answered.push({
        voteIndex,
        callId: vote.callId,
        label: vote.label,
        ...(vote.rationale !== undefined && { rationale: vote.rationale }),
      });
    }
  });
  // No answer at all (every call failed or was cancelled): the judge said nothing about this pair.
  if (answered.length === 0) return undefined;
  const summary = summariseVotes(answered.map((v) => v.label));
  const shown = answered.find((v) => v.label === summary.label) ?? answered[0]!;
  return {
    pairId,
    judge,
    label: summary.label,
    // A share of votes means something only when the judge voted.
    ...(votesPerPair > 1 && summary.confidence !== undefined && { confidence: summary.confidence }),
    ...(summary.label !== null && shown.rationale !== undefined && { rationale: shown.rationale }),
    callId: shown.callId,
    votes: answered,
    createdAt,
  };
}
