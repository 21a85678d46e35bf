// The key a quick fix proposes when a scale key is unusable (a navigation key, two characters): the value's own
// digit when it is free, else the first free digit, else the first free letter.
import type { ScaleEntry, ScaleStatement } from '../ast.ts';
import { navigationKeys } from '../keywords.ts';

export function freeKey(scale: ScaleStatement, entry: ScaleEntry): string | undefined {
  const used = new Set(scale.entries.filter((e) => e !== entry && e.key).map((e) => e.key!.value));
  const candidates = [entry.value.text, ...'0123456789abcdefghilmopqrstvwxyz'];
  return candidates.find((k) => [...k].length === 1 && !used.has(k) && !navigationKeys.includes(k));
}
