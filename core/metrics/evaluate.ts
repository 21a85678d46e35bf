// Evaluates one run against qrels the way trec_eval 10 does (form_res_rels.c + trec_eval.c):
// - each query's retrieved documents are ranked by score descending, ties broken by docid compared byte by byte,
//   descending (the rank column is ignored), then cut to the first -M;
// - a docid retrieved twice within those is an error, as is a qrels query with no results unless -c, in which
//   case it is evaluated as an empty ranking (every measure 0, num_rel still counted);
// - queries only in the run are ignored; averages are sums over the qrels queries in qid byte order, divided by
//   the number of queries evaluated.
import { FormatError } from '../formats/formatError.ts';
import { compareQueryIds, displayQueryId } from '../formats/queryIdCache.ts';
import type { Qrels } from '../formats/trecQrels.ts';
import { duplicateDocumentError, type Run } from '../formats/trecRun.ts';
import type { RankedQuery, TrecMeasure } from './trecMeasure.ts';

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
}

export interface MeasureValue {
  name: string;
  value: number;
  integer: boolean;
}

export interface QueryEvaluation {
  /** The qid as written in the files (UTF-8 decoded). */
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

/** Entries of the run grouped by qrels query: entries of query q are order[starts[q] … starts[q+1]). */
function groupByQuery(run: Run, queryCount: number): { order: Int32Array; starts: Int32Array } {
  const documents = run.documents;
  const starts = new Int32Array(queryCount + 1);
  for (let entry = 0; entry < documents.count; entry++) starts[documents.group(entry) + 1]!++;
  for (let q = 0; q < queryCount; q++) starts[q + 1]! += starts[q]!;
  const fill = starts.slice(0, queryCount);
  const order = new Int32Array(documents.count);
  for (let entry = 0; entry < documents.count; entry++) order[fill[documents.group(entry)]!++] = entry;
  return { order, starts };
}

export function evaluateRun(qrels: Qrels, run: Run, options: EvaluationOptions): RunEvaluation {
  const queryCount = qrels.queries.length;
  const { order, starts } = groupByQuery(run, queryCount);
  const { scores, judgments, documents } = run;
  // trec_eval's comp_sim_docno: score descending, then docid descending (strcmp).
  const compare = (a: number, b: number): number => scores[b]! - scores[a]! || documents.compareKeys(b, a);

  const duplicatesByQuery = new Map<number, { entry: number; first: number }[]>();
  for (const duplicate of run.duplicates) {
    const q = documents.group(duplicate.entry);
    const list = duplicatesByQuery.get(q);
    if (list) list.push(duplicate);
    else duplicatesByQuery.set(q, [duplicate]);
  }

  const queryOrder = qrels.queries
    .map((_, q) => q)
    .sort((a, b) => compareQueryIds(qrels.queries[a]!.qid, qrels.queries[b]!.qid));
  const names = options.measures.map(valueNames);
  const sums = options.measures.map((_, m) => new Float64Array(names[m]!.length));
  const queries: QueryEvaluation[] = [];
  const measureOptions = { relevanceLevel: options.relevanceLevel };
  let evaluated = 0;

  for (const q of queryOrder) {
    const query = qrels.queries[q]!;
    const begin = starts[q]!;
    const end = starts[q + 1]!;
    if (begin === end && !options.complete) {
      throw new FormatError(
        qrels.file,
        query.firstLine,
        1,
        `query '${displayQueryId(query.qid)}' is judged here but has no results in ${run.file}. ` +
          'Evaluating only the queries a run answered would inflate its scores: add results for it, remove it ' +
          'from the qrels, or pass -c to count it as 0 (as trec_eval -c does).',
      );
    }
    let ranked: ArrayLike<number> = order.subarray(begin, end);
    for (let i = begin + 1; i < end; i++) {
      if (compare(order[i - 1]!, order[i]!) > 0) {
        ranked = Array.from(order.subarray(begin, end)).sort(compare);
        break;
      }
    }
    const depth = Math.min(ranked.length, options.maxRetrieved);
    const duplicates = duplicatesByQuery.get(q);
    if (duplicates) checkDuplicates(run, ranked, depth, duplicates, query.qid);

    const ranking = new Int32Array(depth);
    for (let i = 0; i < depth; i++) ranking[i] = judgments[ranked[i]!]!;
    let numRel = 0;
    for (let label = Math.max(options.relevanceLevel, 0); label < query.labelCounts.length; label++) {
      numRel += query.labelCounts[label]!;
    }
    const rankedQuery: RankedQuery = { ranking, numRel, labelCounts: query.labelCounts };

    const values: MeasureValue[] = [];
    options.measures.forEach((selected, m) => {
      const { measure } = selected;
      if (measure.kind === 'runid' || measure.kind === 'numQ') return;
      const computed = measure.compute(rankedQuery, measureOptions, selected.cutoffs);
      const list = typeof computed === 'number' ? [computed] : computed;
      const sum = sums[m]!;
      list.forEach((value, i) => {
        sum[i]! += value;
        values.push({ name: names[m]![i]!, value, integer: measure.kind === 'count' });
      });
    });
    queries.push({ qid: displayQueryId(query.qid), values });
    evaluated++;
  }

  const all: MeasureValue[] = [];
  options.measures.forEach((selected, m) => {
    const { measure } = selected;
    if (measure.kind === 'runid') return;
    if (measure.kind === 'numQ') {
      all.push({ name: measure.name, value: evaluated, integer: true });
      return;
    }
    names[m]!.forEach((name, i) => {
      const sum = sums[m]![i]!;
      all.push(
        measure.kind === 'count'
          ? { name, value: sum, integer: true }
          : { name, value: evaluated > 0 ? sum / evaluated : 0, integer: false },
      );
    });
  });
  return { runid: run.runid, file: run.file, queries, all };
}

function checkDuplicates(
  run: Run,
  ranked: ArrayLike<number>,
  depth: number,
  duplicates: { entry: number; first: number }[],
  qid: string,
): void {
  // trec_eval checks for duplicates after -M truncation: a repeat below the cut is not an error.
  const evaluated = new Set<number>();
  for (let i = 0; i < depth; i++) evaluated.add(ranked[i]!);
  const occurrencesByDocid = new Map<number, number[]>();
  for (const { entry, first } of duplicates) {
    const list = occurrencesByDocid.get(first) ?? [first];
    list.push(entry);
    occurrencesByDocid.set(first, list);
  }
  let report: [number, number] | undefined;
  for (const occurrences of occurrencesByDocid.values()) {
    const kept = occurrences.filter((e) => evaluated.has(e)).sort((a, b) => run.lines[a]! - run.lines[b]!);
    if (kept.length >= 2 && (!report || run.lines[kept[1]!]! < run.lines[report[0]]!)) report = [kept[1]!, kept[0]!];
  }
  if (report) throw duplicateDocumentError(run, report[0], report[1], displayQueryId(qid));
}
