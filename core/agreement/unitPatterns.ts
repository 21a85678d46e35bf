// Units grouped by their pattern of labels (who gave which category). Every statistic here is a function of how
// many units show each pattern, so it is computed once per distinct pattern — a million labels on a 4-point scale
// by 4 annotators make a few hundred patterns — and a bootstrap sample is just another set of pattern counts.
import type { ReliabilityData } from './reliabilityData.ts';

export interface UnitPatterns {
  /** Annotators (columns of a pattern). */
  width: number;
  /** Categories (the data's `values`). */
  categories: number;
  /** patternCount × width category indices, -1: no label. */
  cells: Int32Array;
  /** patternCount × categories: how many of the pattern's labels are each category. */
  tallies: Int32Array;
  /** Labels per pattern. */
  labelled: Int32Array;
  /** How many units show each pattern. */
  counts: Float64Array;
  /** The pattern of each unit. */
  unitPattern: Int32Array;
  /** Weighted κ orders a pair's categories by the pair's own labels (the data has no scale: ReliabilityData.fromScale). */
  pairCategories: boolean;
}

/** Groups the units of `data` by pattern. */
export function unitPatterns(data: ReliabilityData): UnitPatterns {
  const width = data.annotators.length;
  const categories = data.values.length;
  const units = data.qids.length;
  const unitPattern = new Int32Array(units);
  // A pattern as a number in base categories+1 while that is exact, else as text.
  const numeric = (categories + 1) ** width < 2 ** 52;
  const ids = new Map<number | string, number>();
  const firstUnit: number[] = [];
  for (let u = 0; u < units; u++) {
    const row = u * width;
    let key: number | string;
    if (numeric) {
      key = 0;
      for (let j = 0; j < width; j++) key = key * (categories + 1) + data.cells[row + j]! + 1;
    } else {
      key = data.cells.subarray(row, row + width).join(',');
    }
    let id = ids.get(key);
    if (id === undefined) {
      id = firstUnit.length;
      ids.set(key, id);
      firstUnit.push(u);
    }
    unitPattern[u] = id;
  }
  const count = firstUnit.length;
  const cells = new Int32Array(count * width);
  const tallies = new Int32Array(count * categories);
  const labelled = new Int32Array(count);
  const counts = new Float64Array(count);
  firstUnit.forEach((u, p) => {
    for (let j = 0; j < width; j++) {
      const c = data.cells[u * width + j]!;
      cells[p * width + j] = c;
      if (c >= 0) {
        tallies[p * categories + c]!++;
        labelled[p]!++;
      }
    }
  });
  for (let u = 0; u < units; u++) counts[unitPattern[u]!]!++;
  return { width, categories, cells, tallies, labelled, counts, unitPattern, pairCategories: !data.fromScale };
}
