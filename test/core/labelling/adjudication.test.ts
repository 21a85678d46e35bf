// Adjudication: the Agreement view picks disagreements (two annotators' or a query's), the study's adjudicator gets
// exactly those pairs as a queue, sees every label and note, and stores the final label with a reason — a judgment
// of its own provenance ('adjudicated') that export reads and agreement leaves out.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { adjudicationPairIds, agreementDashboard } from '../../../core/agreement/agreementDashboard.ts';
import { readStudyLabels } from '../../../core/agreement/studyLabels.ts';
import type { LabelSession } from '../../../core/labelling/labelSession.ts';
import { exportQrels } from '../../../core/store/studyExports.ts';
import { type StoreKind, storeKinds } from '../../storeKinds.ts';
import { labellingStudy, plainStudy } from './labellingStudy.ts';

async function labelPair(session: LabelSession, pairId: number, label: number, note?: string) {
  const state = session.state();
  for (let position = 0; position < state.queue.length; position++) {
    const pair = (await session.pairAt(position, state.queue.version, false))!;
    if (pair.pairId === pairId) {
      return await session.commit({
        position,
        pairId,
        label,
        queueVersion: state.queue.version,
        ...(note && { note }),
      });
    }
  }
  throw new Error(`pair ${pairId} is not in ${session.annotator}'s queue`);
}

async function disagreeingStudy(kind: StoreKind, extra = '  annotators ann ben\n  adjudicator judy') {
  const study = await labellingStudy({ ...plainStudy(2, 3), extra }, kind);
  const ann = await study.session('ann');
  const ben = await study.session('ben');
  // q1: d1 agree, d2 and d3 disagree; q2: d1 disagrees, d2 agrees, d3 only ann.
  const labels: [string, string, number, number | null][] = [
    ['q1', 'd1-1', 1, 1],
    ['q1', 'd1-2', 0, 2],
    ['q1', 'd1-3', 2, 1],
    ['q2', 'd2-1', 0, 1],
    ['q2', 'd2-2', 2, 2],
    ['q2', 'd2-3', 1, null],
  ];
  for (const [qid, docid, a, b] of labels) {
    await labelPair(
      ann,
      study.pairId(qid, docid),
      a,
      qid === 'q1' && docid === 'd1-2' ? 'only the title matches' : undefined,
    );
    if (b !== null) await labelPair(ben, study.pairId(qid, docid), b);
  }
  return study;
}

for (const kind of storeKinds)
  test(`the disagreements of two annotators, of a query, and all of them are exactly the pairs with different labels (${kind})`, async () => {
    const study = await disagreeingStudy(kind);
    const { data } = await readStudyLabels(study.store, study.studyId, [0, 1, 2]);
    const ids = (pairs: [string, string][]) => pairs.map(([q, d]) => study.pairId(q, d));
    assert.deepEqual(
      await adjudicationPairIds(study.store, study.studyId, data, { kind: 'pair', a: 'ann', b: 'ben' }),
      ids([
        ['q1', 'd1-2'],
        ['q1', 'd1-3'],
        ['q2', 'd2-1'],
      ]),
    );
    assert.deepEqual(
      await adjudicationPairIds(study.store, study.studyId, data, { kind: 'query', qid: 'q2' }),
      ids([['q2', 'd2-1']]),
    );
    assert.equal((await adjudicationPairIds(study.store, study.studyId, data, { kind: 'all' })).length, 3);
    await assert.rejects(
      () => adjudicationPairIds(study.store, study.studyId, data, { kind: 'pair', a: 'ann', b: 'zoe' }),
      /no labels by 'zoe'/,
    );
    await study.close();
  });

for (const kind of storeKinds)
  test(`the adjudicator works through exactly those pairs, sees every label and note, and must give a reason (${kind})`, async () => {
    const study = await disagreeingStudy(kind);
    const { data } = await readStudyLabels(study.store, study.studyId, [0, 1, 2]);
    const pairs = await adjudicationPairIds(study.store, study.studyId, data, { kind: 'pair', a: 'ann', b: 'ben' });
    const judy = await study.session('judy');
    const ownQueue = judy.state().queue;
    const state = await judy.adjudicate(pairs, 'ann ↔ ben: 3 disagreements');
    assert.deepEqual(state.queue.adjudication, { title: 'ann ↔ ben: 3 disagreements' });
    assert.equal(state.queue.length, 3);
    assert.equal(state.position, 0);
    assert.equal(state.queue.version, ownQueue.version + 1);
    const first = (await judy.pairAt(0, state.queue.version, true))!;
    assert.equal(first.pairId, pairs[0]);
    assert.deepEqual(
      first.others.map((o) => [o.annotator, o.label, o.rationale ?? null]),
      [
        ['ann', 0, 'only the title matches'],
        ['ben', 2, null],
      ],
    );
    const commit = { position: 0, pairId: pairs[0]!, label: 1, queueVersion: state.queue.version };
    await assert.rejects(() => judy.commit(commit), /an adjudicated label needs a reason/);
    await assert.rejects(() => judy.commit({ ...commit, note: '   ' }), /needs a reason/);
    await judy.commit({ ...commit, note: 'the second half answers the query' });
    assert.deepEqual(
      await study.rows(
        `SELECT a.name, j.label, j.source, j.rationale FROM judgment AS j JOIN annotator AS a ON a.id = j.annotator_id
       WHERE j.pair_id = ? ORDER BY j.id`,
        pairs[0],
      ),
      [
        { name: 'ann', label: 0, source: 'manual', rationale: 'only the title matches' },
        { name: 'ben', label: 2, source: 'manual', rationale: null },
        { name: 'judy', label: 1, source: 'adjudicated', rationale: 'the second half answers the query' },
      ],
    );
    // Adjudicated labels are decisions, not a third opinion: agreement is as before; export reads them.
    const after = (await readStudyLabels(study.store, study.studyId, [0, 1, 2])).data;
    assert.deepEqual(
      after.annotators.map((a) => a.name),
      ['ann', 'ben'],
    );
    const dashboard = await agreementDashboard(study.store, study.studyId, study.study, { bootstrap: 0 });
    assert.equal(dashboard.adjudicated, 1);
    assert.equal(dashboard.disagreements, 3);
    const file = join(study.folder, 'adjudicated.qrels');
    assert.equal(await exportQrels(study.store, study.studyId, 'adjudicated', file), 1);
    assert.equal(readFileSync(file, 'utf8'), 'q1 0 d1-2 1\n');

    // Back to the own queue where judy was; the adjudication queue did not move her cursor.
    const back = await judy.setQueue({ order: 'query', unlabelledOnly: false });
    assert.equal(back.queue.adjudication, undefined);
    assert.equal(back.queue.length, 6);
    assert.equal(back.position, 0);
    assert.equal((await judy.pairAt(0, back.queue.version, false))!.pairId, study.pairId('q1', 'd1-1'));
    await study.close();
  });

for (const kind of storeKinds)
  test(`only the study’s adjudicator adjudicates; a study without one says how to declare one (${kind})`, async () => {
    const study = await disagreeingStudy(kind);
    const ann = await study.session('ann');
    await assert.rejects(
      () => ann.adjudicate([study.pairId('q1', 'd1-2')], 'x'),
      /only the adjudicator of study 's', judy, adjudicates; this Label view labels as 'ann'/,
    );
    const judy = await study.session('judy');
    await assert.rejects(() => judy.adjudicate([999_999], 'x'), /pair 999999 is not a pair of study 's'/);
    await study.close();

    const plain = await disagreeingStudy(kind, '  annotators ann ben');
    await assert.rejects(
      async () => (await plain.session('ann')).adjudicate([plain.pairId('q1', 'd1-2')], 'x'),
      /study 's' declares no adjudicator: add `adjudicator NAME` to its block/,
    );
    await plain.close();
  });

for (const kind of storeKinds)
  test(`the dashboard: pairs, queries sorted by disagreement, a trend, and the target (${kind})`, async () => {
    const study = await disagreeingStudy(
      kind,
      '  annotators ann ben\n  adjudicator judy\n  agreement krippendorff ordinal target 0.67',
    );
    const dashboard = await agreementDashboard(study.store, study.studyId, study.study, { bootstrap: 200, seed: 5 });
    const [alpha] = dashboard.headlines;
    assert.equal(alpha!.title, "Krippendorff's α (ordinal)");
    assert.equal(alpha!.target, 0.67);
    assert.equal(alpha!.verdict!.state, 'not-yet', `α ${alpha!.value} is below 0.67`);
    assert.deepEqual(
      dashboard.pairs.map((p) => [p.a, p.b, p.kind, p.shared, p.disagreements]),
      [['ann', 'ben', 'human-human', 5, 3]],
    );
    assert.deepEqual(
      dashboard.queries.map((q) => [q.qid, q.units, q.disagreements]),
      [
        ['q1', 3, 2],
        ['q2', 2, 1],
      ],
    );
    assert.ok(dashboard.trend.length > 0 && dashboard.trend.length <= 20);
    assert.equal(dashboard.trend.at(-1)!.labels, 11);
    assert.equal(dashboard.trend.at(-1)!.value, alpha!.value, 'the last point is the statistic over every label');
    assert.deepEqual(
      dashboard.annotators.map((a) => [a.name, a.labels]),
      [
        ['ann', 6],
        ['ben', 5],
      ],
    );
    await study.close();
  });

for (const kind of storeKinds)
  test(`an LLM judge's suggestions are its labels: in the pairwise agreement (human-llm) and in export --from llm: (${kind})`, async () => {
    const study = await disagreeingStudy(kind);
    const judge = (await study.value(
      "INSERT INTO annotator (name, kind) VALUES ('llm:gpt-4.1-mini@0123abcd', 'llm') RETURNING id",
    )) as number;
    const suggest = {
      run: (...values: unknown[]) =>
        study.rows(
          'INSERT INTO suggestion (pair_id, annotator_id, label, rationale, created_at) VALUES (?, ?, ?, ?, ?)',
          ...values,
        ),
    };
    // A first run said 0 everywhere on q1; the run after it (later) says 1 for d1-1: the latest one counts. An answer
    // that did not parse (label NULL) is no label.
    await suggest.run(study.pairId('q1', 'd1-1'), judge, 0, 'first run', '2026-01-01T00:00:00.000Z');
    await suggest.run(study.pairId('q1', 'd1-1'), judge, 1, 'second run', '2026-01-02T00:00:00.000Z');
    await suggest.run(study.pairId('q1', 'd1-2'), judge, 2, null, '2026-01-01T00:00:00.000Z');
    await suggest.run(study.pairId('q1', 'd1-3'), judge, null, null, '2026-01-01T00:00:00.000Z');
    const { data } = await readStudyLabels(study.store, study.studyId, [0, 1, 2]);
    assert.deepEqual(
      data.annotators.map((a) => [a.name, a.kind]),
      [
        ['llm:gpt-4.1-mini@0123abcd', 'llm'],
        ['ann', 'human'],
        ['ben', 'human'],
      ],
    );
    const dashboard = await agreementDashboard(study.store, study.studyId, study.study, { bootstrap: 0 });
    const withJudge = dashboard.pairs.find((p) => p.a === 'ann' && p.b === 'llm:gpt-4.1-mini@0123abcd')!;
    assert.deepEqual([withJudge.kind, withJudge.shared, withJudge.disagreements], ['human-llm', 2, 1]);
    const file = join(study.folder, 'judge.qrels');
    assert.equal(await exportQrels(study.store, study.studyId, 'llm:gpt-4.1-mini', file), 2);
    assert.equal(readFileSync(file, 'utf8'), 'q1 0 d1-1 1\nq1 0 d1-2 2\n');
    await study.close();
  });
