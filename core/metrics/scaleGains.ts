// A study's scale can declare each value's gain in nDCG (`1 "Violates" key "1" gain 0`): the gains `eval --study`
// and the Evaluate view pass to ndcg and ndcg_cut, as `eval --gains` does.
import type { ScaleModel } from '../dsl/model.ts';

/** The gains the scale declares, by value; undefined when it declares none (then nDCG gains the label, as trec_eval). */
export function scaleGains(scale: ScaleModel | undefined): Map<number, number> | undefined {
  const gains = new Map<number, number>();
  for (const entry of scale?.entries ?? []) if (entry.gain !== undefined) gains.set(entry.value, entry.gain);
  return gains.size > 0 ? gains : undefined;
}
