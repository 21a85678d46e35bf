// The judge quality report over a real record of each kind (test/storeKinds.ts): two people and an adjudicator
// label through the store, an LLM judge labels through the real judge run (core/judge/judgeStudy.ts, the real
// `openai` SDK against a server on 127.0.0.1 this test starts, three votes a pair), and four pooled runs are ranked
// by P.1 — a measure whose values are counted here by hand. Every number of the report is checked against what
// the labels say: the confusion matrix, κ, accuracy, the calibration error, the cost per 1,000 pairs, both system
// rankings with τ_b and τ_ap, and the gate's verdict.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { createChatClient } from '../../../../core/judge/chatClient.ts';
import { judgeStudy } from '../../../../core/judge/judgeStudy.ts';
import { promptTemplate } from '../../../../core/judge/promptTemplate.ts';
import { computeJudgeQualityReport, RankingMeasureError } from '../../../../core/judge/quality/judgeQualityReport.ts';
import { type StoreKind, storeKinds } from '../../../storeKinds.ts';
import { type LabellingStudy, labellingStudy, plainStudy } from '../../labelling/labellingStudy.ts';
import { type ChatBody, startOpenAiServer } from '../openAiServer.ts';

const promptText = `Judge the document for the query.
Query: {{query}}
Document: {{document}}
Grades:
{{scale}}
Answer with a JSON object: {"rationale": "…", "label": N}.
`;
const prompt = { ...promptTemplate('prompts/judge.md', promptText), output: 'label' as const };

/** The people's label of document d (of any query): d1 highly relevant, d2 relevant, the rest not. */
const peopleLabel = (d: number): number => (d === 1 ? 2 : d === 2 ? 1 : 0);
/**
 * The judge's three votes for document d: right on d1, d4, d5 (all three votes); on d2 it says 0 and on d3 1, two
 * votes of three each (confidence 2/3) — wrong both times.
 */
const judgeVotes = (d: number): number[] =>
  d === 1 ? [2, 2, 2] : d === 2 ? [0, 0, 1] : d === 3 ? [1, 1, 0] : [0, 0, 0];

/** Each run's top document per query q1…q4; the other documents follow in order. */
const runTops: Record<string, number[]> = {
  'a.run': [1, 1, 1, 1], // people P@1 1,    judge 1
  'b.run': [1, 2, 1, 3], // people P@1 0.75, judge 0.75
  'c.run': [2, 3, 3, 1], // people P@1 0.5,  judge 0.75
  'd.run': [3, 4, 5, 2], // people P@1 0.25, judge 0.25
};

function writeRuns(study: LabellingStudy): void {
  study.study.pools = [];
  for (const [name, tops] of Object.entries(runTops)) {
    let text = '';
    tops.forEach((top, q) => {
      const order = [top, ...[1, 2, 3, 4, 5].filter((d) => d !== top)];
      order.forEach((d, i) => {
        text += `q${q + 1} Q0 d${q + 1}-${d} ${i + 1} ${10 - i} system-${name[0]}\n`;
      });
    });
    writeFileSync(join(study.folder, name), text);
    // The pools as the study file would declare them (the record's pairs are the same twenty).
    study.study.pools.push({ path: name, absolutePath: join(study.folder, name), depth: 5 });
  }
}

async function judgedStudy(kind: StoreKind): Promise<{ study: LabellingStudy; judge: string; requests: number }> {
  const study = await labellingStudy(
    {
      ...plainStudy(4, 5),
      extra:
        '  annotators alice bob\n  adjudicator dana\n  judge "m" { endpoint "http://127.0.0.1:9/v1" votes 3 temperature 0.7 }',
    },
    kind,
  );
  writeRuns(study);
  const add = (annotator: string, qid: string, docid: string, label: number, source = 'manual' as const) =>
    study.store.labels.addJudgment({ study: 's', qid, docid, annotator, label, source });
  for (let q = 1; q <= 4; q++) {
    for (let d = 1; d <= 5; d++) await add('alice', `q${q}`, `d${q}-${d}`, peopleLabel(d));
  }
  // bob splits with alice on q1's d1 (the majority's tie would go to 0); dana adjudicates it as alice had it.
  await add('bob', 'q1', 'd1-1', 0);
  await add('bob', 'q1', 'd1-2', 1);
  await study.store.labels.addJudgment({
    study: 's',
    qid: 'q1',
    docid: 'd1-1',
    annotator: 'dana',
    label: 2,
    source: 'adjudicated',
  });
  const votesSeen = new Map<string, number>();
  const llm = await startOpenAiServer({
    respond: ({ body }: { body: ChatBody }) => {
      const match = /Document: document (\d+) for query (\d+)/.exec(body.messages?.[0]?.content ?? '');
      assert.ok(match, 'a prompt holds its document');
      const key = `${match[2]}-${match[1]}`;
      const n = votesSeen.get(key) ?? 0;
      votesSeen.set(key, n + 1);
      return {
        content: JSON.stringify({ rationale: 'said so', label: judgeVotes(Number(match[1]))[n] }),
        usage: { prompt_tokens: 100, completion_tokens: 10 },
      };
    },
  });
  try {
    const report = await judgeStudy(study.store, study.study, {
      concurrency: 4,
      client: createChatClient({ baseURL: llm.baseURL, apiKey: 'sk-test', maxAttempts: 1 }),
      prompt,
      prices: { m: { inputPerMillion: 2, outputPerMillion: 8 } },
    });
    assert.equal(report.failures, 0);
    return { study, judge: report.judge, requests: llm.requests() };
  } finally {
    await llm.close();
  }
}

const close = (actual: number | null | undefined, expected: number, what: string) => {
  assert.ok(actual != null && Math.abs(actual - expected) < 1e-9, `${what}: ${actual} ≠ ${expected}`);
};

for (const kind of storeKinds)
  test(`the report of a judge against the people: confusion, κ, accuracy, calibration, cost, system rankings, gate (${kind})`, async () => {
    const { study, judge, requests } = await judgedStudy(kind);
    try {
      assert.equal(requests, 60);
      // The light read the report's calibration uses is the suggestions' pair, label and confidence, by qid, docid.
      const full = await study.store.judge.suggestions(study.studyId, judge);
      const light = await study.store.judge.suggestionConfidences(study.studyId, judge);
      assert.equal(light.length, 20);
      assert.deepEqual(
        light,
        full
          .map(({ qid, docid, label, confidence }) => ({ qid, docid, label, confidence }))
          .sort((a, b) =>
            a.qid < b.qid ? -1 : a.qid > b.qid ? 1 : a.docid < b.docid ? -1 : a.docid > b.docid ? 1 : 0,
          ),
      );
      assert.deepEqual(light[1], { qid: 'q1', docid: 'd1-2', label: 0, confidence: 2 / 3 });
      assert.deepEqual(await study.store.judge.suggestionConfidences(study.studyId, 'llm:nobody'), []);
      study.study.judges[0]!.accept = [
        { metric: 'tau', operator: '>=', value: 0.9 },
        { metric: 'kappa', operator: '>=', value: 0.6 },
      ];
      const report = await computeJudgeQualityReport(study.store, study.studyId, study.study, study.folder, {
        measure: 'P.1',
        bootstrap: { samples: 200, seed: 1, level: 0.95 },
      });
      assert.equal(report.study, 's');
      assert.equal(report.peopleSource, 'adjudicated-else-majority');
      assert.equal(report.peoplePairs, 20);
      assert.deepEqual(report.options, {
        measure: 'P.1',
        pairs: 'people',
        tauAp: 'asymmetric',
        calibrationBins: 10,
        bootstrap: { samples: 200, seed: 1, level: 0.95 },
      });
      assert.deepEqual(
        report.judges.map((j) => j.judge),
        [judge],
      );
      assert.match(judge, /^llm:m@[0-9a-f]{8}$/);
      const quality = report.judges[0]!;
      assert.equal(quality.sharedPairs, 20);
      // People (rows) 0: d3 ×4 judged 1, d4 d5 ×8 judged 0; 1: d2 ×4 judged 0; 2: d1 ×4 (q1's adjudicated) judged 2.
      assert.deepEqual(quality.confusion, {
        labels: [0, 1, 2],
        counts: [
          [8, 4, 0],
          [4, 0, 0],
          [0, 0, 4],
        ],
        pairs: 20,
      });
      close(quality.accuracy.value, 12 / 20, 'accuracy');
      // p_o = 0.6, p_e = (12·12 + 4·4 + 4·4) / 400 = 0.44.
      close(quality.kappa.value, (0.6 - 0.44) / (1 - 0.44), 'κ');
      assert.ok(quality.kappa.interval, 'a bootstrap interval');
      assert.ok(quality.kappa.interval[0] <= quality.kappa.value! && quality.kappa.value! <= quality.kappa.interval[1]);
      // Twelve pairs at confidence 1, all right; eight at 2/3, all wrong: 8/20 · 2/3.
      close(quality.calibration.value, (8 / 20) * (2 / 3), 'ECE');
      assert.equal(quality.calibration.pairs, 20);
      // 60 calls of 100 input and 10 output tokens at $2 and $8 per million, over 20 pairs.
      assert.equal(quality.cost.calls, 60);
      assert.equal(quality.cost.pricedCalls, 60);
      assert.equal(quality.cost.pairsLabelled, 20);
      close(quality.cost.cost, 60 * (100 * 2 + 10 * 8) * 1e-6, 'cost');
      close(quality.cost.costPer1000Pairs.value, ((60 * 280e-6) / 20) * 1000, 'cost per 1,000 pairs');

      const rankings = quality.rankings!;
      assert.ok(rankings, quality.rankingsReason);
      assert.equal(rankings.measure, 'P.1');
      assert.equal(rankings.peopleQrels, 20);
      assert.equal(rankings.judgeQrels, 20);
      assert.deepEqual(
        rankings.systems.map((s) => [s.run, s.runid, s.people, s.judge, s.peopleRank, s.judgeRank]),
        [
          ['a.run', 'system-a', 1, 1, 1, 1],
          ['b.run', 'system-b', 0.75, 0.75, 2, 2.5],
          ['c.run', 'system-c', 0.5, 0.75, 3, 2.5],
          ['d.run', 'system-d', 0.25, 0.25, 4, 4],
        ],
      );
      // Five of six pairs concordant, one tied by the judge: 5 / √(6 · 5).
      close(rankings.tau.value, 5 / Math.sqrt(30), 'τ_b');
      // People's ranking the truth: C(2) = 1, C(3) = (1 + ½) / 2, C(4) = 3/3 → 2/3 · 2.75 − 1.
      close(rankings.tauAp.value, (2 / 3) * 2.75 - 1, 'τ_ap');

      assert.equal(quality.gate.declared, true);
      assert.equal(quality.gate.passed, false);
      assert.equal(
        quality.gate.failure,
        `judge ${judge} fails its gate: kappa 0.286 < 0.6 (the gate needs kappa >= 0.6)`,
      );

      // The symmetric τ_ap and another pair rule are options; a measure no ranking can use is the user's error.
      const symmetric = await computeJudgeQualityReport(study.store, study.studyId, study.study, study.folder, {
        measure: 'P.1',
        tauAp: 'symmetric',
        pairs: 'common',
        bootstrap: { samples: 0, seed: 1, level: 0.95 },
      });
      // Judge's ranking the truth (A, B = C, D), people's the estimate (A, B, C, D): 1, (1 + ½)/2, 1 as well.
      close(symmetric.judges[0]!.rankings!.tauAp.value, (2 / 3) * 2.75 - 1, 'symmetric τ_ap');
      assert.equal(symmetric.judges[0]!.kappa.interval, null);
      await assert.rejects(
        computeJudgeQualityReport(study.store, study.studyId, study.study, study.folder, { measure: 'P' }),
        (error: unknown) => error instanceof RankingMeasureError && /name one cutoff, as in P\.5/.test(error.message),
      );
      // With the study's default measure (map) the report still ranks, and with no run it says why not.
      const byMap = await computeJudgeQualityReport(study.store, study.studyId, study.study, study.folder);
      assert.equal(byMap.options.measure, 'map');
      assert.equal(byMap.judges[0]!.rankings!.systems.length, 4);
      study.study.pools = [];
      const noRuns = await computeJudgeQualityReport(study.store, study.studyId, study.study, study.folder);
      assert.equal(noRuns.judges[0]!.rankings, null);
      assert.match(noRuns.judges[0]!.rankingsReason!, /pools no run/);
      assert.match(noRuns.judges[0]!.gate.failure!, /tau is undefined \(study 's' pools no run to rank\)/);
    } finally {
      await study.close();
    }
  });
