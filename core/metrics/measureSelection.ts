// Turns trec_eval's -m arguments ("map", "P.5,10", "ndcg_cut.10", "official", "all_trec") into the measures to
// compute, in trec_eval's output order.
import type { SelectedMeasure } from './evaluate.ts';
import { findMeasure, knownUnsupportedMeasures, measureNicknames, trecMeasures } from './registry.ts';

export class MeasureSpecError extends Error {}

export interface MeasureSelection {
  measures: SelectedMeasure[];
  /** trec_eval measures a nickname includes that we do not compute (said once, on stderr). */
  skipped: string[];
}

function parseCutoffs(name: string, text: string): number[] {
  const cutoffs = text.split(',').map((part) => {
    if (!/^\d+$/.test(part) || Number(part) <= 0) {
      throw new MeasureSpecError(
        `measure '${name}': cutoff '${part}' is not a positive integer (as in -m ${name}.5,10)`,
      );
    }
    return Number(part);
  });
  const sorted = [...cutoffs].sort((a, b) => a - b);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i] === sorted[i - 1])
      throw new MeasureSpecError(`measure '${name}': cutoff ${sorted[i]} is given twice`);
  }
  return sorted;
}

/**
 * `specs` are the -m values in command-line order; none selects trec_eval's default ("official"). When several
 * -m name a cutoff measure, the cutoffs given are merged (trec_eval keeps only the first -m's cutoffs).
 */
export function selectMeasures(specs: readonly string[]): MeasureSelection {
  const wanted = new Map<string, Set<number> | null>(); // null = default cutoffs
  const skipped: string[] = [];
  const add = (name: string, cutoffs: number[] | null): void => {
    const previous = wanted.get(name);
    if (cutoffs === null) {
      if (previous === undefined) wanted.set(name, null);
    } else {
      const merged = previous ?? new Set<number>();
      for (const k of cutoffs) merged.add(k);
      wanted.set(name, merged);
    }
  };
  for (const spec of specs.length > 0 ? specs : ['official']) {
    const dot = spec.indexOf('.');
    const name = dot === -1 ? spec : spec.slice(0, dot);
    const parameters = dot === -1 ? undefined : spec.slice(dot + 1);
    const nickname = measureNicknames[name];
    if (nickname) {
      if (parameters !== undefined)
        throw new MeasureSpecError(`'${name}' is a set of measures and takes no parameters`);
      for (const member of nickname.measures) add(member, null);
      if (specs.length > 0) skipped.push(...nickname.unsupported.filter((m) => !skipped.includes(m)));
      continue;
    }
    const measure = findMeasure(name);
    if (!measure) {
      const supported = trecMeasures.map((m) => m.name).join(', ');
      throw new MeasureSpecError(
        knownUnsupportedMeasures.has(name)
          ? `trec_eval measure '${name}' is not computed by qrels-studio; supported: ${supported}`
          : `unknown measure '${name}'; supported: ${supported}, and the sets official and all_trec`,
      );
    }
    if (parameters === undefined) {
      add(name, null);
    } else if (!measure.defaultCutoffs) {
      throw new MeasureSpecError(
        `measure '${name}' takes no parameters here (trec_eval's custom gains such as ndcg.1=3 are not supported)`,
      );
    } else {
      add(name, parseCutoffs(name, parameters));
    }
  }
  const measures = trecMeasures
    .filter((m) => wanted.has(m.name))
    .map((measure) => {
      const cutoffs = wanted.get(measure.name);
      return {
        measure,
        cutoffs: measure.defaultCutoffs
          ? cutoffs
            ? [...cutoffs].sort((a, b) => a - b)
            : [...measure.defaultCutoffs]
          : [],
      };
    });
  return { measures, skipped };
}
