// A judge asked n times (votes n, temperature > 0) gives n samples of one noisy assessor; the majority is its
// label and the spread shows how sure it was, so a reviewer can look at split pairs first. Votes that failed to
// parse are counted, never read as a label.

export interface VoteSummary {
  label: number | null;
  /** label → count over parsed votes */
  spread: Record<string, number>;
  parsed: number;
  failed: number;
  /** share of parsed votes for the winning label, 0–1; undefined when none parsed */
  confidence?: number;
}

/**
 * Majority of the parsed votes (null is a vote that failed to parse). A tie goes to the LOWER label — the same
 * conservative rule as the store's majority label source (core/store/labelSources.ts): a split never makes a
 * document more relevant than one of its votes found it. No parsed vote → label null.
 */
export function summariseVotes(labels: readonly (number | null)[]): VoteSummary {
  const counts = new Map<number, number>();
  let failed = 0;
  for (const label of labels) {
    if (label === null) failed++;
    else counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  const parsed = labels.length - failed;
  let winner: { label: number; count: number } | undefined;
  for (const [label, count] of counts)
    if (!winner || count > winner.count || (count === winner.count && label < winner.label)) winner = { label, count };
  const spread: Record<string, number> = {};
  for (const [label, count] of [...counts].sort((a, b) => a[0] - b[0])) spread[String(label)] = count;
  return {
    label: winner?.label ?? null,
    spread,
    parsed,
    failed,
    ...(winner && { confidence: winner.count / parsed }),
  };
}
