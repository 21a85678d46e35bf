// Two runs' trec_eval measures compared query by query (`qrels-studio eval --compare`): for each measure, the
// paired randomisation test and the paired t-test (significance.ts) over the queries both runs were evaluated on —
// every qrels query, since a query a run lacks is an error, or with -c a zero. The counts (num_ret, num_rel,
// num_rel_ret) are not tested: they are sums, not scores (num_rel is the same for every run).
import type { RunEvaluation } from './evaluate.ts';
import { type PairedTest, pairedTests } from './significance.ts';

export function compareRunEvaluations(
  a: RunEvaluation,
  b: RunEvaluation,
  options: { samples?: number; seed?: number } = {},
): Record<string, PairedTest> {
  const right = new Map(b.queries.map((q) => [q.qid, new Map(q.values.map((v) => [v.name, v.value]))]));
  const paired = new Map<string, { a: number[]; b: number[] }>();
  for (const query of a.queries) {
    const values = right.get(query.qid);
    if (!values) continue;
    for (const { name, value, integer } of query.values) {
      if (integer) continue;
      const other = values.get(name);
      if (other === undefined) continue;
      const pair = paired.get(name) ?? { a: [], b: [] };
      pair.a.push(value);
      pair.b.push(other);
      paired.set(name, pair);
    }
  }
  const tests: Record<string, PairedTest> = {};
  for (const [name, pair] of paired) tests[name] = pairedTests(pair.a, pair.b, options);
  return tests;
}
