// rbp@P and rbp_residual@P from core/metrics/rbp (rbp_eval's reading of the files, its ties, its topics — which it
// lower-cases — and its mean), all persistences asked in one evaluation.
import type { NamedMeasureComputation, NamedMeasureValues } from '../namedMeasureEvaluation.ts';
import { rbpTopicValues } from '../rbp/rbpTopicValues.ts';

export const rbpNamedValues: NamedMeasureComputation = async (files, measures) => {
  const persistences = measures.map((m) => m.parameter!);
  const values = await rbpTopicValues(files.qrels, files.run, persistences, { complete: files.complete });
  const record = (byPersistence: readonly { value: number; residual: number }[]): Record<string, number> => {
    const out: Record<string, number> = {};
    measures.forEach((measure, k) => {
      // valueNames: [rbp@P, rbp_residual@P].
      out[measure.valueNames[0]!] = byPersistence[k]!.value;
      out[measure.valueNames[1]!] = byPersistence[k]!.residual;
    });
    return out;
  };
  const result: NamedMeasureValues = {
    topics: values.topics.map(({ topic, values: byPersistence }) => ({ topic, values: record(byPersistence) })),
    mean: record(values.mean),
  };
  return result;
};
