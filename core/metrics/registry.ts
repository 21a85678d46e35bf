// Every trec_eval measure Qrels Studio computes, in trec_eval's own order (measures.c), which is also the order
// of the output lines. Adding a measure: one module in measures/ and one line here.
import { averagePrecision } from './measures/averagePrecision.ts';
import { bpref } from './measures/bpref.ts';
import { ndcg } from './measures/ndcg.ts';
import { ndcgCut } from './measures/ndcgCut.ts';
import { numQ } from './measures/numQ.ts';
import { numRel } from './measures/numRel.ts';
import { numRelRet } from './measures/numRelRet.ts';
import { numRet } from './measures/numRet.ts';
import { precision } from './measures/precision.ts';
import { recall } from './measures/recall.ts';
import { reciprocalRank } from './measures/reciprocalRank.ts';
import { rPrecision } from './measures/rPrecision.ts';
import { runid } from './measures/runid.ts';
import type { TrecMeasure } from './trecMeasure.ts';

export const trecMeasures: readonly TrecMeasure[] = [
  runid,
  numQ,
  numRet,
  numRel,
  numRelRet,
  averagePrecision,
  rPrecision,
  bpref,
  reciprocalRank,
  precision,
  recall,
  ndcg,
  ndcgCut,
];

/** trec_eval's measure nicknames, restricted to the measures above (the rest are listed in `unsupported`). */
export const measureNicknames: Record<string, { measures: readonly string[]; unsupported: readonly string[] }> = {
  official: {
    measures: ['runid', 'num_q', 'num_ret', 'num_rel', 'num_rel_ret', 'map', 'Rprec', 'bpref', 'recip_rank', 'P'],
    unsupported: ['gm_map', 'iprec_at_recall'],
  },
  all_trec: {
    measures: trecMeasures.map((m) => m.name),
    unsupported: [
      'gm_map',
      'iprec_at_recall',
      'relstring',
      'infAP',
      'gm_bpref',
      'utility',
      '11pt_avg',
      'ideal_dcg',
      'dcg',
      'relative_P',
      'Rprec_mult',
      'success',
      'map_cut',
      'ndcg_rel',
      'Rndcg',
      'binG',
      'G',
      'set_P',
      'set_recall',
      'set_relative_P',
      'set_map',
      'set_F',
      'num_nonrel_judged_ret',
    ],
  },
};

/** trec_eval measure names that exist but Qrels Studio does not compute (for a clear message). */
export const knownUnsupportedMeasures: ReadonlySet<string> = new Set([
  ...measureNicknames.all_trec!.unsupported,
  'rbp',
  'rbp_resid',
  'yaap',
  'unj',
  'ndcg_p',
  'P_avgjg',
  'map_avgjg',
  'Rprec_mult_avgjg',
]);

export function findMeasure(name: string): TrecMeasure | undefined {
  return trecMeasures.find((m) => m.name === name);
}
