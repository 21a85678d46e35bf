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

/** A number as trec_eval's atof reads one that is whole (no trailing text): `0.5`, `-1`, `1e-3`, `.25`. */
const numberText = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

function parseNumbers(name: string, text: string, example: string): number[] {
  return text.split(',').map((part) => {
    if (!numberText.test(part)) {
      throw new MeasureSpecError(`measure '${name}': '${part}' is not a number (as in -m ${name}.${example})`);
    }
    return Number(part);
  });
}

/** Thresholds (iprec_at_recall, Rprec_mult): numbers, increasing, none twice. */
function parseThresholds(name: string, text: string): number[] {
  const sorted = parseNumbers(name, text, '0.1,0.5').sort((a, b) => a - b);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i] === sorted[i - 1])
      throw new MeasureSpecError(`measure '${name}': threshold ${sorted[i]} is given twice`);
  }
  return sorted;
}

/** trec_eval's `name=value` pairs: `1=3,2=9` (label gains), `p=0.8` (rbp's persistence). */
function parsePairs(name: string, text: string): Map<string, number> {
  const pairs = new Map<string, number>();
  for (const part of text.split(',')) {
    const equals = part.indexOf('=');
    const key = part.slice(0, equals);
    const value = part.slice(equals + 1);
    if (equals <= 0 || !numberText.test(value)) {
      throw new MeasureSpecError(
        `measure '${name}': '${part}' is not a name=value pair (as in -m ${name}.1=3,2=9 or -m ${name}.p=0.8)`,
      );
    }
    if (pairs.has(key)) throw new MeasureSpecError(`measure '${name}': '${key}' is given twice`);
    pairs.set(key, Number(value));
  }
  return pairs;
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
  // One-line measures given numbers or pairs: the text as typed (it names the line) and what it reads as.
  const given = new Map<string, { text: string; numbers: number[]; pairs?: Map<string, number> }>();
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
      const sets = Object.keys(measureNicknames).join(', ');
      throw new MeasureSpecError(
        knownUnsupportedMeasures.has(name)
          ? `trec_eval measure '${name}' is not computed by qrels-studio (it reads trec_eval's preference or ` +
              `judgment-group qrels, or is experimental); supported: ${supported}`
          : `unknown measure '${name}'; supported: ${supported}, and the sets ${sets}`,
      );
    }
    if (parameters === undefined || parameters === '') {
      if (parameters === '')
        throw new MeasureSpecError(`measure '${name}': nothing after the '.' (as in -m ${name} or -m ${name}.…)`);
      add(name, null);
    } else if (measure.defaultCutoffs) {
      add(name, parseCutoffs(name, parameters));
    } else if (measure.defaultThresholds) {
      add(name, parseThresholds(name, parameters));
    } else if (measure.defaultNumbers || measure.takesPairs) {
      let numbers: number[] = [];
      let pairs: Map<string, number> | undefined;
      if (measure.defaultNumbers) {
        numbers = parseNumbers(name, parameters, measure.defaultNumbers.join(','));
        if (!measure.anyCountOfNumbers && numbers.length !== measure.defaultNumbers.length) {
          throw new MeasureSpecError(
            `measure '${name}' takes ${measure.defaultNumbers.length} number${measure.defaultNumbers.length === 1 ? '' : 's'} ` +
              `(as in -m ${name}.${measure.defaultNumbers.join(',')}); found ${numbers.length}`,
          );
        }
      } else {
        pairs = parsePairs(name, parameters);
      }
      const previous = given.get(name);
      if (previous && previous.text !== parameters) {
        throw new MeasureSpecError(
          `measure '${name}' is given twice with different parameters ('${previous.text}' and '${parameters}')`,
        );
      }
      given.set(name, { text: parameters, numbers, ...(pairs && { pairs }) });
      add(name, null);
    } else {
      throw new MeasureSpecError(`measure '${name}' takes no parameters`);
    }
  }
  const measures = trecMeasures
    .filter((m) => wanted.has(m.name))
    .map((measure): SelectedMeasure => {
      const cutoffs = wanted.get(measure.name);
      const defaults = measure.defaultCutoffs ?? measure.defaultThresholds;
      if (defaults) return { measure, cutoffs: cutoffs ? [...cutoffs].sort((a, b) => a - b) : [...defaults] };
      const parameters = given.get(measure.name);
      if (!parameters) return { measure, cutoffs: measure.defaultNumbers ? [...measure.defaultNumbers] : [] };
      return {
        measure,
        cutoffs: parameters.numbers,
        parameterText: parameters.text,
        ...(parameters.pairs && { pairs: parameters.pairs }),
      };
    });
  return { measures, skipped };
}
