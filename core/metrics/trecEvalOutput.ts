// trec_eval's text output, byte for byte, and our JSON form of the same numbers.
import { displayQueryId } from '../formats/queryIdCache.ts';
import type { MeasureValue, RunEvaluation } from './evaluate.ts';

/**
 * C's printf("%.4f"): the exact binary value rounded to 4 decimals, an exact tie to even. JavaScript's toFixed is
 * exact too except on ties, which it rounds up (0.15625 → "0.1563", C prints "0.1562"). A double is an exact tie at
 * 4 decimals only when it is an odd multiple of 1/32 (x·10⁴ = n + ½ ⇔ x = (2n+1)/(2⁵·5⁴), and a double is dyadic).
 */
export function formatFixed4(value: number): string {
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

/** printf("%-22s\t%s\t%6.4f\n") (or "%ld" for counts, "'%s'" for a text measure such as relstring). */
function line(name: string, qid: string, value: MeasureValue, prefix: string): string {
  const number =
    value.text !== undefined
      ? `'${value.text}'`
      : value.integer
        ? String(value.value)
        : Number.isNaN(value.value)
          ? '-nan'.padStart(6) // glibc's printf of the NaN 0/0 gives on x86 (trec_eval's iprec_at_recall under -J)
          : formatFixed4(value.value).padStart(6);
  return `${prefix}${name.padEnd(22)}\t${qid}\t${number}\n`;
}

/**
 * Where a run's `runid all TAG` line goes: nowhere, where trec_eval prints it (first of the summary lines, when
 * the runid measure is selected), or first of all, before the query lines, so that each run's block of a
 * multi-run output says which run it is from its first line.
 */
export type RunidLine = 'none' | 'summary' | 'first';

/** The text trec_eval prints; qids and runid are byte strings (latin1): write the result as latin1 bytes. */
export function formatTrecEvalText(
  evaluation: RunEvaluation,
  options: { perQuery: boolean; runidLine: RunidLine; summary?: boolean },
): string {
  const out: string[] = [];
  // trec_eval -Z marks every z-score line with a Z before the name (and prints counts as %6.4f: they are no longer
  // counts, evaluate.ts makes them floats).
  const prefix = evaluation.zscores ? 'Z' : '';
  // m_runid.c: printf("%-22s\t%s\t%s\n", "runid", "all", runid).
  const runidLine = `${'runid'.padEnd(22)}\tall\t${evaluation.runid}\n`;
  if (options.runidLine === 'first') out.push(runidLine);
  if (options.perQuery) {
    for (const query of evaluation.queries) {
      for (const value of query.values) out.push(line(value.name, query.qid, value, prefix));
    }
  }
  // trec_eval -n: no summary lines at all, its runid line included.
  if (options.summary === false) return out.join('');
  if (options.runidLine === 'summary') out.push(runidLine);
  for (const value of evaluation.all) out.push(line(value.name, 'all', value, prefix));
  return out.join('');
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
