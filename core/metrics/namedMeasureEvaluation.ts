// Evaluates the named measures (namedMeasures.ts: err@20, rbp@0.8, …) of one run with the tool module that computes
// each (gdeval/, ndeval/, rbp/), and adds their values to trec_eval's evaluation of the same run, so that the text
// output, --json and the Evaluate view print them as they print trec_eval's. Each measure keeps its tool's topics
// and its tool's mean: `err@20 all` is gdeval.pl's amean, not an average over trec_eval's queries — a topic gdeval
// does not evaluate (no positive grade) has no err@20 line, as it has no gdeval row.
import type { MeasureValue, RunEvaluation } from './evaluate.ts';
import { type NamedMeasure, NamedMeasureError, type NamedMeasureTool } from './namedMeasures.ts';
import { gdevalNamedValues } from './namedTools/gdevalNamed.ts';
import { ndevalNamedValues } from './namedTools/ndevalNamed.ts';
import { rbpNamedValues } from './namedTools/rbpNamed.ts';

export interface NamedMeasureFiles {
  qrels: string;
  run: string;
  /** Diversity qrels (`topic subtopic docno grade`), for ndeval's measures. */
  diversityQrels?: string;
  /** -c: the tool's own -c (average over every judged topic, a topic the run lacks counting 0). */
  complete: boolean;
}

/** One tool's values of the asked measures: per topic (its bytes as latin1, as evaluations hold qids) and the mean. */
export interface NamedMeasureValues {
  topics: { topic: string; values: Record<string, number> }[];
  mean: Record<string, number>;
}

/** How one tool's module is asked for the values of its measures. */
export type NamedMeasureComputation = (
  files: NamedMeasureFiles,
  measures: readonly NamedMeasure[],
) => Promise<NamedMeasureValues>;

/** The tool modules wired in: one adapter each in namedTools/, reading the files as that tool does. */
const computations: Partial<Record<NamedMeasureTool, NamedMeasureComputation>> = {
  gdeval: gdevalNamedValues,
  ndeval: ndevalNamedValues,
  rbp_eval: rbpNamedValues,
};

/** Whether this build computes `measure` (the language server and the view say so when not). */
export function namedMeasureComputed(measure: NamedMeasure): boolean {
  return computations[measure.family.tool] !== undefined;
}

/** The values of `measures` for one run, tool by tool, in the order the measures were asked. */
export async function evaluateNamedMeasures(
  files: NamedMeasureFiles,
  measures: readonly NamedMeasure[],
): Promise<NamedMeasureValues> {
  const result: NamedMeasureValues = { topics: [], mean: {} };
  const rowOf = new Map<string, Record<string, number>>();
  const tools = [...new Set(measures.map((m) => m.family.tool))];
  for (const tool of tools) {
    const asked = measures.filter((m) => m.family.tool === tool);
    const computation = computations[tool];
    if (!computation) {
      throw new NamedMeasureError(
        `${asked.map((m) => m.name).join(', ')}: ${tool}'s measures are named but not computed by this build yet`,
      );
    }
    if (asked.some((m) => m.family.diversity) && files.diversityQrels === undefined) {
      throw new NamedMeasureError(
        `${asked
          .filter((m) => m.family.diversity)
          .map((m) => m.name)
          .join(', ')}: diversity measures need diversity qrels (topic subtopic docno grade)`,
      );
    }
    const values = await computation(files, asked);
    for (const { topic, values: topicValues } of values.topics) {
      let row = rowOf.get(topic);
      if (!row) {
        row = {};
        rowOf.set(topic, row);
        result.topics.push({ topic, values: row });
      }
      Object.assign(row, topicValues);
    }
    Object.assign(result.mean, values.mean);
  }
  return result;
}

/**
 * `evaluation` with the named values added: each query's lines after its trec_eval lines (in the measures' order),
 * a topic only the tools evaluated as a query of its own after the others, and each mean after the summary lines.
 */
export function withNamedValues(
  evaluation: RunEvaluation,
  measures: readonly NamedMeasure[],
  values: NamedMeasureValues,
): RunEvaluation {
  const names = measures.flatMap((m) => m.valueNames);
  const lines = (record: Record<string, number>): MeasureValue[] =>
    names.filter((name) => record[name] !== undefined).map((name) => ({ name, value: record[name]!, integer: false }));
  const byTopic = new Map(values.topics.map((t) => [t.topic, t.values]));
  const queries = evaluation.queries.map((query) => {
    const topicValues = byTopic.get(query.qid);
    byTopic.delete(query.qid);
    return topicValues ? { ...query, values: [...query.values, ...lines(topicValues)] } : query;
  });
  // With only named measures asked, a query no tool evaluated has no line at all (as in the tools' outputs).
  if (evaluation.all.length === 0) queries.splice(0, queries.length, ...queries.filter((q) => q.values.length > 0));
  for (const [topic, topicValues] of byTopic) queries.push({ qid: topic, values: lines(topicValues) });
  return { ...evaluation, queries, all: [...evaluation.all, ...lines(values.mean)] };
}
