// ndcg_gd@K and err@K from core/metrics/gdeval (gdeval.pl's reading of the files, its tie order, its topics and its
// mean), one gdeval evaluation per depth asked.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { FileReadError } from '../../formats/lineReader.ts';
import { evaluateGdeval, readGdevalQrels, readGdevalRun } from '../gdeval/gdevalEvaluation.ts';
import { gdevalMaxGrade } from '../gdeval/gdevalMeasures.ts';
import type { NamedMeasureComputation, NamedMeasureValues } from '../namedMeasureEvaluation.ts';

/** A file's bytes as latin1 text (gdeval.pl reads bytes), gunzipped when gzip's magic number opens it. */
function readLatin1(file: string): string {
  try {
    const bytes = readFileSync(file);
    return (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString('latin1');
  } catch (error) {
    throw new FileReadError(file, error);
  }
}

export const gdevalNamedValues: NamedMeasureComputation = async (files, measures) => {
  const judgments = readGdevalQrels(readLatin1(files.qrels), files.qrels, gdevalMaxGrade);
  const run = readGdevalRun(readLatin1(files.run), files.run);
  const result: NamedMeasureValues = { topics: [], mean: {} };
  const rowOf = new Map<string, Record<string, number>>();
  for (const depth of [...new Set(measures.map((m) => m.parameter!))]) {
    const report = evaluateGdeval(judgments, run, { depth, complete: files.complete, maxGrade: gdevalMaxGrade });
    const asked = measures.filter((m) => m.parameter === depth);
    const measureValue = (family: string, values: { ndcg: number; err: number }) =>
      family === 'err' ? values.err : values.ndcg;
    for (const row of report.topics) {
      let values = rowOf.get(row.topic);
      if (!values) {
        values = {};
        rowOf.set(row.topic, values);
        result.topics.push({ topic: row.topic, values });
      }
      for (const m of asked) values[m.name] = measureValue(m.family.name, row);
    }
    for (const m of asked) result.mean[m.name] = measureValue(m.family.name, report.mean);
  }
  return result;
};
