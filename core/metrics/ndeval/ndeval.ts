// ndeval as a whole: diversity qrels + a run → one row per run topic and the mean, in ndeval's CSV, digit for digit.
// Which topics: every topic of the run gets a row (a topic without judgments scores 0); the mean divides by the
// number of topics both in the run and the qrels, or with -c by the number of topics in the qrels (topics the run
// misses then count 0 but get no row), exactly as ndeval does.
import type { DiversityQrels } from '../../formats/diversityQrels.ts';
import { FormatError } from '../../formats/formatError.ts';
import {
  type DiversityParameters,
  type DiversityScores,
  type DiversityTopic,
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

/** ndeval's risk-sensitive evaluation (-baseline, -riskAlpha): each value becomes the run's gain over a baseline. */
export interface NdevalRiskOptions {
  baseline: NdevalRun;
  /** Losses weigh 1 + riskAlpha (≥ 0). */
  riskAlpha: number;
  /** -riskAlpha as written, for the runid column ("0" when not given), as ndeval prints it. */
  riskAlphaText: string;
}

export interface NdevalTopicRow {
  topic: number;
  /** The run's own scores of the topic (zeros when the run or the qrels lack it). */
  scores: DiversityScores;
  /** The printed values, one per column of diversityColumns: the scores', or with a baseline the differences. */
  values: number[];
}

export interface NdevalEvaluation {
  /** The runid column: the run's tag, or with a baseline "RUN (rel to. BASE, rs=1+a, a=A)". */
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

/** Every run topic's scores, in topic order (a topic without judgments scores 0), and how many have judgments. */
function scoreRun(topics: Map<number, DiversityTopic>, run: NdevalRun, options: NdevalOptions) {
  let judged = 0;
  const scored = run.topics.map(({ topic: number, docnos }) => {
    const topic = topics.get(number);
    if (topic) judged++;
    const scores = topic
      ? diversityScores(topic, docnos, options, diversityIdeal(topic, options))
      : zeroDiversityScores();
    return { topic: number, scores, values: diversityColumns.map((column) => column.value(scores)) };
  });
  return { scored, judged };
}

/** ndeval's risk-based difference: a gain as is, a loss weighted 1 + α. */
function riskBased(run: number, baseline: number, riskAlpha: number): number {
  return run >= baseline ? run - baseline : (riskAlpha + 1) * (run - baseline);
}

/**
 * With a baseline, ndeval walks both topic lists: a topic of both gives run − baseline; a run topic the baseline
 * lacks gives run − 0; a baseline topic the run lacks gives 0 − baseline, but only with -c (without it, the topic
 * is skipped). The mean divides by the topics both the run and the qrels have (every qrels topic with -c), or by
 * the rows printed when there are more.
 */
function riskRows(
  run: NdevalTopicRow[],
  baseline: NdevalTopicRow[],
  riskAlpha: number,
  complete: boolean,
): NdevalTopicRow[] {
  const rows: NdevalTopicRow[] = [];
  const zeros = diversityColumns.map(() => 0);
  let [i, j] = [0, 0];
  while (i < run.length || (j < baseline.length && complete)) {
    const [mine, theirs] = [run[i], baseline[j]];
    let row: NdevalTopicRow;
    let base: number[];
    if (mine && theirs && mine.topic === theirs.topic) {
      [row, base] = [mine, theirs.values];
      i++;
      j++;
    } else if (theirs && (!mine || mine.topic > theirs.topic)) {
      j++;
      if (!complete) continue;
      [row, base] = [{ topic: theirs.topic, scores: zeroDiversityScores(), values: zeros }, theirs.values];
    } else {
      [row, base] = [mine!, zeros];
      i++;
    }
    rows.push({ ...row, values: row.values.map((value, k) => riskBased(value, base[k]!, riskAlpha)) });
  }
  return rows;
}

export function evaluateNdeval(
  qrels: DiversityQrels,
  run: NdevalRun,
  options: NdevalOptions,
  risk?: NdevalRiskOptions,
): NdevalEvaluation {
  const topics = new Map(diversityTopics(numberedJudgments(qrels)).map((t) => [t.topic, t]));
  const { scored, judged } = scoreRun(topics, run, options);
  let rows = scored;
  let averagedTopics = options.complete ? topics.size : judged;
  let runid = run.runid;
  if (risk) {
    rows = riskRows(scored, scoreRun(topics, risk.baseline, options).scored, risk.riskAlpha, options.complete);
    averagedTopics = Math.max(averagedTopics, rows.length);
    runid = `${run.runid} (rel to. ${risk.baseline.runid}, rs=1+a, a=${risk.riskAlphaText})`;
  }
  // Summed in row order, as ndeval, so the rounding is the same; 0 topics gives 0/0 (ndeval prints "-nan").
  const mean = diversityColumns.map((_, k) => {
    let sum = 0;
    for (const row of rows) sum += row.values[k]!;
    return sum / averagedTopics;
  });
  return { runid, rows, mean, averagedTopics };
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
  for (const { topic, values } of evaluation.rows) {
    lines.push(`${evaluation.runid},${topic},${values.map(printfFixed6).join(',')}\n`);
  }
  lines.push(`${evaluation.runid},amean,${evaluation.mean.map(printfFixed6).join(',')}\n`);
  return lines.join('');
}
