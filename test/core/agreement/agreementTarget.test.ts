// What the agreement numbers may claim: a target is met only when the bootstrap interval's lower bound reaches it;
// the people's statistics and their intervals are blind to LLM judges (unless they are asked to count them); a
// pair's weighted κ weighs by the study's scale, else by the pair's own labels; and resamples on which a statistic
// is undefined are counted out loud, not dropped in silence.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { summariseAgreement } from '../../../core/agreement/agreementSummary.ts';
import { judgeTarget, targetVerdictText } from '../../../core/agreement/agreementTarget.ts';
import { seededRandom } from '../../../core/agreement/bootstrap.ts';
import { ReliabilityBuilder, type ReliabilityData } from '../../../core/agreement/reliabilityData.ts';

type Label = [qid: string, docid: string, annotator: string, label: number];

function build(labels: readonly Label[], scale?: number[]): ReliabilityData {
  const builder = new ReliabilityBuilder();
  labels.forEach(([qid, docid, annotator, label], i) => {
    builder.add(qid, docid, annotator, label, i + 1);
  });
  return builder.build(scale);
}

/** Three people over 40 units of a 0–3 scale, agreeing often (a seeded draw, the same every run). */
function peopleLabels(): Label[] {
  const random = seededRandom(11);
  const labels: Label[] = [];
  for (let u = 0; u < 40; u++) {
    const truth = Math.floor(random() * 4);
    for (const person of ['alice', 'bob', 'carol']) {
      if (person === 'carol' && u % 3 === 0) continue; // carol skipped some
      const label = random() < 0.75 ? truth : Math.floor(random() * 4);
      labels.push([`q${u % 5}`, `d${u}`, person, label]);
    }
  }
  return labels;
}

/**
 * The same people's labels with an LLM judge's among them: on 25 units no person labelled (some before the
 * people's first label, so they come first in the file) and on some of the people's units.
 */
function withJudge(people: readonly Label[]): Label[] {
  const judge = 'llm:gpt-test';
  const extra = (u: number): Label => [`q${u % 5}`, `extra${u}`, judge, u % 4];
  const labels: Label[] = [extra(0), extra(1), extra(2)];
  people.forEach((label, i) => {
    labels.push(label);
    if (i % 7 === 0) labels.push(extra(100 + i));
    if (i % 11 === 0) labels.push([label[0], label[1], judge, (label[3] + 1) % 4]);
  });
  for (let u = 3; u < 25; u++) if (!labels.some((l) => l[1] === `extra${u}`)) labels.push(extra(u));
  return labels;
}

test("the people's statistics and intervals are the same with or without an LLM judge's labels", () => {
  const people = peopleLabels();
  for (const scale of [[0, 1, 2, 3], undefined]) {
    const alone = summariseAgreement(build(people, scale), { bootstrap: 300, seed: 5 });
    const judged = summariseAgreement(build(withJudge(people), scale), { bootstrap: 300, seed: 5 });
    assert.ok(
      judged.all_annotators.some((a) => a.kind === 'llm'),
      'the judge is in the data',
    );
    assert.deepEqual(judged.krippendorff, alone.krippendorff, 'point estimates');
    assert.deepEqual(judged.ci!.krippendorff, alone.ci!.krippendorff, "α's intervals");
    assert.equal(judged.percent_agreement, alone.percent_agreement);
    assert.deepEqual(judged.ci!.percent_agreement, alone.ci!.percent_agreement);
    assert.equal(judged.fleiss.kappa, alone.fleiss.kappa);
    assert.deepEqual(judged.ci!.fleiss, alone.ci!.fleiss);
    assert.equal(judged.n_units, alone.n_units, "the people's units");
    // The κ of two people, and its interval, too.
    const peoplePairs = (s: typeof alone) => s.cohen.filter((p) => p.kind === 'human-human');
    assert.deepEqual(peoplePairs(judged), peoplePairs(alone));
    const peopleIntervals = (s: typeof alone) =>
      s.ci!.cohen.filter((p) => !p.a.startsWith('llm:') && !p.b.startsWith('llm:'));
    assert.deepEqual(peopleIntervals(judged), peopleIntervals(alone));
    // The verdict on a target likewise.
    const target = { metric: 'krippendorff', level: 'ordinal', target: 0.5 } as const;
    assert.deepEqual(judgeTarget(build(withJudge(people), scale), target), judgeTarget(build(people, scale), target));
    // With --include-llm the judge counts: then its labels do move α.
    const counted = summariseAgreement(build(withJudge(people), scale), { bootstrap: 300, seed: 5, includeLlm: true });
    assert.notEqual(counted.krippendorff.ordinal, alone.krippendorff.ordinal);
  }
});

/** Two coders over `units` units: the first `agree` identical, the rest one step apart (on a 0–3 scale). */
function twoCoders(units: number, agree: number): ReliabilityData {
  const labels: Label[] = [];
  for (let u = 0; u < units; u++) {
    const label = u % 4;
    labels.push(['q', `d${u}`, 'alice', label]);
    labels.push(['q', `d${u}`, 'bob', u < agree ? label : label === 3 ? 2 : label + 1]);
  }
  return build(labels, [0, 1, 2, 3]);
}

test('a target is met only when the lower bound of the interval reaches it; four units are "not yet"', () => {
  const target = { metric: 'krippendorff', level: 'ordinal', target: 0.67 } as const;
  const few = judgeTarget(twoCoders(4, 3), target);
  assert.ok(few.value! >= 0.67, `the point estimate clears the target: α ${few.value}`);
  assert.equal(few.verdict.state, 'not-yet');
  assert.equal(few.verdict.units, 4);
  assert.ok(few.verdict.interval![0] < 0.67, `lower bound ${few.verdict.interval![0]}`);
  const two = (v: number) => v.toFixed(2);
  assert.equal(
    targetVerdictText(few.verdict, two),
    `target 0.67: not yet (n = 4, 95 % interval [${two(few.verdict.interval![0])}, ${two(few.verdict.interval![1])}])`,
  );
  // The same agreement over 200 units: the interval narrows above the target.
  const many = judgeTarget(twoCoders(200, 180), target);
  assert.equal(many.verdict.state, 'met', JSON.stringify(many.verdict));
  assert.ok(many.verdict.interval![0] >= 0.67);
  assert.match(
    targetVerdictText(many.verdict, two),
    /^target 0\.67: met \(n = 200, 95 % interval \[0\.\d\d, 0\.\d\d\]\)$/,
  );
  // No resamples: no interval, so not yet, saying why; an undefined statistic: not known.
  const unsampled = judgeTarget(twoCoders(200, 180), target, { bootstrap: { samples: 0 } });
  assert.equal(
    targetVerdictText(unsampled.verdict, two),
    'target 0.67: not yet (n = 200, no interval: no bootstrap resamples)',
  );
  const alone = judgeTarget(build([['q', 'd1', 'alice', 1]], [0, 1]), target);
  assert.equal(alone.verdict.state, 'unknown');
  assert.match(targetVerdictText(alone.verdict, two), /^target 0\.67: not known \(undefined because /);
});

test("weighted κ without a scale orders each pair's categories by the pair's own labels", () => {
  // alice and bob use 0, 2 and 3; carol also uses 1. Without a scale, carol's 1 must not move alice–bob's weights.
  const pair: Label[] = [
    ['q', 'd1', 'alice', 0],
    ['q', 'd1', 'bob', 0],
    ['q', 'd2', 'alice', 2],
    ['q', 'd2', 'bob', 3],
    ['q', 'd3', 'alice', 3],
    ['q', 'd3', 'bob', 3],
    ['q', 'd4', 'alice', 0],
    ['q', 'd4', 'bob', 2],
    ['q', 'd5', 'alice', 2],
    ['q', 'd5', 'bob', 2],
  ];
  const withCarol: Label[] = [...pair, ['q', 'd1', 'carol', 1], ['q', 'd6', 'carol', 1]];
  const alicebob = (data: ReliabilityData) =>
    summariseAgreement(data).cohen.find((p) => p.a === 'alice' && p.b === 'bob')!;
  const alone = alicebob(build(pair));
  assert.deepEqual(alicebob(build(withCarol)), alone);
  // scikit-learn's cohen_kappa_score(a, b, weights='linear') on these labels: categories 0, 2, 3 at ranks 0, 1, 2.
  // Disagreements d2 (ranks 1 and 2) and d4 (ranks 0 and 1), distance 1 each: Σw·O = 2; Σw·E from the marginals,
  // alice (2, 2, 1) and bob (1, 2, 2) over the ranks, out of 5 units.
  const rowsA = [2, 2, 1];
  const colsB = [1, 2, 2];
  let expected = 0;
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) expected += (Math.abs(i - j) * rowsA[i]! * colsB[j]!) / 5;
  assert.equal(alone.linear!.toFixed(10), (1 - 2 / expected).toFixed(10));
  // With a scale, the scale's positions: 0, 2, 3 are at 0, 2, 3 of 0–3, so the weights differ.
  const scaled = alicebob(build(pair, [0, 1, 2, 3]));
  assert.notEqual(scaled.linear, alone.linear);
});

test('resamples on which a statistic is undefined are counted in a note, not dropped in silence', () => {
  // Four units: a resample drawing only units where both said the same single category leaves α undefined.
  const summary = summariseAgreement(twoCoders(4, 3), { bootstrap: 1000, seed: 1 });
  const note = summary.notes.find((n) => n.startsWith('krippendorff.ordinal: '));
  assert.ok(note, summary.notes.join('\n'));
  const [, left, samples, kept] =
    /: (\d+) of (\d+) bootstrap resamples left it undefined .* the (\d+) that define it/.exec(note)!;
  assert.ok(Number(left) > 0);
  assert.equal(Number(samples), 1000);
  assert.equal(Number(left) + Number(kept), 1000);
});
