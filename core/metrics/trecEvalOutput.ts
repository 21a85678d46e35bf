// trec_eval's text output, byte for byte, and our JSON form of the same numbers.
import { displayQueryId } from '../formats/queryIdCache.ts';
import { type MeasureValue, type PerQueryValues, perQueryValuesOf, type RunEvaluation } from './evaluate.ts';

/**
 * C's printf("%.4f"): the exact binary value rounded to 4 decimals, an exact tie to even. JavaScript's toFixed is
 * exact too except on ties, which it rounds up (0.15625 → "0.1563", C prints "0.1562"). A double is an exact tie at
 * 4 decimals only when it is an odd multiple of 1/32 (x·10⁴ = n + ½ ⇔ x = (2n+1)/(2⁵·5⁴), and a double is dyadic).
 */
export function formatFixed4(value: number): string {
  const rounded = fastRounded4(value);
  if (rounded >= 0) {
    const whole = Math.floor(rounded / 10000);
    const decimals = rounded - whole * 10000;
    return `${whole}.${decimals < 10 ? '000' : decimals < 100 ? '00' : decimals < 1000 ? '0' : ''}${decimals}`;
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

/**
 * formatFixed4's fast path (a -q output prints a million values): value·10⁴ rounded to a whole number, or −1 where
 * the fast path does not hold. Below 1e5, value·10⁴ is within 2e-7 of its exact value, so unless it lies within 1e-6
 * of a half it rounds as the exact value does.
 */
function fastRounded4(value: number): number {
  if (!(value >= 0 && value < 1e5)) return -1;
  const scaled = value * 10000;
  const floor = Math.floor(scaled);
  const fraction = scaled - floor;
  if (fraction < 0.499999) return floor;
  return fraction > 0.500001 ? floor + 1 : -1;
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

/** Pieces given to `write` are about this long: the output is never held whole (1.2M lines for -m all_trec -q on
 * 10,000 queries). */
const writeChunk = 1 << 16;

/**
 * Writes the text trec_eval prints in pieces, in order; qids and runid are byte strings (latin1): write each piece
 * as latin1 bytes (writeTrecEvalBytes gives the bytes themselves, without making strings).
 */
export function writeTrecEvalText(
  evaluation: RunEvaluation,
  options: TrecEvalTextOptions,
  write: (text: string) => void,
): void {
  writeTrecEvalBytes(evaluation, options, (bytes) =>
    write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1')),
  );
}

/**
 * Writes the bytes trec_eval prints (a qid's or runid's latin1 characters as their bytes), in order, in pieces of
 * about 64 KiB. The -q lines are written straight from the compact per-query values: no string per line or value.
 * Each piece is in a buffer of its own (a piece may be kept), unless `released` says, after a piece is written,
 * that its bytes are no longer referenced (process.stdout's writableLength is 0): the buffer is then filled again.
 * A new buffer per piece is garbage outside V8's heap that it collects late: 30 MB of peak memory on 1.2M lines.
 */
export function writeTrecEvalBytes(
  evaluation: RunEvaluation,
  options: TrecEvalTextOptions,
  write: (bytes: Uint8Array) => void,
  released?: () => boolean,
): void {
  const sink = new ByteSink(write, released);
  // trec_eval -Z marks every z-score line with a Z before the name (and prints counts as %6.4f: they are no longer
  // counts, evaluate.ts makes them floats).
  const prefix = evaluation.zscores ? 'Z' : '';
  // m_runid.c: printf("%-22s\t%s\t%s\n", "runid", "all", runid).
  const runidLine = `${'runid'.padEnd(22)}\tall\t${evaluation.runid}\n`;
  if (options.runidLine === 'first') sink.text(runidLine);
  if (options.perQuery) {
    const compact = perQueryValuesOf(evaluation);
    if (compact) writeQueryLineBytes(compact, prefix, 0, compact.qids.length, sink);
    else {
      for (const query of evaluation.queries) {
        for (const value of query.values) sink.text(line(value.name, query.qid, value, prefix));
      }
    }
  }
  // trec_eval -n: no summary lines at all, its runid line included.
  if (options.summary !== false) {
    if (options.runidLine === 'summary') sink.text(runidLine);
    for (const value of evaluation.all) sink.text(line(value.name, 'all', value, prefix));
  }
  sink.flush();
}

/**
 * The per-query lines of the queries `from` … `to` − 1 (in the qid order of `values`), as latin1 bytes written to
 * `sink` (a ByteSink, or a function taking each piece as writeTrecEvalBytes gives them; `prefix` is 'Z' under -Z).
 * A part of the queries can be formatted apart (another thread's half) and the pieces written in order.
 */
export function writeQueryLineBytes(
  values: PerQueryValues,
  prefix: string,
  from: number,
  to: number,
  sink: ByteSink | ((bytes: Uint8Array) => void),
): void {
  const out = sink instanceof ByteSink ? sink : new ByteSink(sink);
  const lines = new QueryLines(values, prefix);
  // One call per query: a loop over 1.2M lines in one function ran as on-stack-replaced code that V8 left and
  // re-entered, slower than a function it optimises once.
  for (let k = from; k < to; k++) lines.write(out, k);
  if (out !== sink) out.flush();
}

/** The per-query lines of compact values, one query at a time. */
class QueryLines {
  private readonly values: PerQueryValues;
  private readonly width: number;
  /** The lines printed, as indexes of values.lines. */
  private readonly printed: Int32Array;
  /** Each line's bytes up to the qid: the name padded to 22, a tab. */
  private readonly heads: Uint8Array[];
  private readonly integers: boolean[];
  private readonly textLines: boolean[];

  constructor(values: PerQueryValues, prefix: string) {
    this.values = values;
    this.width = values.lines.length;
    this.printed = Int32Array.from(values.lines.flatMap((line, i) => (line.printed ? [i] : [])));
    this.heads = values.lines.map((line) => latin1Bytes(`${prefix}${line.name.padEnd(22)}\t`));
    this.integers = values.lines.map((line) => line.integer);
    this.textLines = values.lines.map((line) => line.text);
  }

  write(out: ByteSink, k: number): void {
    const { numbers, texts, rows, qids } = this.values;
    const row = rows[k]! * this.width;
    const qid = latin1Bytes(qids[k]!);
    const printed = this.printed;
    for (let p = 0; p < printed.length; p++) {
      const i = printed[p]!;
      const head = this.heads[i]!;
      // The longest number: a double's %.4f is at most ~320 characters; a text line's length is known.
      const text = this.textLines[i] ? texts![row + i]! : undefined;
      out.reserve(head.length + qid.length + (text === undefined ? 400 : text.length + 4));
      const buffer = out.buffer;
      // set() copies the 23-byte head faster than a loop (−25 % of the -q output's time); the short qid by a loop.
      buffer.set(head, out.at);
      let at = out.at + head.length;
      at = putBytes(buffer, at, qid);
      buffer[at++] = tab;
      if (text !== undefined) {
        buffer[at++] = quote;
        at = putLatin1(buffer, at, text);
        buffer[at++] = quote;
      } else {
        const value = numbers[row + i]!;
        at = this.integers[i] ? putInteger(buffer, at, value) : putFixed4(buffer, at, value);
      }
      buffer[at++] = newline;
      out.at = at;
    }
  }
}

function putBytes(buffer: Uint8Array, at: number, bytes: Uint8Array): number {
  for (let b = 0; b < bytes.length; b++) buffer[at + b] = bytes[b]!;
  return at + bytes.length;
}

const tab = 9;
const newline = 10;
const quote = 39;
const zero = 48;
const dot = 46;

/** The bytes of a latin1 string (every character below 256). */
function latin1Bytes(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

function putLatin1(buffer: Uint8Array, at: number, text: string): number {
  for (let i = 0; i < text.length; i++) buffer[at++] = text.charCodeAt(i);
  return at;
}

/** "%ld" of a count. */
function putInteger(buffer: Uint8Array, at: number, value: number): number {
  if (!(value >= 0 && value < 1e15 && Number.isInteger(value))) return putLatin1(buffer, at, numberText(value, true));
  return putDigits(buffer, at, value);
}

/** The decimal digits of a whole number ≥ 0. */
function putDigits(buffer: Uint8Array, at: number, value: number): number {
  let digits = 1;
  for (let power = 10; power <= value; power *= 10) digits++;
  let end = at + digits;
  let rest = value;
  do {
    const next = Math.floor(rest / 10);
    buffer[--end] = zero + (rest - next * 10);
    rest = next;
  } while (rest > 0);
  return at + digits;
}

/** printf("%6.4f"), as numberText prints it: formatFixed4's fast path straight to bytes, numberText otherwise. */
function putFixed4(buffer: Uint8Array, at: number, value: number): number {
  const rounded = fastRounded4(value);
  if (rounded < 0) return putLatin1(buffer, at, numberText(value, false));
  const whole = Math.floor(rounded / 10000);
  const decimals = rounded - whole * 10000;
  // At least "0.0000": six characters, so %6.4f adds no padding.
  at = putDigits(buffer, at, whole);
  buffer[at++] = dot;
  const hundreds = Math.floor(decimals / 100);
  const units = decimals - hundreds * 100;
  buffer[at++] = zero + Math.floor(hundreds / 10);
  buffer[at++] = zero + (hundreds % 10);
  buffer[at++] = zero + Math.floor(units / 10);
  buffer[at++] = zero + (units % 10);
  return at;
}

/** Bytes gathered into pieces of about writeChunk bytes, each given to `write` in a buffer of its own unless
 * `released` says the last piece's bytes are no longer referenced. */
export class ByteSink {
  buffer: Uint8Array = new Uint8Array(0);
  at = 0;
  private readonly write: (bytes: Uint8Array) => void;
  private readonly released: (() => boolean) | undefined;

  constructor(write: (bytes: Uint8Array) => void, released?: () => boolean) {
    this.write = write;
    this.released = released;
  }

  /** Room for `length` more bytes at `at` (the full piece is written first). */
  reserve(length: number): void {
    if (this.at + length <= this.buffer.length) return;
    this.flush();
    if (this.buffer.length < length) this.buffer = new Uint8Array(Math.max(writeChunk + 512, length));
  }

  text(text: string): void {
    this.reserve(text.length);
    this.at = putLatin1(this.buffer, this.at, text);
    if (this.at >= writeChunk) this.flush();
  }

  flush(): void {
    if (this.at > 0) {
      this.write(this.buffer.subarray(0, this.at));
      if (!this.released?.()) this.buffer = new Uint8Array(0);
    }
    this.at = 0;
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
