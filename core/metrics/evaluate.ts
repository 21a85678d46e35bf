// Evaluates one run against qrels the way trec_eval 10 does (form_res_rels.c + trec_eval.c):
// - each query's retrieved documents are ranked by score descending, ties broken by docid compared byte by byte,
//   descending (the rank column is ignored), then cut to the first -M;
// - a docid retrieved twice within those is an error, as is a qrels query with no results unless -c, in which
//   case it is evaluated as trec_eval evaluates its placeholder docid 'ceci_nest_pas_un_docno': a ranking of one
//   document not in the qrels (here always unjudged, where trec_eval's could be judged by a qrels naming it), which
//   -J then removes, and the measures trec_eval zeroes afterwards are 0 (zeroWithoutResults);
// - queries only in the run are ignored; averages are sums over the qrels queries in qid byte order, divided by
//   the number of queries evaluated, except num_rel under -c (see measures/numRel.ts).

import type { ByteKeyStore } from '../formats/byteKeyTable.ts';
import { FormatError } from '../formats/formatError.ts';
import { compareQueryIds, messageQueryId } from '../formats/queryIdCache.ts';
import type { Qrels, QrelsQuery } from '../formats/trecQrels.ts';
import { notJudged, type RunQuery, readRunByQuery } from '../formats/trecRun.ts';
import type { Zscore, Zscores } from '../formats/zscores.ts';
import { judgedAtLeast, type MeasureOptions, type RankedQuery, type TrecMeasure } from './trecMeasure.ts';

export interface SelectedMeasure {
  measure: TrecMeasure;
  /** The cutoffs or thresholds to report, increasing, or the measure's numbers (`set_F.0.5`); empty for the
   * measures without parameters. */
  cutoffs: readonly number[];
  /** The measure's `name=value` pairs (`-m ndcg.1=3,2=9`), when given. */
  pairs?: ReadonlyMap<string, number>;
  /** The parameters as typed after the measure's name, when a one-line measure was given some: its lines are then
   * named `name_<this>`, as trec_eval names them (`set_F_0.5`, `ndcg_1=3,2=9`, `relstring_20`). */
  parameterText?: string;
}

export interface EvaluationOptions {
  measures: readonly SelectedMeasure[];
  /** -l: minimum label that counts as relevant (default 1). */
  relevanceLevel: number;
  /** -M: number of top documents per query to evaluate (default: all). */
  maxRetrieved: number;
  /** -c: average over every qrels query, counting queries absent from the run as 0. */
  complete: boolean;
  /** --gains: each label's gain in ndcg and ndcg_cut (absent: the label, as trec_eval). */
  gains?: ReadonlyMap<number, number>;
  /** -J: evaluate only the judged documents of each ranking (unjudged ones are removed, ranks closed up). */
  judgedOnly?: boolean;
  /** -N: number of documents in the collection (utility's fourth coefficient). */
  numDocsInCollection?: number;
  /** -Z: each per-query value becomes its z-score against this table before it is printed and averaged. */
  zscores?: Zscores;
}

export interface MeasureValue {
  name: string;
  value: number;
  integer: boolean;
  /** A text measure's string (relstring); `value` is then NaN. */
  text?: string;
}

export interface QueryEvaluation {
  /** The qid's bytes as latin1 (see displayQueryId for text). */
  qid: string;
  values: MeasureValue[];
}

export interface RunEvaluation {
  runid: string;
  file: string;
  queries: QueryEvaluation[];
  /** The summary ("all") values, runid excluded. */
  all: MeasureValue[];
  /** True when the values are z-scores (-Z). */
  zscores?: true;
}

function valueNames(selected: SelectedMeasure): string[] {
  const { measure, cutoffs } = selected;
  if (measure.defaultCutoffs) return cutoffs.map((k) => `${measure.name}_${k}`);
  if (measure.defaultThresholds) return cutoffs.map((t) => `${measure.name}_${formatFixed2(t)}`);
  return [selected.parameterText === undefined ? measure.name : `${measure.name}_${selected.parameterText}`];
}

/** C's printf("%3.2f") for a threshold's name: exact binary value to 2 decimals (toFixed rounds exact ties up, C to
 * even; a threshold is an exact tie only when it is an odd multiple of 1/8: 0.125 → "0.12"). */
function formatFixed2(value: number): string {
  const scaled8 = value * 8;
  if (Number.isInteger(scaled8) && scaled8 % 2 !== 0) {
    const floor = Math.floor(Math.abs(value) * 100);
    const rounded = floor % 2 === 0 ? floor : floor + 1;
    return `${value < 0 ? '-' : ''}${(rounded / 100).toFixed(2)}`;
  }
  return value.toFixed(2);
}

/** One value slot of the output: a measure's line (one per cutoff for cutoff measures). */
interface ValueSlot {
  name: string;
  measure: TrecMeasure;
}

/**
 * Evaluates the queries of one run, query by query, into one row each of a flat array (slot order): what a thread
 * needs to evaluate the queries it reads (core/metrics/parallel evaluates a run's two halves in two threads).
 */
export class QueryEvaluator {
  readonly slots: readonly ValueSlot[];
  readonly slotCount: number;
  readonly hasText: boolean;
  private readonly options: EvaluationOptions;
  private readonly valued: readonly SelectedMeasure[];
  private readonly measureOptions: readonly MeasureOptions[];
  private readonly repeats = new RepeatFinder();

  constructor(options: EvaluationOptions) {
    this.options = options;
    const valued = options.measures.filter((s) => s.measure.kind !== 'runid' && s.measure.kind !== 'numQ');
    this.valued = valued;
    const baseOptions: MeasureOptions = {
      relevanceLevel: options.relevanceLevel,
      ...(options.gains && { gains: options.gains }),
      ...(options.numDocsInCollection !== undefined && { numDocsInCollection: options.numDocsInCollection }),
    };
    // A measure given pairs (-m ndcg.1=3,2=9) sees them as its own gains; the others share one options object.
    this.measureOptions = valued.map((selected): MeasureOptions => {
      if (!selected.pairs) return baseOptions;
      const gains = new Map(options.gains);
      for (const [name, value] of selected.pairs) if (/^-?\d+$/.test(name)) gains.set(Number(name), value);
      return { ...baseOptions, gains, pairs: selected.pairs };
    });
    this.slots = valued.flatMap((selected) =>
      valueNames(selected).map((name) => ({ name, measure: selected.measure })),
    );
    this.slotCount = this.slots.length;
    this.hasText = this.slots.some((s) => s.measure.kind === 'text');
  }

  /** Writes query `q`'s values for this ranking (judgments in rank order) into row q of `numbers` (a text value
   * into `texts` at the same index, NaN in `numbers`). */
  evaluate(
    numbers: Float64Array<ArrayBufferLike>,
    texts: string[] | undefined,
    q: number,
    labelCounts: QrelsQuery['labelCounts'],
    ranking: Int32Array,
  ): void {
    const numRel = judgedAtLeast(labelCounts, this.options.relevanceLevel);
    const ranked: RankedQuery = { ranking, numRel, labelCounts };
    const valued = this.valued;
    let at = q * this.slotCount;
    for (let m = 0; m < valued.length; m++) {
      const computed = valued[m]!.measure.compute(ranked, this.measureOptions[m]!, valued[m]!.cutoffs);
      if (typeof computed === 'number') numbers[at++] = computed;
      else if (typeof computed === 'string') {
        texts![at] = computed;
        numbers[at++] = Number.NaN;
      } else for (const value of computed) numbers[at++] = value;
    }
  }

  /** The ranking trec_eval evaluates for a query's retrieved documents (-M and -J applied); a duplicate document
   * within it is a FormatError. */
  rank(runQuery: RunQuery, qid: string, runFile: string): Int32Array {
    const ranking = rankQuery(runQuery, qid, this.options.maxRetrieved, this.repeats, runFile);
    return this.options.judgedOnly ? judgedOnly(ranking) : ranking;
  }
}

/** Reads a run file and evaluates it against the qrels; `name` is the run in messages and the result (the file). */
export async function evaluateRunFile(
  qrels: Qrels,
  runFile: string,
  options: EvaluationOptions,
  name = runFile,
): Promise<RunEvaluation> {
  checkQrelsHaveJudgments(qrels);
  const evaluator = new QueryEvaluator(options);
  // Every query's values in one row of a flat array (slot order): a per-query object or array per query took 4× the
  // memory of trec_eval under -m all_trec -q, and most of the time went to collecting them.
  const numbers = new Float64Array(qrels.queries.length * evaluator.slotCount);
  const texts: string[] | undefined = evaluator.hasText ? [] : undefined;
  const answered = new Uint8Array(qrels.queries.length);
  const summary = await readRunByQuery(runFile, qrels, (runQuery) => {
    const query = qrels.queries[runQuery.query]!;
    evaluator.evaluate(numbers, texts, runQuery.query, query.labelCounts, evaluator.rank(runQuery, query.qid, runFile));
    answered[runQuery.query] = 1;
  });
  return finishEvaluation({
    qrels,
    evaluator,
    options,
    numbers,
    ...(texts && { texts }),
    answered,
    runid: summary.runid,
    name,
  });
}

export function checkQrelsHaveJudgments(qrels: Pick<Qrels, 'queries' | 'file'>): void {
  if (qrels.queries.length === 0) {
    // trec_eval stops too ("No queries with both results and relevance info"); averages over nothing mean nothing.
    throw new FormatError(qrels.file, 1, 1, 'the qrels file has no judgments (it is empty or only comments)');
  }
}

/** The per-query values of a run's answered queries, as evaluated by a QueryEvaluator, and what finishes them. */
export interface EvaluatedQueries {
  qrels: Pick<Qrels, 'queries' | 'file'>;
  evaluator: QueryEvaluator;
  options: EvaluationOptions;
  /** Row q: query q's values (queries the run did not answer are evaluated here, under -c). */
  numbers: Float64Array<ArrayBufferLike>;
  texts?: string[];
  /** 1 for the queries the run answered. */
  answered: Uint8Array<ArrayBufferLike>;
  runid: string;
  /** The run in messages and in the result. */
  name: string;
}

/** Evaluates the queries the run has no results for (-c), or stops at the first; then sums in qid order and
 * averages as trec_eval does. */
export function finishEvaluation(run: EvaluatedQueries): RunEvaluation {
  const { qrels, evaluator, options, numbers, texts, answered, name } = run;
  const slots = evaluator.slots;
  const slotCount = evaluator.slotCount;
  const queryOrder = Int32Array.from(qrels.queries, (_, q) => q).sort((a, b) =>
    compareQueryIds(qrels.queries[a]!.qid, qrels.queries[b]!.qid),
  );
  const sums = new Float64Array(slotCount);
  for (const q of queryOrder) {
    const query = qrels.queries[q]!;
    const row = q * slotCount;
    if (!answered[q]) {
      if (!options.complete) {
        throw new FormatError(
          qrels.file,
          query.firstLine,
          1,
          `query '${messageQueryId(query.qid)}' is judged here but has no results in ${name}. ` +
            'Evaluating only the queries a run answered would inflate its scores: add results for it, remove it ' +
            'from the qrels, or pass -c to count it as 0 (as trec_eval -c does).',
        );
      }
      evaluator.evaluate(
        numbers,
        texts,
        q,
        query.labelCounts,
        options.judgedOnly ? new Int32Array(0) : placeholderRanking,
      );
      for (let i = 0; i < slotCount; i++) {
        const { name, measure } = slots[i]!;
        const zeroed =
          measure.zeroWithoutResults === true ||
          (measure.zeroWithoutResults === 'unlessRenamed' && name === measure.name);
        if (zeroed) {
          if (measure.kind === 'text') texts![row + i] = '';
          else numbers[row + i] = 0;
        }
      }
    }
    // Summed in qid order, as trec_eval accumulates, so that averages round the same way; the row then holds the
    // values as printed.
    const zscores = options.zscores && (options.zscores.get(query.qid) ?? noZscores);
    for (let i = 0; i < slotCount; i++) {
      const measure = slots[i]!.measure;
      if (measure.kind === 'text') continue;
      const computed = numbers[row + i]!;
      // A geometric mean sums logs: trec_eval keeps the log as the query's value (and -Z converts that).
      let value = measure.average === 'geometric' ? Math.log(Math.max(computed, minimumGeometricValue)) : computed;
      if (zscores) value = toZscore(value, zscores.get(slots[i]!.name));
      sums[i]! += value;
      numbers[row + i] = value;
    }
  }

  // Counts are summed, the rest averaged over every qrels query (there is at least one). num_q precedes every
  // valued measure in trec_eval's order, and runid is printed apart.
  const evaluated = queryOrder.length;
  const all: MeasureValue[] = options.measures.some((s) => s.measure.kind === 'numQ')
    ? [{ name: 'num_q', value: evaluated, integer: true }]
    : [];
  slots.forEach(({ name, measure }, i) => {
    if (measure.kind === 'text') return; // trec_eval prints relstring per query only
    const integer = measure.kind === 'count' && !options.zscores;
    const value =
      options.complete && measure.completeSummary
        ? measure.completeSummary(qrels.queries.map((query) => query.labelCounts))
        : measure.kind === 'count'
          ? sums[i]!
          : measure.average === 'geometric'
            ? Math.exp(sums[i]! / evaluated)
            : sums[i]! / evaluated;
    all.push({ name, value, integer });
  });
  const perQuery: PerQueryValues = {
    qids: Array.from(queryOrder, (q) => qrels.queries[q]!.qid),
    rows: queryOrder,
    lines: slots.map(({ name, measure }) => ({
      name,
      integer: measure.kind === 'count' && !options.zscores,
      text: measure.kind === 'text',
      // A text measure always has its per-query line (relstring); gm_map and gm_bpref have none.
      printed: measure.kind === 'text' || measure.perQueryLines !== false,
    })),
    numbers,
    ...(texts && { texts }),
  };
  const evaluation = { runid: run.runid, file: name, all, ...(options.zscores && { zscores: true as const }) };
  return withPerQueryValues(evaluation, perQuery);
}

/**
 * The per-query values of an evaluation, compactly: row `rows[k]` of `numbers` (one column per line of `lines`)
 * holds the values of query `qids[k]`, queries in qid byte order; a text line's value is in `texts` at the same index.
 */
export interface PerQueryValues {
  qids: readonly string[];
  rows: Int32Array;
  lines: readonly { name: string; integer: boolean; text: boolean; printed: boolean }[];
  numbers: Float64Array<ArrayBufferLike>;
  texts?: readonly string[];
}

const perQueryValues = new WeakMap<RunEvaluation, PerQueryValues>();

/** The compact per-query values behind an evaluation made by evaluateRunFile (undefined for one built otherwise,
 * or a copy: its `queries` are then read). */
export function perQueryValuesOf(evaluation: RunEvaluation): PerQueryValues | undefined {
  return perQueryValues.get(evaluation);
}

/** The evaluation with `queries` made from the compact values when first read (the text output never reads them). */
function withPerQueryValues(evaluation: Omit<RunEvaluation, 'queries'>, values: PerQueryValues): RunEvaluation {
  let queries: QueryEvaluation[] | undefined;
  const result = evaluation as RunEvaluation;
  Object.defineProperty(result, 'queries', {
    enumerable: true,
    configurable: true,
    get: () => {
      queries ??= values.qids.map((qid, k) => {
        const row = values.rows[k]! * values.lines.length;
        const lines: MeasureValue[] = [];
        values.lines.forEach((line, i) => {
          if (!line.printed) return;
          lines.push(
            line.text
              ? { name: line.name, value: Number.NaN, integer: false, text: values.texts![row + i]! }
              : { name: line.name, value: values.numbers[row + i]!, integer: line.integer },
          );
        });
        return { qid, values: lines };
      });
      return queries;
    },
    set: (value: QueryEvaluation[]) => {
      queries = value;
      perQueryValues.delete(result); // the text output must then print what was set
    },
  });
  perQueryValues.set(result, values);
  return result;
}

/** The ranking of a qrels query the run has no results for (-c): one document not in the qrels. */
const placeholderRanking = Int32Array.of(notJudged);

/** trec_eval's MISSING_ZSCORE_VALUE: the value of a query or measure the zscores file has no line for, or whose
 * standard deviation is 0 while the value is not the mean. */
const missingZscore = -1000000;
const noZscores: ReadonlyMap<string, Zscore> = new Map();

function toZscore(value: number, zscore: Zscore | undefined): number {
  if (!zscore) return missingZscore;
  if (zscore.stddev !== 0) return (value - zscore.mean) / zscore.stddev;
  return value === zscore.mean ? 0 : missingZscore;
}

/** trec_eval's MIN_GEO_MEAN: the floor of a value in a geometric mean, so that one 0 does not make it 0. */
const minimumGeometricValue = 0.00001;

/** trec_eval -J (form_res_rels.c): the ranking without its unjudged documents (not in the qrels, or judged with a
 * negative label), in the same order. */
function judgedOnly(ranking: Int32Array): Int32Array {
  let judged = 0;
  for (let i = 0; i < ranking.length; i++) if (ranking[i]! >= 0) judged++;
  if (judged === ranking.length) return ranking;
  const kept = new Int32Array(judged);
  let next = 0;
  for (let i = 0; i < ranking.length; i++) if (ranking[i]! >= 0) kept[next++] = ranking[i]!;
  return kept;
}

/**
 * trec_eval's ranking of one query (form_res_rels.c): score descending, ties by docid descending (strcmp), cut
 * to the first `maxRetrieved`, then a docid occurring twice among those is an error. Returns the judgments in
 * rank order.
 */
function rankQuery(
  runQuery: RunQuery,
  qid: string,
  maxRetrieved: number,
  repeats: RepeatFinder,
  runFile: string,
): Int32Array {
  const count = runQuery.count;
  const scores = runQuery.scores.data;
  const documents = runQuery.documents;
  let order: ArrayLike<number> | undefined;
  // Runs are usually written in rank order: checked without a comparator call per pair, sorted only when not.
  for (let i = 1; i < count; i++) {
    const step = scores[i]! - scores[i - 1]!;
    // (the comparator's `||`: a difference of 0 or NaN falls through to the docids)
    if (step > 0 || ((step === 0 || Number.isNaN(step)) && documents.compareKeys(i, i - 1) > 0)) {
      const compare = (a: number, b: number): number => scores[b]! - scores[a]! || documents.compareKeys(b, a);
      order = Array.from({ length: count }, (_, k) => k).sort(compare);
      break;
    }
  }
  const depth = Math.min(count, maxRetrieved);
  const duplicates = repeats.find(documents, count);
  if (duplicates.length > 0) checkDuplicates(runQuery, order, depth, duplicates, qid, runFile);
  const ranking = new Int32Array(depth);
  const judgments = runQuery.judgments.data;
  for (let i = 0; i < depth; i++) ranking[i] = judgments[order ? order[i]! : i]!;
  return ranking;
}

/** Finds the entries of a store that repeat an earlier entry's key (entries are in file order). */
class RepeatFinder {
  private slots = new Int32Array(1024);

  find(store: ByteKeyStore, count: number): { entry: number; first: number }[] {
    let size = 16;
    while (size < count * 2) size *= 2;
    if (size > this.slots.length) this.slots = new Int32Array(size);
    const slots = this.slots;
    slots.fill(0, 0, size);
    const mask = size - 1;
    const found: { entry: number; first: number }[] = [];
    for (let entry = 0; entry < count; entry++) {
      for (let slot = store.hash(entry) & mask; ; slot = (slot + 1) & mask) {
        const stored = slots[slot]!;
        if (stored === 0) {
          slots[slot] = entry + 1;
          break;
        }
        if (store.sameKey(stored - 1, entry)) {
          found.push({ entry, first: stored - 1 });
          break;
        }
      }
    }
    return found;
  }
}

function checkDuplicates(
  runQuery: RunQuery,
  order: ArrayLike<number> | undefined,
  depth: number,
  duplicates: { entry: number; first: number }[],
  qid: string,
  runFile: string,
): void {
  // trec_eval checks for duplicates after -M truncation: a repeat below the cut is not an error.
  const evaluated = new Set<number>();
  for (let i = 0; i < depth; i++) evaluated.add(order ? order[i]! : i);
  const occurrencesByDocid = new Map<number, number[]>();
  for (const { entry, first } of duplicates) {
    const list = occurrencesByDocid.get(first) ?? [first];
    list.push(entry);
    occurrencesByDocid.set(first, list);
  }
  // Entries are in file order, so the smallest evaluated entries are the earliest lines.
  let report: [number, number] | undefined;
  for (const occurrences of occurrencesByDocid.values()) {
    const kept = occurrences.filter((e) => evaluated.has(e)).sort((a, b) => a - b);
    if (kept.length >= 2 && (!report || kept[1]! < report[0])) report = [kept[1]!, kept[0]!];
  }
  if (!report) return;
  const [later, first] = report;
  const again = runQuery.position(later);
  const before = runQuery.position(first);
  throw new FormatError(
    runFile,
    again.line,
    again.column,
    `document '${runQuery.documents.keyText(later)}' is retrieved twice for query '${messageQueryId(qid)}' ` +
      `(first on line ${before.line}); trec_eval refuses duplicate documents in a ranking`,
    { line: before.line, column: before.column, message: 'first retrieval' },
  );
}
