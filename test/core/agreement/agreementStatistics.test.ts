// The agreement statistics against published worked examples (Krippendorff 2011; Wikipedia's α, Fleiss and Cohen
// examples), weighted κ worked by hand, properties every coefficient must have (identical coders agree perfectly;
// permuting coders or units changes nothing), degenerate inputs answered with a reason instead of NaN, and a
// reproducible bootstrap.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { summariseAgreement } from '../../../core/agreement/agreementSummary.ts';
import { quantile, seededRandom } from '../../../core/agreement/bootstrap.ts';
import { DuplicateLabelError, ReliabilityBuilder } from '../../../core/agreement/reliabilityData.ts';
import { cohenKappa } from '../../../core/agreement/statistics/cohenKappa.ts';
import { agreementStatistics } from '../../../core/agreement/statistics/registry.ts';
import { unitPatterns } from '../../../core/agreement/unitPatterns.ts';

/** Coders' rows over units (null: missing), as the papers print reliability data. */
function fromRows(rows: (number | null)[][], scale?: number[]) {
  const builder = new ReliabilityBuilder();
  rows.forEach((row, coder) => {
    row.forEach((value, unit) => {
      if (value !== null) builder.add('q', `u${unit + 1}`, `coder${coder + 1}`, value);
    });
  });
  return builder.build(scale);
}

const close = (actual: number | null, expected: number, digits: number, what: string) => {
  assert.ok(actual !== null, `${what} is null`);
  assert.equal(actual.toFixed(digits), expected.toFixed(digits), `${what}: ${actual}`);
};

// Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", example C: 4 observers, 12 units, values 1–5.
const krippendorff2011 = [
  [1, 2, 3, 3, 2, 1, 4, 1, 2, null, null, null],
  [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, null, 3],
  [null, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, null],
  [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, null],
];

test('Krippendorff (2011): α nominal 0.743, ordinal 0.815, interval 0.849, ratio 0.797', () => {
  const { krippendorff } = summariseAgreement(fromRows(krippendorff2011));
  close(krippendorff.nominal, 0.743, 3, 'nominal');
  close(krippendorff.ordinal, 0.815, 3, 'ordinal');
  close(krippendorff.interval, 0.849, 3, 'interval');
  close(krippendorff.ratio, 0.797, 3, 'ratio');
});

test("Wikipedia's Krippendorff's α example: nominal 0.691358, interval 0.810845", () => {
  const rows = [
    [null, null, null, null, null, 3, 4, 1, 2, 1, 1, 3, 3, null, 3],
    [1, null, 2, 1, 3, 3, 4, 3, null, null, null, null, null, null, null],
    [null, null, 2, 1, 3, 4, 4, null, 2, 1, 1, 3, 3, null, 4],
  ];
  const { krippendorff } = summariseAgreement(fromRows(rows));
  close(krippendorff.nominal, 0.691358, 6, 'nominal');
  close(krippendorff.interval, 0.810845, 6, 'interval');
});

test("Fleiss (1971), Wikipedia's table of 10 subjects × 5 categories by 14 raters: κ = 0.210", () => {
  const table = [
    [0, 0, 0, 0, 14],
    [0, 2, 6, 4, 2],
    [0, 0, 3, 5, 6],
    [0, 3, 9, 2, 0],
    [2, 2, 8, 1, 1],
    [7, 7, 0, 0, 0],
    [3, 2, 6, 3, 0],
    [2, 5, 3, 2, 2],
    [6, 5, 2, 1, 0],
    [0, 2, 2, 3, 7],
  ];
  // Fleiss' κ does not know which rater gave which label: hand them out in order.
  const builder = new ReliabilityBuilder();
  table.forEach((counts, subject) => {
    let rater = 0;
    counts.forEach((n, category) => {
      for (let i = 0; i < n; i++) builder.add('q', `s${subject + 1}`, `r${++rater}`, category + 1);
    });
  });
  const { fleiss } = summariseAgreement(builder.build());
  close(fleiss.kappa, 0.21, 3, 'Fleiss κ');
  close(fleiss.kappa, 0.20993, 5, 'Fleiss κ');
  assert.equal(fleiss.n_units, 10);
});

/** Two annotators A and B from (a, b, count) cells. */
function twoCoders(cells: [number, number, number][], scale?: number[]) {
  const builder = new ReliabilityBuilder();
  let unit = 0;
  for (const [a, b, count] of cells) {
    for (let i = 0; i < count; i++) {
      unit++;
      builder.add('q', `d${unit}`, 'A', a);
      builder.add('q', `d${unit}`, 'B', b);
    }
  }
  return builder.build(scale);
}

test("Cohen's κ, Wikipedia's example (20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no): κ = 0.40", () => {
  const { cohen, percent_agreement } = summariseAgreement(
    twoCoders([
      [1, 1, 20],
      [1, 0, 5],
      [0, 1, 10],
      [0, 0, 15],
    ]),
  );
  assert.equal(cohen.length, 1);
  assert.deepEqual([cohen[0]!.a, cohen[0]!.b, cohen[0]!.n, cohen[0]!.kind], ['A', 'B', 50, 'human-human']);
  close(cohen[0]!.unweighted, 0.4, 6, 'κ');
  close(percent_agreement, 0.7, 6, 'percent agreement');
});

test('weighted κ worked by hand: 3 categories, 9 units → unweighted 1/3, linear 0.4, quadratic 6/13', () => {
  // Confusion (A rows × B columns): [2 1 0] [0 1 1] [1 1 2]; marginals A 3 2 4, B 3 3 3.
  // Unweighted: 1 − 4/6. Linear: observed 5, expected 25/3. Quadratic: observed 7, expected 13.
  const data = twoCoders([
    [0, 0, 2],
    [0, 1, 1],
    [1, 1, 1],
    [1, 2, 1],
    [2, 0, 1],
    [2, 1, 1],
    [2, 2, 2],
  ]);
  const [pair] = summariseAgreement(data).cohen;
  close(pair!.unweighted, 1 / 3, 10, 'unweighted');
  close(pair!.linear, 0.4, 10, 'linear');
  close(pair!.quadratic, 6 / 13, 10, 'quadratic');
  // The weights are category indices on the study's scale: an unused scale value between two labels widens the
  // distance (scikit-learn's cohen_kappa_score with labels=the scale does the same), the unweighted κ is unchanged.
  const onScale = twoCoders(
    [
      [0, 0, 2],
      [0, 1, 1],
      [1, 1, 1],
      [1, 3, 1],
      [3, 0, 1],
      [3, 1, 1],
      [3, 3, 2],
    ],
    [0, 1, 2, 3],
  );
  const patterns = unitPatterns(onScale);
  close(cohenKappa(patterns, 0, 1, 'unweighted').value, 1 / 3, 10, 'unweighted on the scale');
  // Linear, indices 0 1 3: observed 1 + 2 + 3 + 2 = 8; expected Σ row_i/3 · Σ_j |i−j| over columns 0, 1, 3
  // (each 3 units) = 1·(0+1+3) + (2/3)·(1+0+2) + (4/3)·(3+2+0) = 4 + 2 + 20/3 = 38/3 → κ = 1 − 24/38.
  close(cohenKappa(patterns, 0, 1, 'linear').value, 1 - 24 / 38, 10, 'linear on the scale');
});

test('identical coders agree perfectly under every statistic; permuting coders or units changes nothing', () => {
  const random = seededRandom(7);
  const labels = Array.from({ length: 40 }, () => Math.floor(random() * 4));
  const identical = summariseAgreement(fromRows([labels, labels, labels]));
  assert.equal(identical.percent_agreement, 1);
  for (const level of ['nominal', 'ordinal', 'interval', 'ratio'] as const) {
    assert.equal(identical.krippendorff[level], 1, level);
  }
  assert.equal(identical.fleiss.kappa, 1);
  for (const pair of identical.cohen) assert.deepEqual([pair.unweighted, pair.linear, pair.quadratic], [1, 1, 1]);

  const rows = [0, 1, 2, 3].map(() =>
    Array.from({ length: 60 }, () => (random() < 0.15 ? null : Math.floor(random() * 4))),
  );
  const base = summariseAgreement(fromRows(rows));
  // Coders in another order (the names follow their rows, so the pairs are the same pairs).
  const builder = new ReliabilityBuilder();
  for (const coder of [2, 0, 3, 1]) {
    rows[coder]!.forEach((v, unit) => {
      if (v !== null) builder.add('q', `u${unit + 1}`, `coder${coder + 1}`, v);
    });
  }
  const permutedCoders = summariseAgreement(builder.build());
  // Units in another order.
  const order = Array.from({ length: 60 }, (_, i) => i).sort(() => random() - 0.5);
  const permutedUnits = summariseAgreement(fromRows(rows.map((row) => order.map((u) => row[u]!))));
  for (const other of [permutedCoders, permutedUnits]) {
    assert.equal(other.percent_agreement!.toFixed(12), base.percent_agreement!.toFixed(12));
    for (const level of ['nominal', 'ordinal', 'interval', 'ratio'] as const) {
      assert.equal(other.krippendorff[level]!.toFixed(12), base.krippendorff[level]!.toFixed(12), level);
    }
    assert.equal(other.fleiss.kappa!.toFixed(12), base.fleiss.kappa!.toFixed(12));
    assert.deepEqual(
      other.cohen.map((p) => [p.a, p.b, p.n, p.unweighted!.toFixed(12), p.quadratic!.toFixed(12)]),
      base.cohen.map((p) => [p.a, p.b, p.n, p.unweighted!.toFixed(12), p.quadratic!.toFixed(12)]),
    );
  }
});

test('degenerate inputs: null with the reason, never NaN', () => {
  const oneCoder = summariseAgreement(fromRows([[1, 2, 3]]));
  assert.equal(oneCoder.percent_agreement, null);
  assert.equal(oneCoder.krippendorff.nominal, null);
  assert.equal(oneCoder.fleiss.kappa, null);
  assert.deepEqual(oneCoder.cohen, []);
  assert.ok(
    oneCoder.notes.some((n) => /percent_agreement is undefined: no unit has labels from two annotators/.test(n)),
  );
  assert.ok(oneCoder.notes.some((n) => /fleiss.kappa is undefined: it needs at least two annotators/.test(n)));

  const sameCategory = summariseAgreement(
    fromRows([
      [2, 2, 2],
      [2, 2, 2],
    ]),
  );
  assert.equal(sameCategory.percent_agreement, 1, 'percent agreement is defined: they always agree');
  assert.equal(sameCategory.krippendorff.ordinal, null);
  assert.equal(sameCategory.fleiss.kappa, null);
  assert.equal(sameCategory.cohen[0]!.unweighted, null);
  assert.ok(
    sameCategory.notes.some((n) =>
      /krippendorff.nominal is undefined: every pairable label is the same category/.test(n),
    ),
  );
  assert.ok(sameCategory.notes.some((n) => /cohen coder1–coder2 is undefined: chance agreement is 1/.test(n)));

  const disjoint = summariseAgreement(
    fromRows([
      [1, 2, null, null],
      [null, null, 1, 2],
    ]),
  );
  assert.equal(disjoint.cohen[0]!.n, 0);
  assert.equal(disjoint.cohen[0]!.unweighted, null);
  assert.ok(disjoint.notes.some((n) => /labelled no unit in common/.test(n)));
  assert.ok(disjoint.notes.some((n) => /fleiss.kappa is undefined: no unit was labelled by all 2 annotators/.test(n)));

  const negativeRatio = summariseAgreement(
    fromRows([
      [-1, 0, 1],
      [-1, 1, 1],
    ]),
  );
  assert.equal(negativeRatio.krippendorff.ratio, null);
  assert.ok(negativeRatio.krippendorff.interval !== null);

  // Labels so large that their squared differences overflow: undefined with the reason, not NaN or Infinity.
  const huge = summariseAgreement(
    fromRows([
      [0, 1e200, 0],
      [1e200, 1e200, 0],
    ]),
  );
  assert.equal(huge.krippendorff.interval, null);
  assert.ok(huge.krippendorff.nominal !== null);
  assert.ok(
    huge.notes.some((n) => /krippendorff.interval is undefined: the arithmetic overflowed: the label values/.test(n)),
  );

  for (const summary of [oneCoder, sameCategory, disjoint, negativeRatio, huge]) {
    assert.ok(!JSON.stringify(summary).includes('NaN'));
    assert.ok(!/NaN|Infinity/.test(JSON.stringify(summary, (_k, v) => (typeof v === 'number' ? String(v) : v))));
  }
});

test('binarised at a threshold: relevant = label ≥ t', () => {
  const data = fromRows([
    [0, 1, 2, 3, 3, 0],
    [1, 0, 3, 2, 3, 2],
  ]);
  const summary = summariseAgreement(data, { threshold: 2 });
  assert.equal(summary.threshold, 2);
  // Binary: [0 0 1 1 1 0] vs [0 0 1 1 1 1]: 5 of 6 agree.
  assert.equal(summary.binary!.percent_agreement, 5 / 6);
  assert.equal(summary.binary!.n_units, 6);
  assert.equal(summary.percent_agreement, 1 / 6);
});

test('LLM judges: in the pairwise κ (human-llm), out of α unless included', () => {
  const builder = new ReliabilityBuilder();
  const human = [0, 1, 2, 2, 1, 0];
  const other = [0, 1, 2, 1, 1, 0];
  const judge = [2, 2, 2, 0, 0, 0];
  human.forEach((v, u) => {
    builder.add('q', `d${u}`, 'alice', v);
  });
  other.forEach((v, u) => {
    builder.add('q', `d${u}`, 'bob', v);
  });
  judge.forEach((v, u) => {
    builder.add('q', `d${u}`, 'llm:gpt-4.1-mini', v);
  });
  const data = builder.build([0, 1, 2]);
  const humansOnly = summariseAgreement(data);
  assert.equal(humansOnly.n_annotators, 2);
  assert.deepEqual(humansOnly.annotators, ['alice', 'bob']);
  assert.deepEqual(
    humansOnly.cohen.map((p) => [p.a, p.b, p.kind]),
    [
      ['alice', 'bob', 'human-human'],
      ['alice', 'llm:gpt-4.1-mini', 'human-llm'],
      ['bob', 'llm:gpt-4.1-mini', 'human-llm'],
    ],
  );
  assert.equal(humansOnly.cohen_mean['human-llm']!.pairs, 2);
  const everyone = summariseAgreement(data, { includeLlm: true });
  assert.equal(everyone.n_annotators, 3);
  assert.ok(everyone.krippendorff.nominal! < humansOnly.krippendorff.nominal!);
});

test('bootstrap intervals over units: the same seed gives the same interval, another seed another one', () => {
  const data = fromRows(krippendorff2011);
  const a = summariseAgreement(data, { bootstrap: 500, seed: 42 });
  const b = summariseAgreement(data, { bootstrap: 500, seed: 42 });
  const c = summariseAgreement(data, { bootstrap: 500, seed: 43 });
  assert.deepEqual(a.ci, b.ci);
  assert.notDeepEqual(a.ci!.krippendorff, c.ci!.krippendorff);
  const [low, high] = a.ci!.krippendorff.ordinal!;
  assert.ok(low <= a.krippendorff.ordinal! && a.krippendorff.ordinal! <= high, `${low} ≤ α ≤ ${high}`);
  assert.equal(a.ci!.samples, 500);
  assert.equal(a.ci!.level, 0.95);
  assert.deepEqual(quantile([1, 2, 3, 4], 0.5), 2.5);
});

test('a defined statistic without a bootstrap interval says why in the notes', () => {
  // Two coders share two units (1/1 and 2/2: κ = 1); a resample of the 10 units holds both in only 41 % of draws,
  // and κ of one shared unit (or none) is undefined.
  const data = fromRows([
    [1, 2, 1, 1, 1, 1, 1, 1, 1, 1],
    [1, 2, null, null, null, null, null, null, null, null],
  ]);
  const summary = summariseAgreement(data, { bootstrap: 400, seed: 7 });
  assert.equal(summary.cohen[0]!.unweighted, 1);
  assert.equal(summary.ci!.cohen[0]!.unweighted, null);
  assert.ok(
    summary.notes.includes(
      'cohen coder1–coder2 (unweighted) has no bootstrap interval: fewer than half of the 400 resamples of units define it',
    ),
    summary.notes.join('\n'),
  );
});

test('a unit labelled twice by one annotator is an error naming both lines', () => {
  const builder = new ReliabilityBuilder();
  builder.add('q1', 'd1', 'alice', 1, 2);
  builder.add('q1', 'd2', 'alice', 1, 3);
  builder.add('q1', 'd1', 'alice', 0, 7);
  assert.throws(
    () => builder.build(),
    (error: unknown) =>
      error instanceof DuplicateLabelError &&
      error.firstLine === 2 &&
      error.secondLine === 7 &&
      error.annotator === 'alice',
  );
});

test('the registry: every statistic a study can name computes over the same patterns', () => {
  const data = fromRows(krippendorff2011);
  const patterns = unitPatterns(data);
  const ids = agreementStatistics.map((s) => s.id);
  assert.deepEqual(ids, ['krippendorff', 'cohen', 'fleiss', 'percent']);
  const alpha = agreementStatistics[0]!.compute(patterns, 'ordinal', data.values);
  close(alpha.value, 0.815, 3, 'α ordinal via the registry');
});
