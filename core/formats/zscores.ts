// trec_eval's -Z zscores file (get_zscores.c): one line per query and measure, `qid measure mean stddev`,
// whitespace-separated; each per-query value v of that measure becomes (v − mean) / stddev.
import { FormatError } from './formatError.ts';
import { readLines } from './lineReader.ts';

export interface Zscore {
  mean: number;
  stddev: number;
}

/** qid (latin1, as the qrels reader keeps it) → measure line name (`P_10`) → its mean and standard deviation. */
export type Zscores = ReadonlyMap<string, ReadonlyMap<string, Zscore>>;

const numberText = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

export async function readZscores(file: string): Promise<Zscores> {
  const zscores = new Map<string, Map<string, Zscore>>();
  await readLines(file, (bytes, start, end, lineNumber) => {
    const text = bytes.toString('latin1', start, end);
    const fields: { text: string; column: number }[] = [];
    for (const match of text.matchAll(/[^ \t\r]+/g)) fields.push({ text: match[0], column: match.index + 1 });
    if (fields.length === 0) return;
    if (fields.length !== 4) {
      const column = fields.length > 4 ? fields[4]!.column : text.length + 1;
      throw new FormatError(
        file,
        lineNumber,
        column,
        `expected 4 fields (qid measure mean stddev), found ${fields.length}`,
      );
    }
    const [qid, measure, mean, stddev] = fields as [
      (typeof fields)[0],
      (typeof fields)[0],
      (typeof fields)[0],
      (typeof fields)[0],
    ];
    for (const [field, what] of [
      [mean, 'mean'],
      [stddev, 'standard deviation'],
    ] as const) {
      if (!numberText.test(field.text)) {
        throw new FormatError(file, lineNumber, field.column, `expected the ${what}, a number; found '${field.text}'`);
      }
    }
    let byMeasure = zscores.get(qid.text);
    if (!byMeasure) {
      byMeasure = new Map();
      zscores.set(qid.text, byMeasure);
    }
    if (byMeasure.has(measure.text)) {
      throw new FormatError(
        file,
        lineNumber,
        measure.column,
        `measure '${measure.text}' of query '${qid.text}' is given twice`,
      );
    }
    byMeasure.set(measure.text, { mean: Number(mean.text), stddev: Number(stddev.text) });
  });
  return zscores;
}
