// Agreement on 1,000,000 labels: 250,000 (query, document) units each labelled 0–3 by 4 annotators, in a
// long-format label file (the one `export --labels` writes). Timed: reading the file into reliability data (the
// baseline), then Krippendorff's ordinal α plus every pairwise Cohen's κ (6 pairs × unweighted, linear, quadratic),
// then the whole `agree` summary (percent agreement, α at four levels, Fleiss' κ, every pair). Target: α + κ < 1 s.
// Runs on its own too: `node scripts/benchAgreement.ts`.
import { once } from 'node:events';
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { summariseAgreement } from '../core/agreement/agreementSummary.ts';
import { seededRandom } from '../core/agreement/bootstrap.ts';
import { readLabelFile } from '../core/agreement/labelFile.ts';
import { cohenKappa, kappaWeightings } from '../core/agreement/statistics/cohenKappa.ts';
import { krippendorffAlpha } from '../core/agreement/statistics/krippendorffAlpha.ts';
import { unitPatterns } from '../core/agreement/unitPatterns.ts';

export interface AgreementBench {
  labels: number;
  readSeconds: number;
  /** α ordinal and all pairwise κ. */
  computeSeconds: number;
  summarySeconds: number;
  alphaOrdinal: number | null;
}

const units = 250_000;
const annotators = ['ann', 'ben', 'cat', 'dan'];

async function writeLabels(file: string): Promise<void> {
  const next = seededRandom(20261122);
  const out = createWriteStream(file);
  let chunk = 'query_id,doc_id,annotator,label\n';
  for (let u = 0; u < units; u++) {
    // A true grade per unit; each annotator is off by one a quarter of the time.
    const truth = Math.floor(next() * 4);
    for (const annotator of annotators) {
      const r = next();
      const label = r < 0.125 ? Math.max(0, truth - 1) : r < 0.25 ? Math.min(3, truth + 1) : truth;
      chunk += `q${u >> 5},d${u},${annotator},${label}\n`;
    }
    if (chunk.length > 1 << 16) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function benchAgreement(dataDir: string, repetitions = 3): Promise<AgreementBench> {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'labels-1m.csv');
  if (!existsSync(file)) await writeLabels(file);
  const reads: number[] = [];
  const computes: number[] = [];
  const summaries: number[] = [];
  let alphaOrdinal: number | null = null;
  let labels = 0;
  for (let i = 0; i < repetitions; i++) {
    let start = performance.now();
    const { data, labels: read } = await readLabelFile(file, { scale: [0, 1, 2, 3] });
    reads.push((performance.now() - start) / 1000);
    labels = read;
    start = performance.now();
    const patterns = unitPatterns(data);
    alphaOrdinal = krippendorffAlpha(patterns, 'ordinal', data.values).value;
    for (let a = 0; a < data.annotators.length; a++) {
      for (let b = a + 1; b < data.annotators.length; b++) {
        for (const weighting of kappaWeightings) cohenKappa(patterns, a, b, weighting);
      }
    }
    computes.push((performance.now() - start) / 1000);
    start = performance.now();
    summariseAgreement(data);
    summaries.push((performance.now() - start) / 1000);
  }
  return {
    labels,
    readSeconds: median(reads),
    computeSeconds: median(computes),
    summarySeconds: median(summaries),
    alphaOrdinal,
  };
}

if (import.meta.main) {
  const bench = await benchAgreement(join(import.meta.dirname, '..', 'bench-data'));
  console.log(JSON.stringify(bench, null, 2));
}
