// trec_eval's text output, byte for byte, and our JSON form of the same numbers.
import { displayQueryId } from '../formats/queryIdCache.ts';
import { type MeasureValue, type PerQueryValues, perQueryValuesOf, type RunEvaluation } from './evaluate.ts';

/**
 * C's printf("%.4f"): the exact binary value rounded to 4 decimals, an exact tie to even. JavaScript's toFixed is
 * exact too except on ties, which it rounds up (0.15625 → "0.1563", C prints "0.1562"). A double is an exact tie at
 * 4 decimals only when it is an odd multiple of 1/32 (x·10⁴ = n + ½ ⇔ x = (2n+1)/(2⁵·5⁴), and a double is dyadic).
 */
export function formatFixed4(value: number): string {
  // Fast path (a -q output prints a million values): below 1e5, value·10⁴ is within 2e-7 of its exact value, so
  // unless it lies within 1e-6 of a half it rounds as the exact value does.
  if (value >= 0 && value < 1e5) {
    const scaled = value * 10000;
    const floor = Math.floor(scaled);
    const fraction = scaled - floor;
    if (fraction < 0.499999 || fraction > 0.500001) {
      const rounded = fraction > 0.5 ? floor + 1 : floor;
      const whole = Math.floor(rounded / 10000);
      const decimals = rounded - whole * 10000;
      return `${whole}.${decimals < 10 ? '000' : decimals < 100 ? '00' : decimals < 1000 ? '0' : ''}${decimals}`;
    }
  }
  const scaled32 = value * 32; // exact: scaling by a power of two
  if (Number.isInteger(scaled32) && scaled32 % 2 !== 0) {
    const magnitude = Math.abs(value);
    const floor = Math.floor(magnitude * 10000); // exact: an odd multiple of 312.5, minus the half
    const rounded = floor % 2 === 0 ? floor : floor + 1;
    const digits = String(rounded).padStart(5, '0');
    return `${value < 0 ? '-' : ''}${digits.slice(0, -4)}.${digits.slice(-4)}`;
  }
  return value.toFixed(4);
}

/** printf("%6.4f") of a value (or "%ld" for counts), as trec_eval prints it after the qid. */
function numberText(value: number, integer: boolean): string {
  if (integer) return String(value);
  // glibc's printf of the NaN 0/0 gives on x86 (trec_eval's iprec_at_recall under -J).
  if (Number.isNaN(value)) return '  -nan';
  const text = formatFixed4(value);
  return text.length >= 6 ? text : text.padStart(6);
}

/** printf("%-22s\t%s\t%6.4f\n") (or "%ld" for counts, "'%s'" for a text measure such as relstring). */
function line(name: string, qid: string, value: MeasureValue, prefix: string): string {
  const number = value.text !== undefined ? `'${value.text}'` : numberText(value.value, value.integer);
  return `${prefix}${name.padEnd(22)}\t${qid}\t${number}\n`;
}

/**
 * Where a run's `runid all TAG` line goes: nowhere, where trec_eval prints it (first of the summary lines, when
 * the runid measure is selected), or first of all, before the query lines, so that each run's block of a
 * multi-run output says which run it is from its first line.
 */
export type RunidLine = 'none' | 'summary' | 'first';

export interface TrecEvalTextOptions {
  perQuery: boolean;
  runidLine: RunidLine;
  summary?: boolean;
}

/** Pieces of text given to `write` are about this long: the output is never held whole (1.2M lines for
 * -m all_trec -q on 10,000 queries). */
const writeChunk = 1 << 16;

/**
 * Writes the text trec_eval prints in pieces, in order; qids and runid are byte strings (latin1): write each piece
 * as latin1 bytes.
 */
export function writeTrecEvalText(
  evaluation: RunEvaluation,
  options: TrecEvalTextOptions,
  write: (text: string) => void,
): void {
  let pending = '';
  const add = (text: string): void => {
    pending += text;
    if (pending.length >= writeChunk) {
      write(pending);
      pending = '';
    }
  };
  // trec_eval -Z marks every z-score line with a Z before the name (and prints counts as %6.4f: they are no longer
  // counts, evaluate.ts makes them floats).
  const prefix = evaluation.zscores ? 'Z' : '';
  // m_runid.c: printf("%-22s\t%s\t%s\n", "runid", "all", runid).
  const runidLine = `${'runid'.padEnd(22)}\tall\t${evaluation.runid}\n`;
  if (options.runidLine === 'first') add(runidLine);
  if (options.perQuery) {
    const compact = perQueryValuesOf(evaluation);
    if (compact) writeCompactQueries(compact, prefix, add);
    else {
      for (const query of evaluation.queries) {
        for (const value of query.values) add(line(value.name, query.qid, value, prefix));
      }
    }
  }
  // trec_eval -n: no summary lines at all, its runid line included.
  if (options.summary !== false) {
    if (options.runidLine === 'summary') add(runidLine);
    for (const value of evaluation.all) add(line(value.name, 'all', value, prefix));
  }
  if (pending.length > 0) write(pending);
}

/** The per-query lines straight from the compact values: no object per value. */
function writeCompactQueries(values: PerQueryValues, prefix: string, add: (text: string) => void): void {
  const width = values.lines.length;
  const printed = values.lines.flatMap((line, i) => (line.printed ? [i] : []));
  const heads = values.lines.map((line) => `${prefix}${line.name.padEnd(22)}\t`);
  const { numbers, texts, rows, qids } = values;
  for (let k = 0; k < qids.length; k++) {
    const row = rows[k]! * width;
    const qid = qids[k]!;
    let text = '';
    for (const i of printed) {
      const line = values.lines[i]!;
      const number = line.text ? `'${texts![row + i]}'` : numberText(numbers[row + i]!, line.integer);
      text += `${heads[i]}${qid}\t${number}\n`;
    }
    add(text);
  }
}

/** The text trec_eval prints, whole; qids and runid are byte strings (latin1): write the result as latin1 bytes. */
export function formatTrecEvalText(evaluation: RunEvaluation, options: TrecEvalTextOptions): string {
  const pieces: string[] = [];
  writeTrecEvalText(evaluation, options, (text) => pieces.push(text));
  return pieces.join('');
}

export interface EvaluationJson {
  runs: {
    runid: string;
    file: string;
    all: Record<string, number>;
    queries?: Record<string, Record<string, number>>;
  }[];
}

export function evaluationJson(evaluations: readonly RunEvaluation[], options: { perQuery: boolean }): EvaluationJson {
  // A text measure (relstring) has no number: it is left out of the JSON, whose values are numbers.
  const record = (values: readonly MeasureValue[]): Record<string, number> =>
    Object.fromEntries(values.filter((v) => v.text === undefined).map((v) => [v.name, v.value]));
  return {
    runs: evaluations.map((evaluation) => ({
      runid: displayQueryId(evaluation.runid),
      file: evaluation.file,
      all: record(evaluation.all),
      ...(options.perQuery
        ? { queries: Object.fromEntries(evaluation.queries.map((q) => [displayQueryId(q.qid), record(q.values)])) }
        : {}),
    })),
  };
}
