// err_ia@K, nerr_ia@K, alpha_dcg@K, alpha_ndcg@K, p_ia@K, strec@K, nrbp, nnrbp and map_ia from core/metrics/ndeval
// (ndeval's reading of the diversity qrels and the run, its default ranking by the rank column, α = β = 0.5, its
// topics — numbers, so a prefixed or zero-padded topic is named by its number — and its mean), per topic from
// diversityScores, as ndeval.ts's evaluateNdeval rows them.
import { readDiversityQrels } from '../../formats/diversityQrels.ts';
import type { NamedMeasureComputation } from '../namedMeasureEvaluation.ts';
import {
  defaultDiversityParameters,
  diversityColumns,
  diversityScores,
  diversityTopics,
  zeroDiversityScores,
} from '../ndeval/diversityMeasures.ts';
import { numberedJudgments } from '../ndeval/ndeval.ts';
import { readNdevalRun } from '../ndeval/ndevalRun.ts';

export const ndevalNamedValues: NamedMeasureComputation = async (files, measures) => {
  const topics = new Map(
    diversityTopics(numberedJudgments(readDiversityQrels(files.diversityQrels!))).map((t) => [t.topic, t]),
  );
  const run = readNdevalRun(files.run, { traditional: false, depth: 0 });
  // ndeval's column of each measure (their names are the ones namedMeasures.ts gives).
  const columns = measures.map((measure) => {
    const column = diversityColumns.find((c) => c.name === measure.name);
    if (!column) throw new Error(`no ndeval column named ${measure.name}`);
    return { name: measure.name, column };
  });
  // As ndeval: every run topic has a row (one without judgments scores 0); the mean divides by the run topics that
  // have judgments, or with -c by every judged topic; summed in row order so that it rounds as ndeval's.
  let judged = 0;
  const sums = columns.map(() => 0);
  const rows = run.topics.map(({ topic: number, docnos }) => {
    const topic = topics.get(number);
    if (topic) judged++;
    const scores = topic ? diversityScores(topic, docnos, defaultDiversityParameters) : zeroDiversityScores();
    const values: Record<string, number> = {};
    columns.forEach(({ name, column }, i) => {
      values[name] = column.value(scores);
      sums[i]! += values[name];
    });
    return { topic: String(number), values };
  });
  const averaged = files.complete ? topics.size : judged;
  return { topics: rows, mean: Object.fromEntries(columns.map(({ name }, i) => [name, sums[i]! / averaged])) };
};
