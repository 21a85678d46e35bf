// The Agreement view's report, its handlers (report, confusion, adjudication queue) and every read of the
// AgreementPort over the same labels in a store of each kind (test/storeKinds.ts): three people, an undone label,
// an LLM judge whose latest parsed suggestion is its label, an adjudication. Each kind's answers are checked against
// what the labels say, and PostgreSQL's against SQLite's, value for value (agreementDashboardWorker.test.ts compares
// SQLite's worker with SQLite in process; this is the same report from the other adapter).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { agreementDashboard } from '../../../core/agreement/agreementDashboard.ts';
import { agreementRequestHandlers } from '../../../extension/panels/agreementHandlers.ts';
import { type StoreKind, storeKinds } from '../../storeKinds.ts';
import { labellingStudy, plainStudy } from '../labelling/labellingStudy.ts';

const extra =
  '  annotators alice bob carol\n  adjudicator dana\n  agreement krippendorff ordinal target 0.5\n' +
  '  agreement cohen nominal';

/** Everything the Agreement view and the label sources read, over the labelled study in a store of `kind`. */
async function agreementReads(kind: StoreKind) {
  const study = await labellingStudy({ ...plainStudy(3, 6), extra }, kind);
  try {
    const { store, studyId } = study;
    // 3 queries × 6 documents; bob differs from alice now and then, carol labels the first 12 only.
    for (let k = 0; k < 18; k++) {
      const qid = `q${Math.floor(k / 6) + 1}`;
      const docid = `d${Math.floor(k / 6) + 1}-${(k % 6) + 1}`;
      const alice = k % 3;
      const labels: [string, number | undefined][] = [
        ['alice', alice],
        ['bob', k % 5 === 0 ? (alice + 1) % 3 : alice],
        ['carol', k < 12 ? (k % 7 === 0 ? (alice + 2) % 3 : alice) : undefined],
      ];
      for (const [annotator, label] of labels) {
        if (label === undefined) continue;
        await store.labels.addJudgment({ study: 's', qid, docid, annotator, label, source: 'manual' });
      }
    }
    // carol relabels a pair in a session and undoes it: her earlier label is current again.
    const carol = await study.session('carol');
    const version = carol.state().queue.version;
    const first = (await carol.pairAt(0, version, false))!;
    await carol.commit({ position: 0, pairId: first.pairId, label: 2, queueVersion: version });
    await carol.undo();
    // An LLM judge: on q1 a first run, then a later one (the latest counts); an answer that did not parse is no label.
    const judge = await study.value("INSERT INTO annotator (name, kind) VALUES ('llm:judge@abc', 'llm') RETURNING id");
    const suggest = (docid: string, label: number | null, at: string) =>
      study.rows(
        'INSERT INTO suggestion (pair_id, annotator_id, label, created_at) VALUES (?, ?, ?, ?)',
        study.pairId('q1', docid),
        judge,
        label,
        at,
      );
    for (let d = 1; d <= 6; d++) await suggest(`d1-${d}`, 0, '2026-01-01T00:00:00.000Z');
    await suggest('d1-2', 1, '2026-01-02T00:00:00.000Z');
    await suggest('d1-3', null, '2026-01-02T00:00:00.000Z');
    // The adjudicator decides a pair the people disagree on.
    await store.labels.addJudgment({
      study: 's',
      qid: 'q1',
      docid: 'd1-1',
      annotator: 'dana',
      label: 1,
      source: 'adjudicated',
      rationale: 'decided',
    });

    const options = { bootstrap: 200, seed: 7 };
    const dashboard = await agreementDashboard(store, studyId, study.study, options);
    const adjudicated: number[][] = [];
    const handlers = agreementRequestHandlers(() => ({ store, studyId, study: study.study }), {
      seed: 7,
      onAdjudicate: async (_selection, pairIds) => void adjudicated.push(pairIds),
    });
    const report = await handlers['agreement/report']({ threshold: 1 });
    const confusion = await handlers['agreement/confusion']({ a: 'alice', b: 'llm:judge@abc', threshold: 1 });
    await handlers['agreement/adjudicate']({ kind: 'all' });
    await assert.rejects(
      Promise.resolve(handlers['agreement/adjudicate']({ kind: 'pair', a: 'alice', b: 'zoe' })),
      /no labels by 'zoe'/,
    );
    const port = store.agreement;
    return {
      dashboard,
      report,
      confusion,
      adjudicated,
      // (When a label was given differs from run to run; its order is what a trend replays.)
      labelRows: (await port.studyLabelRows(studyId)).map(([qid, docid, annotator, giver, label]) => [
        qid,
        docid,
        annotator,
        giver,
        label,
      ]),
      people: await port.knownAnnotators(studyId, 'human'),
      judges: await port.knownAnnotators(studyId, 'llm'),
      alice: await port.annotatorLabels(studyId, 'alice'),
      judge: await port.annotatorLabels(studyId, 'llm:judge@abc'),
      majority: await port.majorityLabels(studyId),
      adjudicatedLabels: await port.adjudicatedLabels(studyId),
      means: await port.peopleMeanLabels(studyId),
      adjudicatedPairs: await port.adjudicatedPairCount(studyId),
      pairs: await port.pairCount(studyId),
      pairIds: await port.pairIds(studyId, [
        ['q2', 'd2-3'],
        ['q1', 'd1-1'],
      ]),
      chunkParents: await port.chunkParents(studyId),
      givers: await port.labelGivers(studyId),
      queries: await port.evaluationQueries(studyId),
    };
  } finally {
    await study.close();
  }
}

/** `value` with every trend point's time left out (when a label was given differs from run to run). */
function withoutTimes(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (key, v) => (key === 'at' ? undefined : v)));
}

let sqlite: Awaited<ReturnType<typeof agreementReads>> | undefined;

for (const kind of storeKinds)
  test(`the agreement report and every agreement read over the same labels (${kind})`, async () => {
    const reads = await agreementReads(kind);
    assert.deepEqual(
      reads.dashboard.annotators.map((a) => [a.name, a.labels]),
      [
        ['llm:judge@abc', 5],
        ['alice', 18],
        ['bob', 18],
        ['carol', 12],
      ],
      'in the order of their first label (the suggestions are dated earlier)',
    );
    assert.equal(reads.dashboard.adjudicated, 1);
    assert.ok(reads.dashboard.disagreements > 0);
    assert.ok(reads.dashboard.headlines[0]!.interval !== null, 'a bootstrap interval');
    assert.equal(reads.report.adjudicated, 1);
    assert.equal(reads.adjudicated.length, 1);
    assert.ok(reads.adjudicated[0]!.length > 0);
    assert.deepEqual([reads.people, reads.judges], [['alice', 'bob', 'carol', 'dana'], ['llm:judge@abc']]);
    assert.deepEqual(reads.judge, [], "a judge's suggestions are no judgments of its own");
    assert.deepEqual(reads.adjudicatedLabels, [{ qid: 'q1', docid: 'd1-1', label: 1 }]);
    assert.equal(reads.adjudicatedPairs, 1);
    assert.equal(reads.pairs, 18);
    assert.equal(reads.labelRows.length, 18 + 18 + 12 + 5);
    assert.equal(reads.alice.length, 18);
    assert.equal(reads.majority.length, 18);
    assert.equal(reads.means.length, 18);
    if (kind === 'sqlite') sqlite = reads;
    else {
      assert.deepEqual(
        withoutTimes(reads),
        withoutTimes(sqlite ?? (await agreementReads('sqlite'))),
        'PostgreSQL answers as SQLite does',
      );
    }
  });
