// trec_eval's own test suite (test/fixtures/trec_eval, from its Makefile): its eight checks and the options each one
// gives the evaluation — one list for every path that must print what trec_eval prints (one thread, two threads).
import { join } from 'node:path';
import type { EvaluationOptions } from '../../../core/metrics/evaluate.ts';
import { selectMeasures } from '../../../core/metrics/measureSelection.ts';
import { fixturesDir } from '../../helpers.ts';

export const trecEvalSuite = join(fixturesDir, 'trec_eval');

export interface SuiteCase {
  expected: string;
  qrels: string;
  run: string;
  measures: string[];
  perQuery?: boolean;
  complete?: boolean;
  maxRetrieved?: number;
  relevanceLevel?: number;
}

/** The Makefile's eight checks. */
export const suiteCases: readonly SuiteCase[] = [
  { expected: 'out.test', qrels: 'qrels.test', run: 'results.test', measures: [] },
  { expected: 'out.test', qrels: 'qrels.test.with-comments', run: 'results.test', measures: [] },
  { expected: 'out.comment.test', qrels: 'qrels.comment.test', run: 'results.comment.test', measures: [] },
  { expected: 'out.test.a', qrels: 'qrels.test', run: 'results.test', measures: ['all_trec'] },
  { expected: 'out.test.aq', qrels: 'qrels.test', run: 'results.test', measures: ['all_trec'], perQuery: true },
  {
    expected: 'out.test.aqc',
    qrels: 'qrels.test',
    run: 'results.trunc',
    measures: ['all_trec'],
    perQuery: true,
    complete: true,
  },
  {
    expected: 'out.test.aqcM',
    qrels: 'qrels.test',
    run: 'results.trunc',
    measures: ['all_trec'],
    perQuery: true,
    complete: true,
    maxRetrieved: 100,
  },
  {
    expected: 'out.test.aql',
    qrels: 'qrels.rel_level',
    run: 'results.test',
    measures: ['all_trec', 'relstring.20'],
    perQuery: true,
    relevanceLevel: 2,
  },
];

/** The evaluation options of a check (trec_eval's defaults where it gives none). */
export function suiteOptions(
  c: Pick<SuiteCase, 'measures' | 'complete' | 'maxRetrieved' | 'relevanceLevel'>,
): EvaluationOptions {
  return {
    measures: selectMeasures(c.measures).measures,
    relevanceLevel: c.relevanceLevel ?? 1,
    maxRetrieved: c.maxRetrieved ?? Number.POSITIVE_INFINITY,
    complete: c.complete ?? false,
  };
}
