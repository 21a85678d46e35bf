// Every trec_eval measure Qrels Studio computes, in trec_eval's own order (measures.c), which is also the order
// of the output lines. Adding a measure: one module in measures/ and one line here.
import { averagePrecision } from './measures/averagePrecision.ts';
import { averagePrecisionCut } from './measures/averagePrecisionCut.ts';
import { binaryGain } from './measures/binaryGain.ts';
import { bpref } from './measures/bpref.ts';
import { discountedCumulativeGain } from './measures/discountedCumulativeGain.ts';
import { elevenPointAverage } from './measures/elevenPointAverage.ts';
import { geometricMeanAveragePrecision } from './measures/geometricMeanAveragePrecision.ts';
import { geometricMeanBpref } from './measures/geometricMeanBpref.ts';
import { idealDiscountedCumulativeGain } from './measures/idealDiscountedCumulativeGain.ts';
import { inferredAveragePrecision } from './measures/inferredAveragePrecision.ts';
import { interpolatedPrecisionAtRecall } from './measures/interpolatedPrecisionAtRecall.ts';
import { ndcg } from './measures/ndcg.ts';
import { ndcgAtRelevant } from './measures/ndcgAtRelevant.ts';
import { ndcgAtRLevels } from './measures/ndcgAtRLevels.ts';
import { ndcgCut } from './measures/ndcgCut.ts';
import { normalizedGain } from './measures/normalizedGain.ts';
import { numNonrelJudgedRet } from './measures/numNonrelJudgedRet.ts';
import { numQ } from './measures/numQ.ts';
import { numRel } from './measures/numRel.ts';
import { numRelRet } from './measures/numRelRet.ts';
import { numRet } from './measures/numRet.ts';
import { precision } from './measures/precision.ts';
import { rankBiasedPrecision } from './measures/rankBiasedPrecision.ts';
import { rankBiasedPrecisionResidual } from './measures/rankBiasedPrecisionResidual.ts';
import { recall } from './measures/recall.ts';
import { reciprocalRank } from './measures/reciprocalRank.ts';
import { relativePrecision } from './measures/relativePrecision.ts';
import { relevanceString } from './measures/relevanceString.ts';
import { rPrecision } from './measures/rPrecision.ts';
import { rPrecisionMultiples } from './measures/rPrecisionMultiples.ts';
import { runid } from './measures/runid.ts';
import { setAveragePrecision } from './measures/setAveragePrecision.ts';
import { setF } from './measures/setF.ts';
import { setPrecision } from './measures/setPrecision.ts';
import { setRecall } from './measures/setRecall.ts';
import { setRelativePrecision } from './measures/setRelativePrecision.ts';
import { success } from './measures/success.ts';
import { unjudged } from './measures/unjudged.ts';
import { utility } from './measures/utility.ts';
import type { TrecMeasure } from './trecMeasure.ts';

export const trecMeasures: readonly TrecMeasure[] = [
  runid,
  numQ,
  numRet,
  numRel,
  numRelRet,
  averagePrecision,
  geometricMeanAveragePrecision,
  rPrecision,
  bpref,
  reciprocalRank,
  interpolatedPrecisionAtRecall,
  precision,
  relevanceString,
  recall,
  inferredAveragePrecision,
  geometricMeanBpref,
  rPrecisionMultiples,
  utility,
  elevenPointAverage,
  binaryGain,
  normalizedGain,
  discountedCumulativeGain,
  idealDiscountedCumulativeGain,
  ndcg,
  ndcgAtRelevant,
  ndcgAtRLevels,
  ndcgCut,
  averagePrecisionCut,
  relativePrecision,
  success,
  setPrecision,
  setRelativePrecision,
  setRecall,
  setAveragePrecision,
  setF,
  numNonrelJudgedRet,
  // trec_eval lists its preference and judgment-group measures here (they read other qrels formats, -R).
  rankBiasedPrecision,
  rankBiasedPrecisionResidual,
  unjudged,
];

/** trec_eval's measure nicknames (measures.c); `unsupported` lists members Qrels Studio does not compute. */
export const measureNicknames: Record<string, { measures: readonly string[]; unsupported: readonly string[] }> = {
  official: {
    measures: [
      'runid',
      'num_q',
      'num_ret',
      'num_rel',
      'num_rel_ret',
      'map',
      'gm_map',
      'Rprec',
      'bpref',
      'recip_rank',
      'iprec_at_recall',
      'P',
    ],
    unsupported: [],
  },
  set: {
    measures: [
      'runid',
      'num_q',
      'num_ret',
      'num_rel',
      'num_rel_ret',
      'utility',
      'set_P',
      'set_recall',
      'set_relative_P',
      'set_map',
      'set_F',
    ],
    unsupported: [],
  },
  all_trec: {
    // trec_names: every measure above except dcg and ideal_dcg, which trec_eval computes only when named.
    measures: trecMeasures.map((m) => m.name).filter((name) => name !== 'dcg' && name !== 'ideal_dcg'),
    unsupported: [],
  },
};

/** trec_eval's preference-qrels measures (-R prefs / qrels_prefs) and judgment-group measures (-R qrels_jg). */
const preferenceMeasures = [
  'prefs_num_prefs_poss',
  'prefs_num_prefs_ful',
  'prefs_num_prefs_ful_ret',
  'prefs_simp',
  'prefs_pair',
  'prefs_avgjg',
  'prefs_avgjg_Rnonrel',
  'prefs_simp_ret',
  'prefs_pair_ret',
  'prefs_avgjg_ret',
  'prefs_avgjg_Rnonrel_ret',
  'prefs_simp_imp',
  'prefs_pair_imp',
  'prefs_avgjg_imp',
];

/** trec_eval measure names and nicknames that exist but Qrels Studio does not compute (for a clear message): the
 * ones that need trec_eval's other qrels formats (-R), and the experimental ndcg_p and yaap it leaves out of
 * all_trec. */
export const knownUnsupportedMeasures: ReadonlySet<string> = new Set([
  ...preferenceMeasures,
  'map_avgjg',
  'P_avgjg',
  'Rprec_mult_avgjg',
  'ndcg_p',
  'yaap',
  'all_prefs',
  'prefs',
  'qrels_jg',
]);

export function findMeasure(name: string): TrecMeasure | undefined {
  return trecMeasures.find((m) => m.name === name);
}
