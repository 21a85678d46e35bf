// Evaluates one run against qrels the way trec_eval 10 does (form_res_rels.c + trec_eval.c):
// - each query's retrieved documents are ranked by score descending, ties broken by docid compared byte by byte,
//   descending (the rank column is ignored), then cut to the first -M;
// - a docid retrieved twice within those is an error, as is a qrels query with no results unless -c, in which
//   case it is evaluated as an empty ranking (every measure 0, num_rel still counted), not as trec_eval's
//   one-document ranking of its placeholder docid 'ceci_nest_pas_un_docno', which a qrels could judge;
// - queries only in the run are ignored; averages are sums over the qrels queries in qid byte order, divided by
//   the number of queries evaluated, except num_rel under -c (see measures/numRel.ts).

import type { ByteKeyStore } from '../formats/byteKeyTable.ts';
import { FormatError } from '../formats/formatError.ts';
import { compareQueryIds, messageQueryId } from '../formats/queryIdCache.ts';
import type { Qrels, QrelsQuery } from '../formats/trecQrels.ts';
import { type RunQuery, readRunByQuery } from '../formats/trecRun.ts';
import { judgedAtLeast, type RankedQuery, type TrecMeasure } from './trecMeasure.ts';

export interface SelectedMeasure {
  measure: TrecMeasure;
  /** The cutoffs to report, increasing (empty for measures without cutoffs). */
  cutoffs: readonly number[];
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
}

export interface MeasureValue {
  name: string;
  value: number;
  integer: boolean;
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
}

function valueNames(selected: SelectedMeasure): string[] {
  const { measure, cutoffs } = selected;
  return measure.defaultCutoffs ? cutoffs.map((k) => `${measure.name}_${k}`) : [measure.name];
}

/** Reads a run file and evaluates it against the qrels; `name` is the run in messages and the result (the file). */
export async function evaluateRunFile(
  qrels: Qrels,
  runFile: string,
  options: EvaluationOptions,
  name = runFile,
): Promise<RunEvaluation> {
  if (qrels.queries.length === 0) {
    // trec_eval stops too ("No queries with both results and relevance info"); averages over nothing mean nothing.
    throw new FormatError(qrels.file, 1, 1, 'the qrels file has no judgments (it is empty or only comments)');
  }
  const names = options.measures.map(valueNames);
  const measureOptions = { relevanceLevel: options.relevanceLevel, ...(options.gains && { gains: options.gains }) };
  const repeats = new RepeatFinder();
  const perQuery: (number[] | undefined)[] = new Array(qrels.queries.length);

  const evaluateQuery = (query: QrelsQuery, ranking: Int32Array): number[] => {
    const numRel = judgedAtLeast(query.labelCounts, options.relevanceLevel);
    const ranked: RankedQuery = { ranking, numRel, labelCounts: query.labelCounts };
    const values: number[] = [];
    for (const { measure, cutoffs } of options.measures) {
      if (measure.kind === 'runid' || measure.kind === 'numQ') continue;
      const computed = measure.compute(ranked, measureOptions, cutoffs);
      if (typeof computed === 'number') values.push(computed);
      else values.push(...computed);
    }
    return values;
  };

  const summary = await readRunByQuery(runFile, qrels, (runQuery) => {
    const query = qrels.queries[runQuery.query]!;
    perQuery[runQuery.query] = evaluateQuery(query, rankQuery(runQuery, query, options.maxRetrieved, repeats, runFile));
  });

  const queryOrder = qrels.queries
    .map((_, q) => q)
    .sort((a, b) => compareQueryIds(qrels.queries[a]!.qid, qrels.queries[b]!.qid));
  const valueMeta = options.measures.flatMap((selected, m) =>
    selected.measure.kind === 'runid' || selected.measure.kind === 'numQ'
      ? []
      : names[m]!.map((name) => ({
          name,
          integer: selected.measure.kind === 'count',
          completeSummary: selected.measure.completeSummary,
        })),
  );
  const sums = new Float64Array(valueMeta.length);
  const queries: QueryEvaluation[] = [];
  for (const q of queryOrder) {
    const query = qrels.queries[q]!;
    let values = perQuery[q];
    if (!values) {
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
      values = evaluateQuery(query, new Int32Array(0));
    }
    // Summed in qid order, as trec_eval accumulates, so that averages round the same way.
    for (let i = 0; i < values.length; i++) sums[i]! += values[i]!;
    queries.push({
      qid: query.qid,
      values: values.map((value, i) => ({ name: valueMeta[i]!.name, value, integer: valueMeta[i]!.integer })),
    });
  }

  // Counts are summed, the rest averaged over every qrels query (there is at least one). num_q precedes every
  // valued measure in trec_eval's order, and runid is printed apart.
  const evaluated = queryOrder.length;
  const all: MeasureValue[] = options.measures.some((s) => s.measure.kind === 'numQ')
    ? [{ name: 'num_q', value: evaluated, integer: true }]
    : [];
  valueMeta.forEach(({ name, integer, completeSummary }, i) => {
    const value =
      options.complete && completeSummary
        ? completeSummary(qrels.queries.map((query) => query.labelCounts))
        : integer
          ? sums[i]!
          : sums[i]! / evaluated;
    all.push({ name, value, integer });
  });
  return { runid: summary.runid, file: name, queries, all };
}

/**
 * trec_eval's ranking of one query (form_res_rels.c): score descending, ties by docid descending (strcmp), cut
 * to the first `maxRetrieved`, then a docid occurring twice among those is an error. Returns the judgments in
 * rank order.
 */
function rankQuery(
  runQuery: RunQuery,
  query: QrelsQuery,
  maxRetrieved: number,
  repeats: RepeatFinder,
  runFile: string,
): Int32Array {
  const count = runQuery.count;
  const scores = runQuery.scores.data;
  const documents = runQuery.documents;
  const compare = (a: number, b: number): number => scores[b]! - scores[a]! || documents.compareKeys(b, a);
  let order: ArrayLike<number> | undefined;
  for (let i = 1; i < count; i++) {
    if (compare(i - 1, i) > 0) {
      order = Array.from({ length: count }, (_, k) => k).sort(compare);
      break;
    }
  }
  const depth = Math.min(count, maxRetrieved);
  const duplicates = repeats.find(documents, count);
  if (duplicates.length > 0) checkDuplicates(runQuery, order, depth, duplicates, query, runFile);
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
  query: QrelsQuery,
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
  const lines = runQuery.lines.data;
  const columns = runQuery.documentColumns.data;
  throw new FormatError(
    runFile,
    lines[later]!,
    columns[later]!,
    `document '${runQuery.documents.keyText(later)}' is retrieved twice for query '${messageQueryId(query.qid)}' ` +
      `(first on line ${lines[first]}); trec_eval refuses duplicate documents in a ranking`,
    { line: lines[first]!, column: columns[first]!, message: 'first retrieval' },
  );
}
