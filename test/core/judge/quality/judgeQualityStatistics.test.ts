// Each statistic of the judge quality report (core/judge/quality/) against a worked example: κ against Wikipedia's
// published one, τ_b against scipy.stats.kendalltau's documented values, τ and τ_ap against cases computed by hand
// (with ties), the calibration error against a hand-computed binning, the gate's verdicts and messages.
import assert from 'node:assert/strict';
import test from 'node:test';
import { seededRandom } from '../../../../core/agreement/bootstrap.ts';
import { calibrationError } from '../../../../core/judge/quality/calibrationError.ts';
import {
  confusionAccuracy,
  judgeConfusion,
  type SharedLabel,
  sharedLabels,
} from '../../../../core/judge/quality/confusionMatrix.ts';
import { checkHumanElseLlmGate, JudgeGateRefusal, judgeGate } from '../../../../core/judge/quality/judgeGate.ts';
import { judgeKappa } from '../../../../core/judge/quality/judgeKappa.ts';
import type { JudgeQuality } from '../../../../core/judge/quality/judgeQualityTypes.ts';
import { kendallTau } from '../../../../core/judge/quality/kendallTau.ts';
import { qrelsForRankings, ranksOf } from '../../../../core/judge/quality/systemRankings.ts';
import { symmetricTauAp, tauAp } from '../../../../core/judge/quality/tauAp.ts';

const close = (actual: number | null, expected: number, digits = 12) => {
  assert.notEqual(actual, null);
  assert.ok(Math.abs(actual! - expected) < 10 ** -digits, `${actual} ≠ ${expected}`);
};

/** `n` pairs the people labelled `people` and the judge `judge`. */
const pairs = (n: number, people: number, judge: number, from = 0): SharedLabel[] =>
  Array.from({ length: n }, (_, i) => ({ qid: 'q', docid: `d${from + i}`, people, judge }));

test('confusion matrix: people in rows, judge in columns, the scale and any other label given', () => {
  const people = [
    { qid: 'q1', docid: 'a', label: 0 },
    { qid: 'q1', docid: 'b', label: 2 },
    { qid: 'q2', docid: 'a', label: 1 },
    { qid: 'q2', docid: 'c', label: 1 },
  ];
  const judge = [
    { qid: 'q1', docid: 'a', label: 0 },
    { qid: 'q1', docid: 'b', label: 1 },
    { qid: 'q2', docid: 'a', label: 3 },
    { qid: 'q3', docid: 'z', label: 2 },
  ];
  const shared = sharedLabels(people, judge);
  assert.deepEqual(
    shared.map((s) => [s.qid, s.docid, s.people, s.judge]),
    [
      ['q1', 'a', 0, 0],
      ['q1', 'b', 2, 1],
      ['q2', 'a', 1, 3],
    ],
  );
  const confusion = judgeConfusion(shared, [0, 1, 2]);
  assert.deepEqual(confusion.labels, [0, 1, 2, 3]);
  assert.deepEqual(confusion.counts, [
    [1, 0, 0, 0],
    [0, 0, 0, 1],
    [0, 1, 0, 0],
    [0, 0, 0, 0],
  ]);
  assert.equal(confusion.pairs, 3);
  close(confusionAccuracy(confusion), 1 / 3);
  assert.equal(confusionAccuracy(judgeConfusion([], [0, 1])), null);
});

test("κ: Wikipedia's worked example (20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no) is 0.4", () => {
  const shared = [...pairs(20, 1, 1), ...pairs(5, 1, 0, 20), ...pairs(10, 0, 1, 25), ...pairs(15, 0, 0, 35)];
  const confusion = judgeConfusion(shared, [0, 1]);
  const kappa = judgeKappa(confusion, { samples: 500, seed: 1, level: 0.95 });
  close(kappa.value, 0.4);
  close(confusionAccuracy(confusion), 0.7);
  assert.ok(kappa.interval, 'an interval');
  assert.ok(kappa.interval[0] < 0.4 && 0.4 < kappa.interval[1], `${kappa.interval} holds 0.4`);
  assert.ok(kappa.interval[0] > -1 && kappa.interval[1] <= 1);
  // Seeded: the same seed gives the same interval, another seed another one.
  assert.deepEqual(judgeKappa(confusion, { samples: 500, seed: 1, level: 0.95 }).interval, kappa.interval);
  assert.notDeepEqual(judgeKappa(confusion, { samples: 500, seed: 2, level: 0.95 }).interval, kappa.interval);
  assert.equal(judgeKappa(confusion, { samples: 0, seed: 1, level: 0.95 }).interval, null);
});

test('κ is undefined, with the reason, when nothing is shared or every label is one category', () => {
  const none = judgeKappa(judgeConfusion([], [0, 1]));
  assert.equal(none.value, null);
  assert.match(none.reason!, /no pair both the judge and the people labelled/);
  const same = judgeKappa(judgeConfusion(pairs(4, 1, 1), [0, 1]));
  assert.equal(same.value, null);
  assert.match(same.reason!, /chance agreement is 1/);
});

test("Kendall's τ_b: scipy.stats.kendalltau's documented values, and hand-computed cases with ties", () => {
  // scipy docs: kendalltau([12, 2, 1, 12, 2], [1, 4, 7, 1, 0]) → -0.47140452079103173.
  close(kendallTau([12, 2, 1, 12, 2], [1, 4, 7, 1, 0]).value, -0.47140452079103173);
  close(kendallTau([1, 2, 3, 4], [1, 2, 3, 4]).value, 1);
  close(kendallTau([1, 2, 3, 4], [4, 3, 2, 1]).value, -1);
  // One swap of six pairs: (5 − 1) / 6.
  close(kendallTau([4, 3, 2, 1], [3, 4, 2, 1]).value, 2 / 3);
  // A tie in y: x = [1,2,3], y = [1,1,2] — concordant 2, tied 1; τ_b = 2 / √(3 · 2).
  close(kendallTau([1, 2, 3], [1, 1, 2]).value, 2 / Math.sqrt(6));
  assert.equal(kendallTau([1], [1]).value, null);
  assert.match(kendallTau([1, 2], [5, 5]).reason!, /ties every system/);
});

test('τ_ap (Yilmaz, Aslam & Robertson 2008): a swap at the top costs more than one at the bottom', () => {
  const truth = [4, 3, 2, 1]; // A > B > C > D
  close(tauAp(truth, truth).value, 1);
  close(tauAp(truth, [1, 2, 3, 4]).value, -1);
  // Estimate B, A, C, D: C(2) = 0/1, C(3) = 2/2, C(4) = 3/3 → 2/3 · 2 − 1 = 1/3 (τ = 2/3).
  close(tauAp(truth, [3, 4, 2, 1]).value, 1 / 3);
  // Estimate A, B, D, C: 1/1, 2/2, 2/3 → 2/3 · 8/3 − 1 = 7/9.
  close(tauAp(truth, [4, 3, 1, 2]).value, 7 / 9);
  // Asymmetric: truth A,B,C vs estimate C,A,B is not the reverse direction's value.
  const one = tauAp([3, 2, 1], [2, 1, 3]).value!; // estimate C, A, B: C(2) = 0, C(3) = 1/2 → 1·(0 + 1/2) − 1
  close(one, -0.5);
  const other = tauAp([2, 1, 3], [3, 2, 1]).value!; // truth C, A, B; estimate A, B, C: C(2) = 1, C(3) = 0
  close(other, 0);
  close(symmetricTauAp([3, 2, 1], [2, 1, 3]).value, -0.25);
  // Ties count half a correct pair: a judge that ties every system gets 0, not 1.
  close(tauAp(truth, [1, 1, 1, 1]).value, 0);
  // A tie in the truth: A = B > C; estimate B, A, C → C(2) = ½, C(3) = 2/2 → 1·(½ + 1) − 1.
  close(tauAp([2, 2, 1], [2, 3, 1]).value, 0.5);
  assert.equal(tauAp([1], [1]).value, null);
});

test('ranks: 1 the best, ties share the mean rank', () => {
  assert.deepEqual(ranksOf([0.2, 0.5, 0.2, 0.1]), [2.5, 1, 2.5, 4]);
});

test("which pairs feed each qrels: the people's as they are, the judge's on the same pairs (default)", () => {
  const people = [
    { qid: 'q', docid: 'a', label: 1 },
    { qid: 'q', docid: 'b', label: 0 },
  ];
  const judge = [
    { qid: 'q', docid: 'a', label: 0 },
    { qid: 'q', docid: 'z', label: 1 },
  ];
  assert.deepEqual(qrelsForRankings(people, judge, 'people'), { people, judge: [judge[0]] });
  assert.deepEqual(qrelsForRankings(people, judge, 'common'), { people: [people[0]], judge: [judge[0]] });
  assert.deepEqual(qrelsForRankings(people, judge, 'each'), { people, judge });
});

test('expected calibration error: equal-width bins, weighted by their share of the pairs', () => {
  // Two pairs at confidence 1 (one right): |0.5 − 1| · ½; two at 0.5 (both right): |1 − 0.5| · ½ → 0.5.
  const result = calibrationError([
    { confidence: 1, correct: true },
    { confidence: 1, correct: false },
    { confidence: 0.5, correct: true },
    { confidence: 0.5, correct: true },
  ]);
  close(result.value, 0.5);
  assert.equal(result.bins.length, 10);
  assert.deepEqual(
    result.bins.filter((b) => b.pairs > 0).map((b) => [b.from, b.pairs, b.meanConfidence, b.accuracy]),
    [
      [0.5, 2, 0.5, 1],
      [0.9, 2, 1, 0.5],
    ],
  );
  // Perfectly calibrated: two thirds right at confidence 2/3.
  const calibrated = calibrationError(
    [true, true, false].map((correct) => ({ confidence: 2 / 3, correct })),
    3,
  );
  close(calibrated.value, 0, 12);
  assert.equal(calibrated.bins.length, 3);
  // One vote per pair: no confidence, undefined rather than 0.
  const once = calibrationError([{ confidence: null, correct: true }]);
  assert.equal(once.value, null);
  assert.match(once.reason!, /votes 1/);
  assert.throws(() => calibrationError([], 0), /bins/);
});

/** A judge's quality with the numbers the gate reads. */
function quality(values: { tau: number | null; kappa: number }): Omit<JudgeQuality, 'gate'> {
  const value = (v: number | null) => (v === null ? { value: null, reason: 'one run only' } : { value: v });
  return {
    judge: 'llm:m@12345678',
    sharedPairs: 10,
    confusion: {
      labels: [0, 1],
      counts: [
        [5, 0],
        [0, 5],
      ],
      pairs: 10,
    },
    kappa: { ...value(values.kappa), interval: null, samples: 0, seed: 1, level: 0.95, undefinedSamples: 0 },
    accuracy: { value: 1 },
    calibration: { value: null, reason: 'votes 1', bins: [], pairs: 0 },
    cost: {
      calls: 0,
      answered: 0,
      failed: 0,
      inputTokens: 0,
      outputTokens: 0,
      cost: 0,
      pricedCalls: 0,
      pairsLabelled: 10,
      costPer1000Pairs: { value: null, reason: 'none' },
    },
    rankings: {
      measure: 'map',
      pairs: 'people',
      peopleQrels: 1,
      judgeQrels: 1,
      systems: [],
      tau: value(values.tau),
      tauAp: value(values.tau),
      tauApMode: 'asymmetric',
    },
  };
}

test('the gate: every condition must hold; a failure names the judge, the condition and both numbers', () => {
  const accept = [
    { metric: 'tau' as const, operator: '>=' as const, value: 0.9 },
    { metric: 'kappa' as const, operator: '>=' as const, value: 0.6 },
  ];
  const passing = judgeGate(quality({ tau: 0.95, kappa: 0.7 }), accept);
  assert.equal(passing.passed, true);
  assert.deepEqual(
    passing.checks.map((c) => [c.condition.metric, c.value, c.passed]),
    [
      ['tau', 0.95, true],
      ['kappa', 0.7, true],
    ],
  );
  const failing = judgeGate(quality({ tau: 0.71, kappa: 0.7 }), accept);
  assert.equal(failing.passed, false);
  assert.equal(failing.failure, 'judge llm:m@12345678 fails its gate: tau 0.71 < 0.9 (the gate needs tau >= 0.9)');
  const undefinedTau = judgeGate(quality({ tau: null, kappa: 0.3 }), accept);
  assert.match(undefinedTau.failure!, /tau is undefined \(one run only\).*; kappa 0\.3 < 0\.6/);
  assert.deepEqual(judgeGate(quality({ tau: 0, kappa: 0 }), undefined), { declared: false, passed: true, checks: [] });
  // κ = 0.2 as floating point computes it (0.19999999999999996) meets `kappa >= 0.2`, and does not exceed it.
  const atThreshold = quality({ tau: 0.95, kappa: 1 - 0.5 / 0.625 });
  assert.ok(atThreshold.kappa.value! < 0.2, 'the computed κ is a hair under 0.2');
  assert.equal(judgeGate(atThreshold, [{ metric: 'kappa', operator: '>=', value: 0.2 }]).passed, true);
  assert.equal(judgeGate(atThreshold, [{ metric: 'kappa', operator: '>', value: 0.2 }]).passed, false);
  assert.equal(judgeGate(atThreshold, [{ metric: 'kappa', operator: '<=', value: 0.2 }]).passed, true);
  assert.equal(
    judgeGate(atThreshold, [{ metric: 'ece', operator: '<=', value: 0.1 }]).failure?.includes(
      'ece is undefined (votes 1)',
    ),
    true,
  );

  const gated = [{ judge: 'llm:m@12345678', gate: failing }];
  assert.throws(
    () => checkHumanElseLlmGate(gated),
    (error: unknown) => {
      assert.ok(error instanceof JudgeGateRefusal);
      assert.match(error.message, /llm:m@12345678 fails its gate: tau 0\.71 < 0\.9.*--accept-judge llm:m@12345678/);
      return true;
    },
  );
  checkHumanElseLlmGate(gated, ['llm:m@12345678']);
  checkHumanElseLlmGate(gated, ['m']);
  assert.throws(() => checkHumanElseLlmGate(gated, ['other']), JudgeGateRefusal);
  checkHumanElseLlmGate([{ judge: 'llm:m@12345678', gate: passing }]);
});

test('laws: τ_b and τ_ap lie in [−1, 1], are 1 on the same ranking and −1 on its reverse; τ_b is symmetric', () => {
  const random = seededRandom(11);
  for (let round = 0; round < 200; round++) {
    const n = 2 + Math.floor(random() * 12);
    // Few distinct values on some rounds, so ties are common.
    const levels = round % 2 === 0 ? 3 : 1000;
    const x = Array.from({ length: n }, () => Math.floor(random() * levels));
    const y = Array.from({ length: n }, () => Math.floor(random() * levels));
    for (const value of [kendallTau(x, y).value, tauAp(x, y).value, symmetricTauAp(x, y).value]) {
      if (value !== null) assert.ok(value >= -1 - 1e-12 && value <= 1 + 1e-12, `${value} for ${x} / ${y}`);
    }
    assert.equal(kendallTau(x, y).value, kendallTau(y, x).value);
    const distinct = [...x.keys()].map((i) => x[i]! * 100 + i); // no ties
    close(kendallTau(distinct, distinct).value, 1);
    close(tauAp(distinct, distinct).value, 1);
    close(
      kendallTau(
        distinct,
        distinct.map((v) => -v),
      ).value,
      -1,
    );
    close(
      tauAp(
        distinct,
        distinct.map((v) => -v),
      ).value,
      -1,
    );
  }
});
