// The instruction-following measures on rankings worked by hand (the arithmetic is in the comments): IRS with each
// option, FollowTable §5.7's toy corpus, p-MRR, NFR, MultiConIR's strict `>`, capped recall micro vs macro, MaxP,
// and the paired significance tests.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { seededRandom } from '../../../../core/agreement/bootstrap.ts';
import { evaluateInstructions } from '../../../../core/metrics/instruction/evaluateInstructions.ts';
import { readScoredRun, type ScoredDocument } from '../../../../core/metrics/instruction/instructionInputs.ts';
import {
  defaultInstructionOptions,
  type InstructionCase,
  type IrsOptions,
} from '../../../../core/metrics/instruction/instructionMeasure.ts';
import { instructionResponsiveness } from '../../../../core/metrics/instruction/irs.ts';
import { instructionMeasure } from '../../../../core/metrics/instruction/registry.ts';
import { pairedTests, studentTwoSidedP } from '../../../../core/metrics/significance.ts';
import { scratchDir } from '../../../helpers.ts';

/** A ranking from docids, scores descending. */
const ranking = (...docids: string[]): ScoredDocument[] => docids.map((docid, i) => ({ docid, score: 100 - i }));
const near = (actual: number | null, expected: number, what = '') => {
  assert.ok(actual !== null, `${what} is null`);
  assert.ok(Math.abs(actual - expected) < 1e-4, `${what}: ${actual}, expected ${expected}`);
};
const irsOf = (r: ScoredDocument[], base: ScoredDocument[], options: Partial<IrsOptions> = {}) =>
  instructionResponsiveness(r, base, ['p'], ['n'], {
    list: 'union',
    missing: 'expected',
    degenerate: 'one',
    ...options,
  });

test('IRS by hand: p compliant, n violating, o off-topic; baseline [n p o]', () => {
  // w(1) = 1, w(2) = 1/log2 3 = 0.63093, w(3) = 0.5. F = w(p) − w(n). Baseline F = 0.63093 − 1 = −0.36907;
  // ideal [p o n] F = 0.5, worst [n o p] F = −0.5.
  const base = ranking('n', 'p', 'o');
  near(irsOf(ranking('p', 'o', 'n'), base), 1, 'ideal');
  near(irsOf(ranking('p', 'n', 'o'), base), 0.73814 / 0.86907, '[p n o]: S 0.73814 over room 0.86907');
  near(irsOf(ranking('o', 'n', 'p'), base), 0.23814 / 0.86907, '[o n p]');
  near(irsOf(ranking('n', 'o', 'p'), base), -1, 'worst: S −0.13093 over |worst − base| 0.13093');
  near(irsOf(base, base), 0, 'no change');
  // No compliant and no violating document: 0 (§4.3).
  assert.equal(
    instructionResponsiveness(ranking('a'), ranking('a'), [], [], {
      list: 'union',
      missing: 'expected',
      degenerate: 'one',
    }),
    0,
  );
});

test('IRS of a truncated ranking: expected (default) and beyond', () => {
  const base = ranking('n', 'p', 'o');
  // [p] lacks n and o; expected: n weighs the mean of w(2), w(3) = 0.565465 → F 0.434535, S 0.803605 → 0.92468.
  near(irsOf(ranking('p'), base), 0.803605 / 0.86907, 'expected');
  // beyond: n at rank 2 → F 0.36907 → as [p n o].
  near(irsOf(ranking('p'), base, { missing: 'beyond' }), 0.73814 / 0.86907, 'beyond');
});

test('IRS list: a labelled document neither ranking holds is in the ideal list (union) or out of it (retrieved)', () => {
  const base = ranking('n', 'o');
  const r = ranking('o', 'n');
  // union: U = {n, o, p}, p missing from both at the expected weight (same in both: it cancels in S).
  const union = irsOf(r, base);
  const retrieved = irsOf(r, base, { list: 'retrieved' });
  // retrieved: U = {n, o}, p left out: F = −w(n); base −1, r −0.63093, ideal −0.63093 → 1.
  near(retrieved, 1, 'retrieved');
  assert.ok(union > 0 && union < 1, `union ${union}`);
});

test('FollowTable §5.7 toy corpus {p1,p2,n1,n2,o1,o2}: IRS falls with every degradation, p-MRR does not; an ideal baseline kept is perfect for IRS and 0 for p-MRR', () => {
  const labels = new Map([
    ['p1', 2],
    ['p2', 2],
    ['n1', 1],
    ['n2', 1],
    ['o1', 0],
    ['o2', 0],
  ]);
  const irs = instructionMeasure('irs')!;
  const pMrr = instructionMeasure('p_mrr')!;
  const value = (m: typeof irs, r: ScoredDocument[], base: ScoredDocument[]) => {
    const c: InstructionCase = { id: 'q_1', ranking: r, baseline: base, labels };
    return Object.values(m.compute(c, defaultInstructionOptions))[0]!;
  };
  // Binary nDCG@6 on the compliant documents (what a qrels of "satisfies the instruction" gives).
  const ndcg = (r: ScoredDocument[]) => {
    const dcg = r.reduce((s, d, i) => s + (labels.get(d.docid) === 2 ? 1 / Math.log2(i + 2) : 0), 0);
    return dcg / (1 + 1 / Math.log2(3));
  };
  const random = ranking('o1', 'n1', 'p1', 'o2', 'n2', 'p2');
  const degraded = [
    ranking('p1', 'p2', 'o1', 'o2', 'n1', 'n2'), // π0 ideal
    ranking('p1', 'p2', 'o1', 'n1', 'o2', 'n2'), // π1 a violating document up
    ranking('p1', 'p2', 'n1', 'o1', 'o2', 'n2'), // π2 it goes further up
    ranking('p1', 'n1', 'p2', 'o1', 'o2', 'n2'), // π3 above a compliant one
    ranking('n1', 'p1', 'p2', 'o1', 'o2', 'n2'), // π4 first
    ranking('n1', 'n2', 'p1', 'p2', 'o1', 'o2'), // π5 both violating first
    ranking('n1', 'n2', 'o1', 'o2', 'p1', 'p2'), // π6 the worst
  ];
  const irsValues = degraded.map((r) => value(irs, r, random));
  for (let i = 1; i < irsValues.length; i++) {
    assert.ok(irsValues[i]! < irsValues[i - 1]!, `IRS strictly falls from π${i - 1} to π${i}: ${irsValues}`);
  }
  near(irsValues[0]!, 1, 'π0');
  near(irsValues[6]!, -1, 'π6');
  assert.equal(ndcg(degraded[1]!), ndcg(degraded[2]!), 'nDCG cannot tell π1 from π2');
  assert.ok(value(pMrr, degraded[6]!, random)! < 0, 'p-MRR goes negative for the worst');
  // p-MRR sees only the violating documents' ranks: moving the compliant ones down (π5 → π6) changes nothing.
  const pMrrValues = degraded.map((r) => value(pMrr, r, random));
  assert.equal(pMrrValues[5], pMrrValues[6], `p-MRR cannot tell π5 from π6: ${pMrrValues}`);
  assert.ok(irsValues[6]! < irsValues[5]!, 'IRS can');
  assert.ok(ndcg(degraded[6]!) > 0.4, 'nDCG stays near 0.5 for the worst');
  // The query-only ranking is already ideal and the instruction keeps it: IRS 1 (the paper), p-MRR 0.
  const ideal = degraded[0]!;
  near(value(irs, ideal, ideal), 1, 'IRS, ideal baseline kept');
  assert.equal(value(pMrr, ideal, ideal), 0);
  const zero = { ...defaultInstructionOptions, irs: { ...defaultInstructionOptions.irs, degenerate: 'zero' as const } };
  assert.equal(irs.compute({ id: 'q_1', ranking: ideal, baseline: ideal, labels }, zero).irs, 0, 'degenerate: zero');
});

test('IRS stays in [−1, 1] under the default options, for random truncated rankings', () => {
  const random = seededRandom(11);
  const docs = Array.from({ length: 12 }, (_, i) => `d${i}`);
  const shuffled = () => [...docs].sort(() => random() - 0.5);
  for (let trial = 0; trial < 2000; trial++) {
    const labels = new Map(docs.map((d) => [d, Math.floor(random() * 3)]));
    const plus = [...labels].filter(([, l]) => l === 2).map(([d]) => d);
    const minus = [...labels].filter(([, l]) => l === 1).map(([d]) => d);
    const r = ranking(...shuffled().slice(0, 1 + Math.floor(random() * 12)));
    const base = ranking(...shuffled().slice(0, 1 + Math.floor(random() * 12)));
    const value = instructionResponsiveness(r, base, plus, minus, {
      list: 'union',
      missing: 'expected',
      degenerate: 'one',
    });
    assert.ok(value >= -1 && value <= 1 && Number.isFinite(value), `trial ${trial}: ${value}`);
  }
});

test('p-MRR by hand (FollowIR): a violating document moved down scores 1 − og/new, moved up new/og − 1', () => {
  const pMrr = instructionMeasure('p_mrr')!;
  const labels = new Map([
    ['p', 2],
    ['n', 1],
    ['o', 0],
  ]);
  const at = (r: ScoredDocument[], base: ScoredDocument[]): number | null =>
    pMrr.compute({ id: 'x', ranking: r, baseline: base, labels }, defaultInstructionOptions).p_mrr ?? null;
  near(at(ranking('p', 'o', 'n'), ranking('n', 'p', 'o')), 1 - 1 / 3, 'n from 1 to 3');
  near(at(ranking('n', 'p', 'o'), ranking('p', 'o', 'n')), 1 / 3 - 1, 'n from 3 to 1');
  assert.equal(at(ranking('p', 'n'), ranking('p', 'n')), 0);
  near(at(ranking('p', 'o'), ranking('n', 'p')), 1 - 1 / 3, 'n lacked by the run: ranked after its list (3)');
  assert.equal(
    pMrr.compute(
      { id: 'x', ranking: ranking('p'), baseline: ranking('p'), labels: new Map([['p', 2]]) },
      defaultInstructionOptions,
    ).p_mrr,
    null,
    'no violating document: undefined',
  );
});

test('NFR: traps promoted strictly; macro over instructions, micro over traps', () => {
  const run = new Map([
    ['q1_1', ranking('t1', 'p', 't2')],
    ['q1_2', ranking('p', 't3')],
  ]);
  const baseline = new Map([['q1', ranking('p', 't1', 't2', 't3')]]);
  const qrels = new Map([
    [
      'q1_1',
      new Map([
        ['t1', 1],
        ['t2', 1],
        ['p', 2],
      ]),
    ],
    [
      'q1_2',
      new Map([
        ['t3', 1],
        ['p', 2],
      ]),
    ],
  ]);
  const traps = new Map([
    ['q1_1', new Set(['t1', 't2'])], // t1 2 → 1 promoted; t2 3 → 3 not
    ['q1_2', new Set(['t3'])], // 4 → 2 promoted
  ]);
  const result = evaluateInstructions(
    { run, baseline, qrels, traps, files: {} },
    [instructionMeasure('nfr')!],
    defaultInstructionOptions,
  );
  assert.deepEqual(
    result.cases.map((c) => c.values.nfr),
    [0.5, 1],
  );
  near(result.all.nfr!.value, 0.75, 'macro');
  near(result.micro.nfr!, 2 / 3, 'micro');
});

test("MultiConIR's strict >: a tie is a loss; win rate, adjacent win rate and flip rate by hand", () => {
  // Labels = conditions satisfied: pos 3, hn2 2, hn1 1, hn0 0.
  const labels = new Map([
    ['pos', 3],
    ['hn2', 2],
    ['hn1', 1],
    ['hn0', 0],
  ]);
  const styleA: ScoredDocument[] = [
    { docid: 'pos', score: 0.9 },
    { docid: 'hn2', score: 0.9 },
    { docid: 'hn0', score: 0.7 },
    { docid: 'hn1', score: 0.5 },
  ];
  const styleB: ScoredDocument[] = [
    { docid: 'pos', score: 1.0 },
    { docid: 'hn2', score: 0.9 },
    { docid: 'hn1', score: 0.4 },
    { docid: 'hn0', score: 0.3 },
  ];
  const c: InstructionCase = { id: 'movie-1', ranking: styleA, baseline: styleB, labels };
  const value = (name: string) => Object.values(instructionMeasure(name)!.compute(c, defaultInstructionOptions))[0];
  assert.equal(value('win_rate'), 0, 'pos and hn2 tie: a loss');
  near(value('adjacent_win_rate')!, 1 / 3, '(3,2) tie, (2,1) won, (1,0) lost');
  near(value('flip_rate')!, 2 / 3, '(3,2) and (1,0) are won under the other style');
  assert.deepEqual(instructionMeasure('win_rate')!.groups!(c), { 'k:3': { win_rate: 0 } });
});

test("task-structured qrels (inst#k): adjacent win rate and flip rate take each task's last step themselves", () => {
  // m1 has steps #1 and #2 (its last: #2); m2 only #1 (fewer conditions: its last is #1). Labels = conditions met.
  const qrels = new Map([
    [
      'm1#1',
      new Map([
        ['pos', 1],
        ['hn0', 0],
      ]),
    ],
    [
      'm1#2',
      new Map([
        ['pos', 2],
        ['hn1', 1],
        ['hn0', 0],
      ]),
    ],
    [
      'm2#1',
      new Map([
        ['pos', 1],
        ['hn0', 0],
      ]),
    ],
  ]);
  const scored = (pairs: [string, number][]): ScoredDocument[] => pairs.map(([docid, score]) => ({ docid, score }));
  // Instruction style: m1#1 pos > hn0 (won); m1#2 hn1 > pos (lost), hn1 > hn0 (won); m2#1 hn0 > pos (lost).
  const run = new Map([
    [
      'm1#1',
      scored([
        ['pos', 0.9],
        ['hn0', 0.1],
      ]),
    ],
    [
      'm1#2',
      scored([
        ['hn1', 0.6],
        ['pos', 0.5],
        ['hn0', 0.1],
      ]),
    ],
    [
      'm2#1',
      scored([
        ['hn0', 0.3],
        ['pos', 0.2],
      ]),
    ],
  ]);
  // Descriptive style, only the last steps (as MultiConIR has it: q_10 in two styles): m1#2 both pairs won; m2#1 won.
  const baseline = new Map([
    [
      'm1#2',
      scored([
        ['pos', 0.7],
        ['hn1', 0.6],
        ['hn0', 0.1],
      ]),
    ],
    [
      'm2#1',
      scored([
        ['pos', 0.4],
        ['hn0', 0.3],
      ]),
    ],
  ]);
  const measures = ['win_rate', 'adjacent_win_rate', 'flip_rate'].map((name) => instructionMeasure(name)!);
  const result = evaluateInstructions({ run, baseline, qrels, files: {} }, measures, defaultInstructionOptions);
  // WR_k on every step: m1#1 1, m1#2 0 (pos below hn1), m2#1 0 → 1/3.
  near(result.all.win_rate!.value, 1 / 3, 'win_rate over every step');
  assert.equal(result.all.win_rate!.n, 3);
  // WR_{k,k−1} on the last steps only: m1#2 (2,1) lost (1,0) won = 1/2, m2#1 (1,0) lost = 0 → 1/4 (every step: 1/2).
  near(result.all.adjacent_win_rate!.value, 0.25, 'adjacent_win_rate over the last steps');
  assert.equal(result.all.adjacent_win_rate!.n, 2);
  // Flip rate on the last steps: m1#2 (2,1) flips, (1,0) does not = 1/2; m2#1 flips = 1 → 3/4. m1#1 needs no baseline.
  near(result.all.flip_rate!.value, 0.75, 'flip_rate over the last steps');
  assert.deepEqual(
    result.cases.map((c) => [c.id, c.values.adjacent_win_rate ?? null]),
    [
      ['m1#1', null],
      ['m1#2', 0.5],
      ['m2#1', 0],
    ],
  );
  // Asked alone, flip rate needs no ranking for the earlier steps either: a run of the last steps is enough.
  const lastOnly = new Map([...run].filter(([id]) => id !== 'm1#1'));
  const flip = evaluateInstructions(
    { run: lastOnly, baseline, qrels, files: {} },
    [instructionMeasure('flip_rate')!],
    defaultInstructionOptions,
  );
  assert.deepEqual(
    flip.cases.map((c) => c.id),
    ['m1#2', 'm2#1'],
  );
  near(flip.all.flip_rate!.value, 0.75);
});

test('capped recall: micro and macro differ; a query without relevant documents is left out', () => {
  const gold1 = Array.from({ length: 20 }, (_, i) => `g${i}`);
  const run = new Map([
    ['q1', ranking(...gold1.slice(0, 5), 'x1', 'x2', 'x3', 'x4', 'x5')], // 5 of min(10, 20)
    ['q2', ranking('a', 'x', 'b')], // 2 of min(10, 2)
    ['q3', ranking('x')],
  ]);
  const qrels = new Map([
    ['q1', new Map(gold1.map((d) => [d, 1]))],
    [
      'q2',
      new Map([
        ['a', 1],
        ['b', 2],
      ]),
    ],
    ['q3', new Map([['x', 0]])],
  ]);
  const result = evaluateInstructions(
    { run, qrels, files: {} },
    [instructionMeasure('capped_recall')!],
    defaultInstructionOptions,
  );
  assert.deepEqual(
    result.cases.map((c) => c.values.capped_recall_10),
    [0.5, 1, null],
  );
  near(result.all.capped_recall_10!.value, 0.75, 'macro (0.5 + 1) / 2');
  near(result.micro.capped_recall_10!, 7 / 12, 'micro (5 + 2) / (10 + 2)');
  const at2 = evaluateInstructions({ run, qrels, files: {} }, [instructionMeasure('capped_recall')!], {
    ...defaultInstructionOptions,
    cutoffs: [2],
  });
  assert.deepEqual(
    at2.cases.map((c) => c.values.capped_recall_2),
    [1, 0.5, null],
  );
});

test('MaxP: a passage run becomes a document run scored by its best passage', async () => {
  const file = join(scratchDir(), 'passages.run');
  writeFileSync(file, 'q1 Q0 d1:0 1 0.5 r\nq1 Q0 d2:0 2 0.7 r\nq1 Q0 d1:3 3 0.9 r\n');
  const run = await readScoredRun(file, { maxp: true });
  assert.deepEqual(run.get('q1'), [
    { docid: 'd1', score: 0.9 },
    { docid: 'd2', score: 0.7 },
  ]);
  writeFileSync(file, 'q1 Q0 d1:0 1 0.5 r\nq1 Q0 d2 2 0.7 r\n');
  await assert.rejects(
    readScoredRun(file, { maxp: true }),
    /passages\.run:2:7: error: expected a passage id '<docid>:<n>' \(--maxp\), found 'd2'/,
  );
});

test("MaxP by the corpus's parent: '<src>#<n>' chunks and a table's database; only the queries asked", async () => {
  const file = join(scratchDir(), 'chunks.run');
  // q1 ranks HF-viewer chunks (src#n); q2 ranks tables, whose parent is their database.
  writeFileSync(
    file,
    'q1 Q0 src#0 1 0.5 r\nq1 Q0 other#0 2 0.7 r\nq1 Q0 src#1 3 0.9 r\nq1 Q0 whole 4 0.8 r\n' +
      'q2 Q0 t1 1 0.6 r\nq2 Q0 t2 2 0.4 r\nq2 Q0 t3 3 0.5 r\n',
  );
  const parents = new Map([
    ['src#0', 'src'],
    ['src#1', 'src'],
    ['other#0', 'other'],
    ['t1', 'db1'],
    ['t2', 'db1'],
    ['t3', 'db2'],
  ]);
  const all = await readScoredRun(file, { maxp: { parents } });
  // src: best of 0.5 and 0.9; 'whole' has no parent: a document itself.
  assert.deepEqual(all.get('q1'), [
    { docid: 'src', score: 0.9 },
    { docid: 'whole', score: 0.8 },
    { docid: 'other', score: 0.7 },
  ]);
  // db1: best of t1 0.6 and t2 0.4; db2: t3 0.5.
  assert.deepEqual(all.get('q2'), [
    { docid: 'db1', score: 0.6 },
    { docid: 'db2', score: 0.5 },
  ]);
  // MaxP for q1 only: q2 keeps its tables (a run mixing a chunked task and a table task).
  const mixed = await readScoredRun(file, { maxp: { parents, queries: new Set(['q1']) } });
  assert.deepEqual(mixed.get('q1'), all.get('q1'));
  assert.deepEqual(
    mixed.get('q2')!.map((d) => d.docid),
    ['t1', 't3', 't2'],
  );
});

test("paired tests: Student's t p against known values; a seeded randomisation test", () => {
  near(studentTwoSidedP(2.0, 10), 0.07339, 't = 2, df = 10');
  near(studentTwoSidedP(2.228139, 10), 0.05, 't(0.975, 10)');
  near(studentTwoSidedP(12.7062, 1), 0.05, 't(0.975, 1)');
  near(studentTwoSidedP(1.959964, 1e6), 0.05, 'normal limit');
  const random = seededRandom(3);
  const a = Array.from({ length: 200 }, () => random());
  const b = a.map((x) => x + 0.05 + (random() - 0.5) * 0.5);
  const first = pairedTests(a, b, { seed: 9 });
  assert.deepEqual(pairedTests(a, b, { seed: 9 }), first, 'the same seed, the same p');
  assert.ok(Math.abs(first.randomisationP! - first.tTestP!) < 0.02, `${first.randomisationP} ≈ ${first.tTestP}`);
  assert.equal(pairedTests([0.5], [0.6]).tTestP, null, 'one query: no test');
});
