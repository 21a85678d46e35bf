// ndeval as a whole: diversity qrels + a run → one row per run topic and the mean, in ndeval's CSV, digit for digit.
// Which topics: every topic of the run gets a row (a topic without judgments scores 0); the mean divides by the
// number of topics both in the run and the qrels, or with -c by the number of topics in the qrels (topics the run
// misses then count 0 but get no row), exactly as ndeval does.
import type { DiversityQrels } from '../../formats/diversityQrels.ts';
import { FormatError } from '../../formats/formatError.ts';
import {
  type DiversityParameters,
  type DiversityScores,
  diversityColumns,
  diversityIdeal,
  diversityScores,
  diversityTopics,
  zeroDiversityScores,
} from './diversityMeasures.ts';
import { type NdevalRun, ndevalTopicNumber } from './ndevalRun.ts';

export interface NdevalOptions extends DiversityParameters {
  /** -c: average over every topic of the qrels. */
  complete: boolean;
}

export interface NdevalTopicRow {
  topic: number;
  scores: DiversityScores;
}

export interface NdevalEvaluation {
  runid: string;
  rows: NdevalTopicRow[];
  /** The amean row: each column's sum over the rows divided by `averagedTopics`. */
  mean: number[];
  averagedTopics: number;
}

/** The qrels' topics as ndeval numbers them; a topic that is not a natural number is a positioned error. */
export function numberedJudgments(qrels: DiversityQrels) {
  return qrels.judgments.map((judgment) => {
    const topic = /^\d+$/.test(judgment.topic) ? ndevalTopicNumber(judgment.topic) : undefined;
    if (topic === undefined) {
      throw new FormatError(
        qrels.file,
        judgment.line,
        judgment.topicColumn,
        `expected a topic number (ndeval's topics are integers ≥ 0), found '${judgment.topic}'`,
      );
    }
    return { ...judgment, topic };
  });
}

export function evaluateNdeval(qrels: DiversityQrels, run: NdevalRun, options: NdevalOptions): NdevalEvaluation {
  const topics = new Map(diversityTopics(numberedJudgments(qrels)).map((t) => [t.topic, t]));
  const rows: NdevalTopicRow[] = [];
  let judgedRunTopics = 0;
  for (const { topic: number, docnos } of run.topics) {
    const topic = topics.get(number);
    if (topic) judgedRunTopics++;
    rows.push({
      topic: number,
      scores: topic ? diversityScores(topic, docnos, options, diversityIdeal(topic, options)) : zeroDiversityScores(),
    });
  }
  const averagedTopics = options.complete ? topics.size : judgedRunTopics;
  // Summed in row order, as ndeval, so the rounding is the same; 0 topics gives 0/0 (ndeval prints "-nan").
  const mean = diversityColumns.map((column) => {
    let sum = 0;
    for (const row of rows) sum += column.value(row.scores);
    return sum / averagedTopics;
  });
  return { runid: run.runid, rows, mean, averagedTopics };
}

/**
 * C's printf("%.6f"): JavaScript's toFixed rounds an exact half away from zero, printf to even (0.0078125 →
 * 0.007812); a NaN is glibc's "-nan" (ndeval's NaNs are 0/0, whose sign bit is set on x86-64 and ARM alike).
 */
export function printfFixed6(value: number): string {
  if (Number.isNaN(value)) return '-nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  if (Object.is(value, -0)) return '-0.000000';
  const exact = Math.abs(value) < 1e21 ? Math.abs(value).toFixed(100) : '';
  const dot = exact.indexOf('.');
  if (dot >= 0 && /^50*$/.test(exact.slice(dot + 7))) {
    const truncated = exact.slice(0, dot + 7);
    if (Number(truncated.at(-1)) % 2 === 0) return `${value < 0 ? '-' : ''}${truncated}`;
  }
  return value.toFixed(6);
}

export function ndevalHeader(): string {
  return `runid,topic,${diversityColumns.map((c) => c.header).join(',')}\n`;
}

/** ndeval's whole output (latin1 text: the runid is written back byte for byte). */
export function ndevalText(evaluation: NdevalEvaluation): string {
  const lines = [ndevalHeader()];
  for (const { topic, scores } of evaluation.rows) {
    lines.push(
      `${evaluation.runid},${topic},${diversityColumns.map((c) => printfFixed6(c.value(scores))).join(',')}\n`,
    );
  }
  lines.push(`${evaluation.runid},amean,${evaluation.mean.map(printfFixed6).join(',')}\n`);
  return lines.join('');
}
