// The shape every trec_eval measure module has (trec_eval's TREC_MEAS, typed): a name, the help text, how its
// value is printed and averaged, its default cutoffs, and a pure per-query function.

/** Judged documents per label ≥ 0: distinct labels ascending, and how many documents carry each. Sparse, so a
 * large label costs nothing (trec_eval's labels are longs). */
export interface LabelCounts {
  readonly labels: readonly number[];
  readonly counts: readonly number[];
}

/** Number of judged documents whose label is at least `minimum` (labels < 0 are never counted). */
export function judgedAtLeast(labelCounts: LabelCounts, minimum: number): number {
  let total = 0;
  for (let i = labelCounts.labels.length - 1; i >= 0 && labelCounts.labels[i]! >= minimum; i--) {
    total += labelCounts.counts[i]!;
  }
  return total;
}

/** One query's evaluated ranking, as trec_eval's form_res_rels builds it. Not changed once a measure has read it:
 * the measures keep inputs computed from it while the same object is given to them (see relevantCounts). */
export interface RankedQuery {
  /** Judgment at each rank (index 0 = rank 1) of the evaluated top documents: a label ≥ 0, or
   * notJudged (-1, not in the qrels) or judgedNegative (-2, a negative label in the qrels). */
  ranking: Int32Array;
  /** Number of judged documents with label ≥ the relevance level (R). */
  numRel: number;
  /** Number of judged documents at each label ≥ 0. */
  labelCounts: LabelCounts;
}

export interface MeasureOptions {
  /** Minimum label counted as relevant by binary measures (trec_eval -l, default 1). */
  relevanceLevel: number;
  /**
   * The gain of a label in ndcg and ndcg_cut (`--gains 0:0,1:0,2:1`: a study's scale, where a label's order is not
   * its worth); a label not listed gains itself, as in trec_eval's `ndcg.L=G`. Absent: gain = label (trec_eval).
   */
  gains?: ReadonlyMap<number, number>;
  /**
   * The measure's own `name=value` pairs from `-m name.a=1,b=2` (trec_eval's pair parameters: `rbp.p=0.8`); the
   * numeric names are also in `gains`. Absent when none were given.
   */
  pairs?: ReadonlyMap<string, number>;
  /** trec_eval -N: number of documents in the collection (utility's fourth coefficient needs it); default 0. */
  numDocsInCollection?: number;
}

/**
 * - `float`: printed `%6.4f`, averaged over queries;
 * - `count`: printed as an integer, summed over queries;
 * - `text`: a per-query string printed quoted ('%s'), no summary line (relstring);
 * - `numQ`, `runid`: the two summary-only lines.
 */
export type MeasureKind = 'float' | 'count' | 'text' | 'numQ' | 'runid';

export interface TrecMeasure {
  name: string;
  help: string;
  kind: MeasureKind;
  /** Default cutoffs for measures parameterised by rank cutoffs (`-m P.5,10`: positive integers, one line each,
   * named `P_5`); absent otherwise. */
  defaultCutoffs?: readonly number[];
  /** Default thresholds for measures parameterised by fractions (`-m iprec_at_recall.0.1,0.5`: numbers, increasing,
   * one line each, named with two decimals as trec_eval's "%3.2f": `iprec_at_recall_0.10`). */
  defaultThresholds?: readonly number[];
  /** Default numbers of a one-line measure taking a list of numbers (`-m set_F.0.5`, `-m utility.1,-1,0,0`,
   * `-m relstring.20`); the line is renamed `set_F_0.5` (the text as given) only when numbers are given. */
  defaultNumbers?: readonly number[];
  /** The measure takes any count of numbers, not exactly as many as `defaultNumbers` (11pt_avg averages over the
   * recall levels given: `-m 11pt_avg.0.2,0.5,0.8`). */
  anyCountOfNumbers?: true;
  /** Takes trec_eval's `name=value` pairs (`-m ndcg.1=3,2=9`: label gains; `rbp.p=0.8`); the line is renamed
   * `ndcg_1=3,2=9` when pairs are given. They reach `compute` as options.pairs and options.gains. */
  takesPairs?: boolean;
  /**
   * One value, or one value per cutoff/threshold (in the order of `parameters`); `parameters` are the cutoffs, the
   * thresholds or the numbers (empty for the rest). A `text` measure returns its string.
   */
  compute(query: RankedQuery, options: MeasureOptions, parameters: readonly number[]): number | number[] | string;
  /** `geometric`: the summary is exp(mean(log(max(value, 0.00001)))) (trec_eval's gm_map, gm_bpref); under -c a
   * query without results counts log(0.00001). Absent: the arithmetic mean (or the sum, for counts). */
  average?: 'geometric';
  /** Under -c, a query the run has no results for scores 0 here (a text measure ''), whatever its placeholder
   * ranking gives: trec_eval zeroes num_ret, utility, relstring, rbp_resid and unj after evaluating its placeholder.
   * It finds them by their line's name, exactly, except unj by prefix: `'unlessRenamed'` for the ones whose line
   * renamed by parameters (`utility_1,-1,0,0`, `rbp_resid_p=0.8`) trec_eval then leaves as computed. */
  zeroWithoutResults?: true | 'unlessRenamed';
  /** false: only the summary line is printed, no per-query lines (trec_eval's gm_map, gm_bpref). */
  perQueryLines?: false;
  /** The summary under -c when trec_eval recounts it from the qrels instead of accumulating the per-query
   * values (its measure's own calc_avg); given every qrels query's label counts. */
  completeSummary?(queries: readonly LabelCounts[]): number;
}

/** trec_eval's default cutoffs of P, recall and ndcg_cut. */
export const standardCutoffs: readonly number[] = [5, 10, 15, 20, 30, 100, 200, 500, 1000];

/** Number of relevant documents in the first `depth` ranks. */
export function relevantInTop(query: RankedQuery, depth: number, relevanceLevel: number): number {
  if (depth <= 0) return 0;
  const counts = relevantCounts(query, relevanceLevel);
  return counts[depth < counts.length ? Math.ceil(depth) : counts.length - 1]!;
}

/**
 * The memory of a per-query array, filled again query after query (viewed `length` long, grown when too small): a
 * new typed array per query was most of the cost of the shared inputs (its memory is allocated outside V8's heap
 * and freed by the collector). A view is valid until the next query's.
 */
export class ReusedFloat64Array {
  private memory = new Float64Array(256);

  view(length: number): Float64Array<ArrayBuffer> {
    if (this.memory.length < length) this.memory = new Float64Array(Math.max(length, this.memory.length * 2));
    return this.memory.subarray(0, length);
  }
}

/** ReusedFloat64Array's Int32Array. */
export class ReusedInt32Array {
  private memory = new Int32Array(256);

  view(length: number): Int32Array<ArrayBuffer> {
    if (this.memory.length < length) this.memory = new Int32Array(Math.max(length, this.memory.length * 2));
    return this.memory.subarray(0, length);
  }
}

// One query's shared inputs are computed once and kept until another query (another RankedQuery object) or
// another relevance level is asked for: evaluate.ts builds one RankedQuery per query and calls every measure on it,
// and all_trec's measures read the relevant count at some rank ~60 times a query.
let countedQuery: RankedQuery | undefined;
let countedLevel = Number.NaN;
let counted = new Int32Array(1);
const countsMemory = new ReusedInt32Array();

/**
 * The relevant documents in the first i ranks, at index i (0 … ranking.length) — a prefix count shared by P,
 * recall, Rprec, success, the set measures and the rest for the same query. Read only.
 */
export function relevantCounts(query: RankedQuery, relevanceLevel: number): Int32Array {
  if (query === countedQuery && relevanceLevel === countedLevel) return counted;
  const ranking = query.ranking;
  const counts = countsMemory.view(ranking.length + 1);
  counts[0] = 0;
  let count = 0;
  for (let i = 0; i < ranking.length; i++) {
    if (ranking[i]! >= relevanceLevel) count++;
    counts[i + 1] = count;
  }
  countedQuery = query;
  countedLevel = relevanceLevel;
  counted = counts;
  return counts;
}
