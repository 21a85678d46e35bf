// gdeval.pl's whole evaluation: its readers (with their format checks, as positioned errors), its ranking, its
// topic selection and average, and its CSV. Files are latin1 strings: the bytes as Perl reads them, compared
// byte by byte (docnos) and written back as they were (topics, the runid).
import { FormatError } from '../../formats/formatError.ts';
import { type GdevalTopicValues, gdevalDefaultDepth, gdevalMaxGrade, gdevalTopicValues } from './gdevalMeasures.ts';
import {
  comparePerlScores,
  compareTopicKeys,
  compareTopicNumbers,
  perlNumber,
  perlScoreValue,
  perlTrue,
  printfFixed,
  topicNumberKey,
} from './perlValues.ts';

/** What gdeval keeps of a qrels file: only positive grades (0 and negative grades are dropped when read). */
export interface GdevalJudgments {
  /** Grade of each positively judged `topic:docno` (topic as written); of a duplicate line, the smallest grade. */
  gradeOf: Map<string, number>;
  /** gdeval's %seen: the topics, as written, with a positive grade. Only these are evaluated; -c divides by their number. */
  judgedTopics: Set<string>;
  /** Ideal grades of each topic, under the first spelling of its number (qrels sorted by topic then grade). */
  idealGrades: Map<string, number[]>;
}

export interface GdevalRunLine {
  topic: string;
  docno: string;
  /** As written: compared as Perl compares numbers. */
  score: string;
}

export interface GdevalRun {
  /** The tag of the last line ("?????" for an empty run), as gdeval.pl keeps it. */
  runid: string;
  /** Where that tag is (for an error about it), when there is a line. */
  runidPosition?: { line: number; column: number };
  lines: GdevalRunLine[];
}

export interface GdevalOptions {
  /** -k: the depth of both measures. */
  depth: number;
  /** -c: average over every judged topic (a topic the run misses counts 0) instead of the topics both have. */
  complete: boolean;
  /** -j: the largest grade allowed (gdeval.pl's $MAX_JUDGMENT, 4). */
  maxGrade: number;
  /** -baseline RUN: risk-sensitive evaluation against this run's values (TREC Web 2013–14). */
  baseline?: GdevalBaseline;
  /** -riskAlpha A: a loss against the baseline weighs 1 + A (0); printed as written in the runid. */
  riskAlpha?: { value: number; text: string };
}

/** A baseline run's values, as gdeval.pl keeps them: by topic as named in that run, and its runid. */
export interface GdevalBaseline {
  runid: string;
  values: Map<string, GdevalTopicValues>;
}

export const gdevalDefaults: GdevalOptions = { depth: gdevalDefaultDepth, complete: false, maxGrade: gdevalMaxGrade };

export interface GdevalTopicRow extends GdevalTopicValues {
  topic: string;
}

export interface GdevalReport {
  runid: string;
  /** Evaluated topics in gdeval's order (by topic number). */
  topics: GdevalTopicRow[];
  mean: GdevalTopicValues;
}

interface Field {
  text: string;
  column: number;
}

/** Perl's `<FILE>` lines with `s/[\r\n]//g` applied, and `split(' ')` of each (fields between ASCII whitespace). */
function* perlLines(text: string): Generator<{ lineNumber: number; line: string; fields: Field[] }> {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (const [index, raw] of lines.entries()) {
    const line = raw.replaceAll('\r', '');
    const fields: Field[] = [];
    for (const match of line.matchAll(/[^\t\n\v\f\r ]+/g)) fields.push({ text: match[0], column: match.index + 1 });
    yield { lineNumber: index + 1, line, fields };
  }
}

function found(field: Field | undefined): string {
  return field === undefined ? 'end of line' : `'${field.text}'`;
}

/** A topic field with gdeval's `s/^.*-//` applied (TREC's "wt10-251" is topic 251), if it is then a number. */
function topicOf(field: Field | undefined): string | undefined {
  const topic = field?.text.replace(/^.*-/, '');
  return topic !== undefined && /^[0-9]+$/.test(topic) ? topic : undefined;
}

/** Reads a qrels file as gdeval.pl does: `topic 0 docno grade`, a grade an integer ≤ maxGrade. */
export function readGdevalQrels(text: string, file: string, maxGrade = gdevalMaxGrade): GdevalJudgments {
  const positive: { topic: string; key: string; docno: string; grade: number }[] = [];
  for (const { lineNumber, line, fields } of perlLines(text)) {
    const [topicField, zeroField, docnoField, gradeField] = fields;
    const end = line.length + 1;
    const topic = topicOf(topicField);
    if (topic === undefined) {
      throw new FormatError(
        file,
        lineNumber,
        topicField?.column ?? end,
        `expected a topic number (digits, after a prefix ending in '-' if any), found ${found(topicField)}`,
      );
    }
    // gdeval compares this column as a number: 0, Q0 (no number: 0) and 0.0 pass, 1 does not.
    if (perlNumber(zeroField?.text) !== 0) {
      throw new FormatError(
        file,
        lineNumber,
        zeroField!.column,
        `expected 0 in the second column, found ${found(zeroField)}`,
      );
    }
    const grade = gradeField !== undefined && /^-?[0-9]+$/.test(gradeField.text) ? Number(gradeField.text) : undefined;
    if (grade === undefined || grade > maxGrade) {
      throw new FormatError(
        file,
        lineNumber,
        gradeField?.column ?? end,
        `expected a grade (an integer ≤ ${maxGrade}) in the fourth column, found ${found(gradeField)}`,
      );
    }
    // Grades ≤ 0 (and TREC Web's −2 junk) are not kept at all: unjudged and judged non-relevant are the same to it.
    if (grade > 0) positive.push({ topic, key: topicNumberKey(topic), docno: docnoField!.text, grade });
  }
  // Sorted by topic number, then grade (largest first); equal lines keep their order (Perl's sort is a stable
  // merge sort, as JavaScript's).
  positive.sort((a, b) => compareTopicKeys(a.key, b.key) || b.grade - a.grade);
  const gradeOf = new Map<string, number>();
  const judgedTopics = new Set<string>();
  const idealGrades = new Map<string, number[]>();
  let currentKey: string | undefined;
  let current: number[] = [];
  for (const { topic, key, docno, grade } of positive) {
    if (key !== currentKey) {
      currentKey = key;
      current = [];
      idealGrades.set(topic, current);
    }
    current.push(grade); // already largest first: the ideal ranking (gdevalIdealGrades) as the sort left it
    judgedTopics.add(topic);
    gradeOf.set(`${topic}:${docno}`, grade);
  }
  return { gradeOf, judgedTopics, idealGrades };
}

/** Reads a run as gdeval.pl does: `topic Q0 docno rank score runid`; the score is not checked (Perl reads any text). */
export function readGdevalRun(text: string, file: string): GdevalRun {
  const lines: GdevalRunLine[] = [];
  let runid = '?????';
  let runidPosition: GdevalRun['runidPosition'];
  for (const { lineNumber, line, fields } of perlLines(text)) {
    const [topicField, q0Field, docnoField, rankField, scoreField, runidField] = fields;
    const end = line.length + 1;
    const topic = topicOf(topicField);
    if (topic === undefined) {
      throw new FormatError(
        file,
        lineNumber,
        topicField?.column ?? end,
        `expected a topic number (digits, after a prefix ending in '-' if any), found ${found(topicField)}`,
      );
    }
    if (q0Field?.text !== 'Q0') {
      throw new FormatError(
        file,
        lineNumber,
        q0Field?.column ?? end,
        `expected Q0 in the second column, found ${found(q0Field)}`,
      );
    }
    if (rankField === undefined || !/^[0-9]+$/.test(rankField.text)) {
      throw new FormatError(
        file,
        lineNumber,
        rankField?.column ?? end,
        `expected a rank (digits) in the fourth column, found ${found(rankField)}`,
      );
    }
    if (!perlTrue(runidField?.text)) {
      throw new FormatError(
        file,
        lineNumber,
        runidField?.column ?? end,
        `expected a run tag (not '0') in the sixth column, found ${found(runidField)}`,
      );
    }
    runid = runidField!.text;
    runidPosition = { line: lineNumber, column: runidField!.column };
    lines.push({ topic, docno: docnoField!.text, score: scoreField!.text });
  }
  return { runid, ...(runidPosition && { runidPosition }), lines };
}

/**
 * gdeval's ranking within a topic: by score (largest first), then docno in REVERSE byte order — of two tied
 * documents, "doc-b" comes before "doc-a" (trec_eval orders ties the other way). Scores as `perlScoreValue` reads them.
 */
export function compareGdevalRanking(
  a: { docno: string; scoreValue: number | bigint },
  b: { docno: string; scoreValue: number | bigint },
): number {
  return comparePerlScores(b.scoreValue, a.scoreValue) || (a.docno < b.docno ? 1 : a.docno > b.docno ? -1 : 0);
}

/** A topic judged under two spellings of its number ("010" and "10") that gdeval.pl would divide by nothing. */
export class GdevalTopicSpellingError extends Error {}

/** One judged topic's raw values, in gdeval's order of topics; the qrels' topics the run lacks are not listed. */
function scoreTopics(judgments: GdevalJudgments, run: GdevalRun, options: GdevalOptions): GdevalTopicRow[] {
  // gdeval sorts the whole run by topic number, then score, then docno, with a stable sort: the same as sorting each
  // topic's lines (kept in file order) and taking the topics in numeric order — without comparing topics a million
  // times. Lines of "010" and "10" are one topic, as gdeval's numeric `!=` has it.
  const byTopic = new Map<string, (GdevalRunLine & { scoreValue: number | bigint })[]>();
  for (const line of run.lines) {
    const key = topicNumberKey(line.topic);
    let lines = byTopic.get(key);
    if (lines === undefined) {
      lines = [];
      byTopic.set(key, lines);
    }
    lines.push({ ...line, scoreValue: perlScoreValue(line.score) });
  }
  const topics: GdevalTopicRow[] = [];
  for (const key of [...byTopic.keys()].sort(compareTopicKeys)) {
    const ranked = byTopic.get(key)!.sort(compareGdevalRanking);
    // The topic is named by its first line in this order; each line's grade is looked up under its own spelling.
    const topic = ranked[0]!.topic;
    if (!judgments.judgedTopics.has(topic)) continue;
    const grades = ranked.map((line) => judgments.gradeOf.get(`${line.topic}:${line.docno}`) ?? 0);
    topics.push({ topic, ...gdevalTopicValues(grades, idealOf(judgments, topic), options.depth, options.maxGrade) });
  }
  return topics;
}

function idealOf(judgments: GdevalJudgments, topic: string): number[] {
  const ideal = judgments.idealGrades.get(topic);
  if (ideal === undefined) {
    throw new GdevalTopicSpellingError(
      `topic ${topic} is judged under another spelling of its number too (leading zeros): gdeval.pl stops ` +
        'with "Illegal division by zero" on such qrels; write each topic number one way',
    );
  }
  return ideal;
}

/** The baseline of -baseline: its topics' plain values (gdeval.pl evaluates it first, with the same -k and -c). */
export function gdevalBaselineOf(judgments: GdevalJudgments, run: GdevalRun, options: GdevalOptions): GdevalBaseline {
  const values = new Map<string, GdevalTopicValues>();
  for (const { topic, ndcg, err } of scoreTopics(judgments, run, { ...options, baseline: undefined })) {
    values.set(topic, { ndcg, err });
  }
  return { runid: run.runid, values };
}

/** gdeval's risk-sensitive difference: a gain over the baseline as is, a loss weighted 1 + alpha. */
function riskWeighted(value: number, base: number, alpha: number): number {
  return value < base ? (1 + alpha) * (value - base) : value - base;
}

export function evaluateGdeval(judgments: GdevalJudgments, run: GdevalRun, options: GdevalOptions): GdevalReport {
  const topics = scoreTopics(judgments, run, options);
  const count = options.complete ? judgments.judgedTopics.size : topics.length;
  const { baseline } = options;
  let runid = run.runid;
  if (baseline) {
    const alpha = options.riskAlpha ?? { value: 0, text: '0' };
    runid = `${run.runid} (rel to. ${baseline.runid}, rs=1+a, a=${alpha.text})`;
    const evaluated = new Set(topics.map((row) => row.topic));
    for (const row of topics) {
      const base = baseline.values.get(row.topic) ?? { ndcg: 0, err: 0 };
      row.ndcg = riskWeighted(row.ndcg, base.ndcg, alpha.value);
      row.err = riskWeighted(row.err, base.err, alpha.value);
    }
    if (options.complete) {
      // With -c, each judged topic the run lacks scores 0 against the baseline, listed after the others in number
      // order. gdeval.pl keeps the previous such topic's baseline values when the baseline lacks this one too.
      let base: GdevalTopicValues = { ndcg: 0, err: 0 };
      for (const topic of [...judgments.judgedTopics].sort(compareTopicNumbers)) {
        if (evaluated.has(topic)) continue;
        base = baseline.values.get(topic) ?? base;
        idealOf(judgments, topic);
        topics.push({
          topic,
          ndcg: riskWeighted(0, base.ndcg, alpha.value),
          err: riskWeighted(0, base.err, alpha.value),
        });
      }
    }
  }
  let ndcgTotal = 0;
  let errTotal = 0;
  for (const row of topics) {
    ndcgTotal += row.ndcg;
    errTotal += row.err;
  }
  return {
    runid,
    topics,
    mean: count > 0 ? { ndcg: ndcgTotal / count, err: errTotal / count } : { ndcg: ndcgTotal, err: errTotal },
  };
}

/** gdeval.pl's CSV: a header, one line per evaluated topic, the `amean` line; values as printf("%.5f"). */
export function formatGdevalText(report: GdevalReport, depthLabel: string): string {
  const value = (v: GdevalTopicValues) => `${printfFixed(v.ndcg, 5)},${printfFixed(v.err, 5)}\n`;
  let text = `runid,topic,ndcg@${depthLabel},err@${depthLabel}\n`;
  for (const row of report.topics) text += `${report.runid},${row.topic},${value(row)}`;
  return `${text}${report.runid},amean,${value(report.mean)}`;
}
