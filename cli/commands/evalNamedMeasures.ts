// eval's measures beyond trec_eval's, asked by name next to trec_eval's (-m map -m err@20 -m rbp@0.8): which -m
// specs are theirs, the diversity qrels ndeval's need (--diversity-qrels FILE), and each run's values added to its
// trec_eval evaluation so the text output and --json print them alike (core/metrics/namedMeasureEvaluation.ts).
import type { RunEvaluation } from '../../core/metrics/evaluate.ts';
import { evaluateNamedMeasures, withNamedValues } from '../../core/metrics/namedMeasureEvaluation.ts';
import { type NamedMeasure, NamedMeasureError, splitNamedMeasureSpecs } from '../../core/metrics/namedMeasures.ts';
import { UsageError } from '../cliContext.ts';

export const namedMeasuresUsage =
  '  -m err@K ndcg_gd@K (gdeval)  rbp@P, with rbp_residual@P (rbp_eval)  alpha_ndcg@K err_ia@K nerr_ia@K\n' +
  '      alpha_dcg@K p_ia@K strec@K (K = 5, 10, 20) nrbp nnrbp map_ia (ndeval, with --diversity-qrels FILE)\n';

/** `--diversity-qrels FILE` taken out of the arguments (the rest go to eval's own parser). */
export function takeDiversityQrels(args: readonly string[]): { args: string[]; diversityQrels?: string } {
  const at = args.indexOf('--diversity-qrels');
  if (at === -1 || args.slice(0, at).includes('--')) return { args: [...args] };
  const file = args[at + 1];
  if (file === undefined || file.startsWith('-')) throw new UsageError('--diversity-qrels needs a file');
  const rest = [...args.slice(0, at), ...args.slice(at + 2)];
  if (rest.includes('--diversity-qrels')) throw new UsageError('--diversity-qrels is given twice');
  return { args: rest, diversityQrels: file };
}

/** The named measures among the trec_eval-side -m specs, and the specs left for trec_eval's selection. */
export function namedMeasuresOf(specs: readonly string[]): { measures: NamedMeasure[]; rest: string[] } {
  try {
    const { named, rest } = splitNamedMeasureSpecs(specs);
    return { measures: named, rest };
  } catch (error) {
    if (error instanceof NamedMeasureError) throw new UsageError(error.message);
    throw error;
  }
}

/** `evaluation` with the named measures' values of the same run (unchanged when none is asked). */
export async function addNamedMeasures(
  evaluation: RunEvaluation,
  measures: readonly NamedMeasure[],
  files: { qrels: string; run: string; diversityQrels?: string; complete: boolean },
): Promise<RunEvaluation> {
  if (measures.length === 0) return evaluation;
  try {
    return withNamedValues(evaluation, measures, await evaluateNamedMeasures(files, measures));
  } catch (error) {
    if (error instanceof NamedMeasureError) {
      const hint = files.diversityQrels === undefined && /diversity qrels/.test(error.message);
      throw new UsageError(hint ? `${error.message}: give --diversity-qrels FILE` : error.message);
    }
    throw error;
  }
}
