// Edit distance for "did you mean" suggestions: a misspelt keyword, role or field name is usually within two
// edits of the intended one.

/** Levenshtein distance, giving up (returning `limit + 1`) once it must exceed `limit`. */
export function editDistance(a: string, b: string, limit = 2): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current.push(value);
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length]!;
}

/** The candidates closest to `word` within `limit` edits (all of them when several tie), best first. */
export function closestWords(word: string, candidates: readonly string[], limit = 2): string[] {
  let best = limit + 1;
  let found: string[] = [];
  for (const candidate of new Set(candidates)) {
    if (candidate === word) continue;
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase(), limit);
    if (distance < best) {
      best = distance;
      found = [candidate];
    } else if (distance === best && distance <= limit) {
      found.push(candidate);
    }
  }
  return found;
}
