// A labelling session over a real store of each kind (a SQLite file, a PostgreSQL database), as the Label view drives
// it: commits that are rows in judgment, condition_judgment and aspect_judgment; undo as retraction (and exports
// without undone labels); blind mode; queue versions and orders; the cursor restored by a new session on a reopened
// store; two annotators at once through two connections.
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { ImportedRecord } from '../../../core/importers/types.ts';
import { LabelSession } from '../../../core/labelling/labelSession.ts';
import { exportLabels, exportQrels } from '../../../core/store/studyExports.ts';
import { storeKinds } from '../../storeKinds.ts';
import { type LabellingStudy, labellingStudy, plainStudy } from './labellingStudy.ts';

/** A clock that stays on one millisecond unless moved: commits within one millisecond must still be ordered. */
function frozenClock(at = '2026-05-01T12:00:00.000Z') {
  let now = Date.parse(at);
  const clock = () => new Date(now);
  clock.advance = (ms: number) => {
    now += ms;
  };
  return clock;
}

function rows(study: LabellingStudy, sql: string, ...parameters: unknown[]): Promise<unknown[]> {
  return study.rows(sql, ...parameters);
}

async function* records(list: ImportedRecord[]): AsyncIterable<ImportedRecord> {
  yield* list;
}

/** Labels the pair at `position` (of the session's current queue). */
async function labelAt(session: LabelSession, position: number, label: number, extra: Record<string, unknown> = {}) {
  const version = session.state().queue.version;
  const pair = (await session.pairAt(position, version, false))!;
  return session.commit({ position, pairId: pair.pairId, label, queueVersion: version, ...extra });
}

for (const kind of storeKinds)
  test(`open: the state of a new session — the study, the queue in query order at 0, nothing judged (${kind})`, async () => {
    const study = await labellingStudy({ ...plainStudy(2, 3), guidelines: '# Guidelines' }, kind);
    const state = (await study.session('alice')).state();
    assert.deepEqual(state.queue, { order: 'query', unlabelledOnly: false, version: 1, length: 6 });
    assert.deepEqual(state.progress, { assigned: 6, judged: 0 });
    assert.equal(state.position, 0);
    assert.equal(state.study.study, 's');
    assert.equal(state.study.annotator, 'alice');
    assert.equal(state.study.guidelines, 'guidelines.md');
    assert.deepEqual(
      state.study.scale.map((e) => e.value),
      [0, 1, 2],
    );
    assert.equal(state.study.blind, false);
    assert.deepEqual(await rows(study, "SELECT kind FROM annotator WHERE name = 'alice'"), [{ kind: 'human' }]);
    await study.close();
  });

for (const kind of storeKinds)
  test(`open refuses who is not one of the study annotators, naming them and the setting; the adjudicator may (${kind})`, async () => {
    const study = await labellingStudy(
      {
        ...plainStudy(2, 3),
        extra: '  annotators alice bob overlap 1\n  adjudicator judy',
      },
      kind,
    );
    await assert.rejects(() => study.session('mallory'), {
      name: 'StoreError',
      message:
        "'mallory' is not an annotator of study 's' (its annotators: alice, bob, adjudicator judy): the setting " +
        'qrelsStudio.annotator chooses who labels',
    });
    await assert.rejects(() => study.session(''), /qrelsStudio\.annotator/);
    await assert.rejects(() => study.session('llm:gpt@x'), /LLM judge/);
    const alice = await study.session('alice');
    const bob = await study.session('bob');
    assert.deepEqual(alice.state().progress, { assigned: 3, judged: 0 });
    assert.deepEqual(bob.state().progress, { assigned: 3, judged: 0 });
    const judy = await study.session('judy');
    assert.deepEqual(judy.state().progress, { assigned: 6, judged: 0 }, "the adjudicator's queue is every pair");
    // A study that was never synced into this database.
    const other = { ...study.study, name: 'unsynced' };
    await assert.rejects(
      () => LabelSession.open(study.store, { studyFile: study.studyFile, study: other, annotator: 'alice' }),
      /no study 'unsynced'/,
    );
    await study.close();
  });

for (const kind of storeKinds)
  test(`commit stores one judgment with its condition and aspect answers, and moves the cursor on (${kind})`, async () => {
    const study = await labellingStudy(
      {
        queries: [{ qid: 'q1', text: 'olympic medals', instruction: '1) after 2000 2) per country 3) in a table' }],
        documents: [
          { docid: 'd1', body: 'medals' },
          { docid: 'd2', body: 'more medals' },
        ],
        ranking: { q1: ['d1', 'd2'] },
        extra:
          '  aspect topical "On topic?"\n  aspect complete "Complete?"\n  conditions from instruction\n' +
          '  derive label = all(conditions) ? 2 : topical ? 1 : 0',
      },
      kind,
    );
    const session = await study.session('alice', frozenClock());
    const first = (await session.pairAt(0, 1, true))!;
    assert.deepEqual(first.query.conditions, ['after 2000', 'per country', 'in a table']);
    assert.equal(session.state().study.hasConditions, true);
    assert.equal(session.state().study.derives, true);
    const { progress, pair } = await session.commit({
      position: 0,
      pairId: first.pairId,
      label: 1,
      note: 'medals only until 1996',
      conditions: [false, true, true],
      aspects: { topical: true, complete: false },
      queueVersion: 1,
    });
    assert.deepEqual(progress, { assigned: 2, judged: 1 });
    assert.deepEqual(pair.mine, {
      label: 1,
      at: '2026-05-01T12:00:00.000Z',
      note: 'medals only until 1996',
      conditions: [false, true, true],
      aspects: { complete: false, topical: true },
    });
    assert.equal(pair.position, 0);
    const [judgment] = (await rows(study, 'SELECT * FROM judgment')) as { id: number; client_id: string }[];
    // The commit's own id, drawn by the session (a retried commit sends it again: labelSession's commitId).
    assert.match(judgment!.client_id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.deepEqual(judgment, {
      id: judgment!.id,
      pair_id: first.pairId,
      annotator_id: ((await rows(study, "SELECT id FROM annotator WHERE name = 'alice'"))[0] as { id: number }).id,
      label: 1,
      created_at: '2026-05-01T12:00:00.000Z',
      source: 'manual',
      rationale: 'medals only until 1996',
      shown_label: null,
      client_id: judgment!.client_id,
    });
    assert.deepEqual(
      await rows(study, 'SELECT judgment_id, condition, satisfied FROM condition_judgment ORDER BY condition'),
      [
        { judgment_id: judgment!.id, condition: 1, satisfied: 0 },
        { judgment_id: judgment!.id, condition: 2, satisfied: 1 },
        { judgment_id: judgment!.id, condition: 3, satisfied: 1 },
      ],
    );
    assert.deepEqual(await rows(study, 'SELECT aspect, answer FROM aspect_judgment ORDER BY aspect'), [
      { aspect: 'complete', answer: 0 },
      { aspect: 'topical', answer: 1 },
    ]);
    assert.deepEqual(await rows(study, 'SELECT pair_id FROM label_cursor'), [
      { pair_id: (await session.pairAt(1, 1, false))!.pairId },
    ]);
    assert.equal(session.state().position, 1);
    await study.close();
  });

for (const kind of storeKinds)
  test(`bad commits are refused with what was expected, and store nothing (${kind})`, async () => {
    const study = await labellingStudy(
      {
        queries: [{ qid: 'q1', text: 'x', instruction: 'a; b' }],
        documents: [{ docid: 'd1', body: 'x' }],
        ranking: { q1: ['d1', 'd2'] },
        extra: '  aspect topical "On topic?"\n  conditions from instruction',
      },
      kind,
    );
    const session = await study.session('alice');
    const pair = (await session.pairAt(0, 1, false))!;
    const commit = { position: 0, pairId: pair.pairId, label: 1, queueVersion: 1 };
    await assert.rejects(() => session.commit({ ...commit, label: 7 }), {
      name: 'StoreError',
      message: "label 7 is not on the scale of study 's': expected 0 (Not relevant), 1 (Relevant), 2 (Highly)",
    });
    await assert.rejects(() => session.commit({ ...commit, queueVersion: 2 }), /the queue changed: reload/);
    await assert.rejects(
      () => session.commit({ ...commit, pairId: pair.pairId + 1 }),
      /expected pair .* at position 0/,
    );
    await assert.rejects(
      () => session.commit({ ...commit, position: 5 }),
      /expected a position in the queue \(0 to 1\)/,
    );
    await assert.rejects(
      () => session.commit({ ...commit, conditions: [true] }),
      /expected 2 condition answers for query 'q1'/,
    );
    await assert.rejects(
      () => session.commit({ ...commit, aspects: { topicl: true } }),
      /no aspect 'topicl' \(its aspects: topical\)/,
    );
    assert.equal((await rows(study, 'SELECT * FROM judgment')).length, 0);
    assert.deepEqual(session.state().progress, { assigned: 2, judged: 0 });
    await study.close();
  });

for (const kind of storeKinds)
  test(`commits of one pair within one millisecond stay distinct and ordered; the latest is current (${kind})`, async () => {
    const study = await labellingStudy(plainStudy(1, 2), kind);
    const session = await study.session('alice', frozenClock());
    for (const label of [0, 2, 1]) await labelAt(session, 0, label);
    assert.deepEqual(await rows(study, 'SELECT label, created_at FROM judgment ORDER BY id'), [
      { label: 0, created_at: '2026-05-01T12:00:00.000Z' },
      { label: 2, created_at: '2026-05-01T12:00:00.001Z' },
      { label: 1, created_at: '2026-05-01T12:00:00.002Z' },
    ]);
    assert.deepEqual(await rows(study, 'SELECT label FROM current_judgment'), [{ label: 1 }]);
    assert.deepEqual(session.state().progress, { assigned: 2, judged: 1 }, 'relabelling does not count twice');
    await study.close();
  });

for (const kind of storeKinds)
  test(`a suggestion shown and taken is stored as source suggestion, with the label shown (${kind})`, async () => {
    const study = await labellingStudy(plainStudy(1, 3), kind);
    const judge = await study.value("INSERT INTO annotator (name, kind) VALUES ('llm:m@h', 'llm') RETURNING id");
    const session = await study.session('alice');
    const pairs: number[] = [];
    for (const p of [0, 1, 2]) pairs.push((await session.pairAt(p, 1, false))!.pairId);
    for (const pairId of pairs) {
      await study.rows(
        `INSERT INTO suggestion (pair_id, annotator_id, label, rationale, confidence, created_at)
       VALUES (?, ?, 2, 'says so', 0.67, '2026-01-01T00:00:00.000Z')`,
        pairId,
        judge,
      );
    }
    assert.deepEqual((await session.pairAt(0, 1, false))!.suggestions, [
      { judge: 'llm:m@h', label: 2, rationale: 'says so', confidence: 0.67 },
    ]);
    await labelAt(session, 0, 2, { shownLabel: 2 }); // taken
    await labelAt(session, 1, 1, { shownLabel: 2 }); // overruled
    await labelAt(session, 2, 2); // nothing shown
    assert.deepEqual(await rows(study, 'SELECT label, source, shown_label FROM judgment ORDER BY id'), [
      { label: 2, source: 'suggestion', shown_label: 2 },
      { label: 1, source: 'manual', shown_label: 2 },
      { label: 2, source: 'manual', shown_label: null },
    ]);
    await study.close();
  });

for (const kind of storeKinds)
  test(`undo walks back this session: previous labels are current again, and exports leave undone labels out (${kind})`, async () => {
    const study = await labellingStudy(plainStudy(1, 3), kind);
    const clock = frozenClock();
    const session = await study.session('alice', clock);
    const p0 = (await session.pairAt(0, 1, false))!;
    const p1 = (await session.pairAt(1, 1, false))!;
    await labelAt(session, 0, 2);
    clock.advance(1000);
    await labelAt(session, 1, 1);
    clock.advance(1000);
    await labelAt(session, 0, 0); // changed her mind
    assert.deepEqual(session.state().progress, { assigned: 3, judged: 2 });

    const qrels = join(study.folder, 'alice.qrels');
    const labels = join(study.folder, 'labels.csv');
    const exported = async () => {
      await exportQrels(study.store, study.studyId, 'annotator:alice', qrels);
      await exportLabels(study.store, study.studyId, labels);
      return { qrels: readFileSync(qrels, 'utf8'), labels: readFileSync(labels, 'utf8').split('\n').slice(1, -1) };
    };
    assert.equal((await exported()).qrels, 'q1 0 d1-1 0\nq1 0 d1-2 1\n');

    const first = (await session.undo())!;
    assert.equal(first.pair.pairId, p0!.pairId);
    assert.equal(first.pair.position, 0);
    assert.equal(first.pair.mine?.label, 2, 'the earlier label of the pair is current again');
    assert.deepEqual(first.progress, { assigned: 3, judged: 2 });
    const files = await exported();
    assert.equal(files.qrels, 'q1 0 d1-1 2\nq1 0 d1-2 1\n');
    assert.equal(files.labels.length, 2);
    assert.ok(!files.labels.some((line) => line.startsWith('q1,d1-1,alice,0,')), 'the undone label is not exported');

    const second = (await session.undo())!;
    assert.equal(second.pair.pairId, p1!.pairId);
    assert.equal(second.pair.mine, undefined);
    assert.deepEqual(second.progress, { assigned: 3, judged: 1 });
    assert.equal((await session.undo())!.pair.mine, undefined);
    assert.equal(await session.undo(), null, 'nothing left to undo');
    assert.equal(session.state().progress.judged, 0);
    await assert.rejects(
      async () => exportQrels(study.store, study.studyId, 'annotator:alice', qrels),
      /no judgments by annotator 'alice'/,
    );
    assert.equal(await exportLabels(study.store, study.studyId, labels), 0);
    assert.equal((await rows(study, 'SELECT * FROM judgment')).length, 3, 'the history stays in the database');
    assert.equal((await rows(study, 'SELECT * FROM judgment_retraction')).length, 3);

    // Labelling again after undo is a new judgment, current at once.
    await labelAt(session, 0, 1);
    assert.deepEqual(await rows(study, 'SELECT label FROM current_judgment'), [{ label: 1 }]);
    assert.equal(session.state().progress.judged, 1);
    await study.close();
  });

for (const kind of storeKinds)
  test(`undo of a pair the reordered queue no longer holds: position -1; a new session has nothing to undo (${kind})`, async () => {
    const study = await labellingStudy(plainStudy(1, 3), kind);
    const session = await study.session('alice');
    const labelled = (await labelAt(session, 1, 2)).pair.pairId;
    await session.setQueue({ order: 'query', unlabelledOnly: true });
    assert.equal(session.state().queue.length, 2);
    const undone = (await session.undo())!;
    assert.equal(undone.pair.pairId, labelled);
    assert.equal(undone.pair.position, -1);
    assert.equal(undone.pair.queueVersion, 2);
    await labelAt(session, 0, 1);
    assert.equal(await (await study.session('alice')).undo(), null);
    await study.close();
  });

for (const kind of storeKinds)
  test(`an imported label relabelled and undone is current again; importing the same qrels again adds nothing (${kind})`, async () => {
    const study = await labellingStudy(plainStudy(1, 2), kind);
    const qrels = () => ({
      records: records([
        { kind: 'judgment', qid: 'q1', docid: 'd1-1', label: 1, at: { file: 'alice.qrels', line: 1 } },
      ]),
      origin: { file: 'alice.qrels', target: 'qrels', format: 'trec-qrels', annotator: 'alice' },
    });
    await study.store.imports.importBatch('s', [qrels()]);
    const session = await study.session('alice');
    assert.equal((await session.pairAt(0, 1, false))!.mine?.label, 1);
    assert.deepEqual(session.state().progress, { assigned: 2, judged: 1 });
    await labelAt(session, 0, 2);
    await session.undo();
    assert.deepEqual(await study.store.exports.currentLabels('s'), [
      { qid: 'q1', docid: 'd1-1', annotator: 'alice', label: 1 },
    ]);
    const again = await study.store.imports.importBatch('s', [qrels()]);
    assert.deepEqual(again.judgments, { added: 0, updated: 0, unchanged: 1 });
    await study.close();
  });

for (const kind of storeKinds)
  test(`blind: others and suggestions are hidden until the annotator has labelled the pair; the adjudicator sees all (${kind})`, async () => {
    const study = await labellingStudy(
      {
        ...plainStudy(1, 2),
        extra: '  annotators erin frank\n  adjudicator judy\n  blind',
      },
      kind,
    );
    const frank = await study.session('frank');
    await labelAt(frank, 0, 2, { note: 'frank thinks so' });
    const judge = await study.value("INSERT INTO annotator (name, kind) VALUES ('llm:m@h', 'llm') RETURNING id");
    const pairId = (await frank.pairAt(0, 1, false))!.pairId;
    await study.rows(
      "INSERT INTO suggestion (pair_id, annotator_id, label, created_at) VALUES (?, ?, 1, '2026-01-01T00:00:00.000Z')",
      pairId,
      judge,
    );

    const erin = await study.session('erin');
    assert.equal(erin.state().study.blind, true);
    const before = (await erin.pairAt(0, 1, false))!;
    assert.deepEqual([before.hidden, before.others, before.suggestions], [true, [], []]);
    assert.ok(!JSON.stringify(before).includes('frank'), 'nothing of the others is in the view');
    const { pair: after } = await labelAt(erin, 0, 0);
    assert.equal(after.hidden, false);
    assert.deepEqual(
      after.others.map((o) => [o.annotator, o.kind, o.label, o.source, o.rationale]),
      [['frank', 'human', 2, 'manual', 'frank thinks so']],
    );
    assert.deepEqual(after.suggestions, [{ judge: 'llm:m@h', label: 1 }]);
    assert.equal((await erin.pairAt(1, 1, false))!.hidden, true, 'the next pair stays hidden');
    await erin.undo();
    assert.equal((await erin.pairAt(0, 1, false))!.hidden, true, 'undone: hidden again');

    // Orders that show what others did are refused in blind mode, except to the adjudicator.
    for (const order of ['confidence', 'disagreement'] as const) {
      await assert.rejects(
        () => erin.setQueue({ order, unlabelledOnly: false }),
        /is blind: ordering by .* \(only its adjudicator, judy, may\)/,
      );
    }
    assert.equal((await erin.setQueue({ order: 'rank', unlabelledOnly: false })).queue.order, 'rank');
    const judy = await study.session('judy');
    assert.equal(judy.state().study.blind, false);
    const seen = (await judy.pairAt(0, 1, false))!;
    assert.deepEqual([seen.hidden, seen.others.length, seen.suggestions.length], [false, 1, 1]);
    assert.equal((await judy.setQueue({ order: 'disagreement', unlabelledOnly: false })).queue.order, 'disagreement');
    await study.close();
  });

for (const kind of storeKinds)
  test(`setQueue: a new version, the current pair kept when the new queue holds it; a stale version is refused (${kind})`, async () => {
    const study = await labellingStudy(
      {
        ...plainStudy(2, 3),
        ranking: { q1: ['d1-1', 'd1-2', 'd1-3'], q2: ['d2-1', 'd2-2', 'd2-3'] },
      },
      kind,
    );
    const session = await study.session('alice');
    const at = (await session.pairAt(3, 1, true))!; // q2/d2-1, rank 1
    assert.equal(at.query.qid, 'q2');
    const state = await session.setQueue({ order: 'rank', unlabelledOnly: false });
    assert.equal(state.queue.version, 2);
    assert.equal(state.position, 1, 'q1/d1-1, q2/d2-1, …: the pair is second by rank');
    assert.equal((await session.pairAt(1, 2, false))!.pairId, at.pairId);
    await assert.rejects(() => session.pairAt(1, 1, false), {
      name: 'StoreError',
      message: 'the queue changed: reload',
    });
    await labelAt(session, 1, 2);
    // The pair the annotator is at now is unlabelled: the unlabelled-only queue holds it, and it stays current.
    const pending = session.state().position;
    assert.equal(pending, 2);
    const next = (await session.pairAt(pending, 2, true))!;
    const filtered = await session.setQueue({ order: 'query', unlabelledOnly: true });
    assert.equal(filtered.queue.length, 5);
    assert.equal((await session.pairAt(filtered.position, 3, false))!.pairId, next.pairId);
    await assert.rejects(
      () => session.setQueue({ order: 'sideways' as never, unlabelledOnly: false }),
      /unknown queue order 'sideways'/,
    );
    assert.equal(await session.pairAt(5, 3, false), null, 'past the end');
    await assert.rejects(() => session.pairAt(-1, 3, false), /expected a queue position/);
    await study.close();
  });

for (const kind of storeKinds)
  test(`a new session on the reopened database is back where the annotator was: order, filter and pair (${kind})`, async () => {
    const study = await labellingStudy(plainStudy(3, 3), kind);
    let session = await study.session('dana');
    await labelAt(session, 0, 1);
    await labelAt(session, 1, 1);
    await session.setQueue({ order: 'rank', unlabelledOnly: true });
    const where = (await session.pairAt(4, 2, true))!;
    await study.close();

    const reopened = await study.reopen();
    session = await LabelSession.open(reopened, { studyFile: study.studyFile, study: study.study, annotator: 'dana' });
    const state = session.state();
    assert.deepEqual(state.queue, { order: 'rank', unlabelledOnly: true, version: 1, length: 7 });
    assert.deepEqual(state.progress, { assigned: 9, judged: 2 });
    assert.equal((await session.pairAt(state.position, 1, false))!.pairId, where.pairId);
    assert.equal(state.position, 4);
    // Another annotator starts at the beginning, in query order.
    const erin = await LabelSession.open(reopened, {
      studyFile: study.studyFile,
      study: study.study,
      annotator: 'erin',
    });
    assert.deepEqual([erin.state().queue.order, erin.state().position], ['query', 0]);
    await reopened.close();
  });

for (const kind of storeKinds)
  test(`two annotators label the same database file through two connections, each seeing the other (${kind})`, async () => {
    const study = await labellingStudy(plainStudy(2, 2), kind);
    const second = await study.reopen();
    const alice = await study.session('alice');
    const bob = await LabelSession.open(second, { studyFile: study.studyFile, study: study.study, annotator: 'bob' });
    for (let position = 0; position < 4; position++) {
      await labelAt(alice, position, 2);
      await labelAt(bob, position, position % 3);
    }
    assert.deepEqual(alice.state().progress, { assigned: 4, judged: 4 });
    assert.deepEqual(bob.state().progress, { assigned: 4, judged: 4 });
    const seenByAlice = (await alice.pairAt(1, 1, false))!;
    assert.deepEqual(
      seenByAlice.others.map((o) => [o.annotator, o.label]),
      [['bob', 1]],
    );
    assert.deepEqual(seenByAlice.mine?.label, 2);
    const counts = await rows(
      study,
      'SELECT a.name, count(*) AS n FROM current_judgment AS j JOIN annotator AS a ON a.id = j.annotator_id GROUP BY a.name',
    );
    assert.deepEqual(counts, [
      { name: 'alice', n: 4 },
      { name: 'bob', n: 4 },
    ]);
    await second.close();
    await study.close();
  });

for (const kind of storeKinds)
  test(`documents: neighbouring chunks of a parent in document-id order; another document by id; guidelines (${kind})`, async () => {
    const study = await labellingStudy(
      {
        queries: [{ qid: 'q1', text: 'x' }],
        documents: [
          { docid: 'paper:0', body: 'intro', parent: 'paper', title: 'Paper' },
          { docid: 'paper:1', body: 'method', parent: 'paper' },
          { docid: 'paper:2', body: 'results', parent: 'paper' },
          { docid: 'other', body: 'alone' },
        ],
        ranking: { q1: ['paper:1', 'other', 'missing'] },
        guidelines: '# Label carefully\n',
      },
      kind,
    );
    const session = await study.session('alice');
    const chunk = (await session.pairAt(0, 1, false))!.document!;
    assert.equal(chunk.parentDocid, 'paper');
    assert.deepEqual(chunk.chunk, { index: 1, count: 3, previousDocid: 'paper:0', nextDocid: 'paper:2' });
    const first = (await session.document('paper:0'))!;
    assert.deepEqual(
      [first.title, first.body, first.chunk],
      ['Paper', 'intro', { index: 0, count: 3, nextDocid: 'paper:1' }],
    );
    assert.equal((await session.pairAt(1, 1, false))!.document!.chunk, undefined);
    assert.equal((await session.pairAt(2, 1, false))!.document, undefined, 'a pooled document the corpus lacks');
    assert.equal(await session.document('nowhere'), null);
    assert.deepEqual(await session.guidelines(), {
      path: join(study.folder, 'guidelines.md'),
      markdown: '# Label carefully\n',
    });
    rmSync(join(study.folder, 'guidelines.md'));
    await assert.rejects(
      () => session.guidelines(),
      /cannot read the guidelines of study 's' at .*guidelines\.md: no such file/,
    );
    await study.close();
  });

for (const kind of storeKinds)
  test(`the adjudicator's labels are adjudicated: exported from adjudicated, and gone from it once undone (${kind})`, async () => {
    const study = await labellingStudy(
      { ...plainStudy(1, 2), extra: '  annotators ann ben\n  adjudicator judy' },
      kind,
    );
    await labelAt(await study.session('ann'), 0, 0);
    await labelAt(await study.session('ben'), 0, 2);
    const judy = await study.session('judy');
    await assert.rejects(() => labelAt(judy, 0, 1), /an adjudicated label needs a reason/);
    await labelAt(judy, 0, 1, { note: 'partly answers the query' });
    assert.deepEqual(await rows(study, 'SELECT source FROM judgment ORDER BY id'), [
      { source: 'manual' },
      { source: 'manual' },
      { source: 'adjudicated' },
    ]);
    const file = join(study.folder, 'adjudicated.qrels');
    assert.equal(await exportQrels(study.store, study.studyId, 'adjudicated', file), 1);
    assert.equal(readFileSync(file, 'utf8'), 'q1 0 d1-1 1\n');
    await judy.undo();
    assert.equal(await exportQrels(study.store, study.studyId, 'adjudicated', file), 0);
    assert.equal(await exportQrels(study.store, study.studyId, 'adjudicated-else-majority', file), 1);
    assert.equal(readFileSync(file, 'utf8'), 'q1 0 d1-1 0\n', 'a tie of the annotators goes to the lower label');
    await study.close();
  });

for (const kind of storeKinds)
  test(`a graded aspect stores its level and reads it back as a number; a level it does not have is refused (${kind})`, async () => {
    const study = await labellingStudy(
      {
        queries: [{ qid: 'q1', text: 'aspects' }],
        documents: [{ docid: 'd1', body: 'abstract' }],
        ranking: { q1: ['d1'] },
        extra:
          '  aspect a1 "Aspect 1" levels 0 1 2\n  aspect a2 "Aspect 2" levels 0 1 2\n  aspect topical "On topic?"\n' +
          '  derive label = a1 + a2 > 2 ? 2 : a1 + a2',
      },
      kind,
    );
    const session = await study.session('alice', frozenClock());
    const pair = (await session.pairAt(0, 1, true))!;
    assert.deepEqual(
      session.state().study.aspects.map((a) => a.levels),
      [[0, 1, 2], [0, 1, 2], undefined],
    );
    await assert.rejects(
      async () =>
        await session.commit({
          position: 0,
          pairId: pair.pairId,
          label: 2,
          aspects: { a1: 3, a2: 1, topical: true },
          queueVersion: 1,
        }),
      /expected aspect 'a1' to be one of its levels \(0, 1, 2\), found 3/,
    );
    await assert.rejects(
      () => session.commit({ position: 0, pairId: pair.pairId, label: 2, aspects: { topical: 1 }, queueVersion: 1 }),
      /expected aspect 'topical' to be true or false/,
    );
    assert.deepEqual(await rows(study, 'SELECT * FROM judgment'), []);
    // a1 fully met (2) + a2 mostly met (1) = 3, capped at 2 by the rule.
    const { pair: stored } = await session.commit({
      position: 0,
      pairId: pair.pairId,
      label: 2,
      aspects: { a1: 2, a2: 1, topical: true },
      queueVersion: 1,
    });
    assert.deepEqual(stored.mine!.aspects, { a1: 2, a2: 1, topical: true });
    assert.deepEqual(await rows(study, 'SELECT aspect, answer FROM aspect_judgment ORDER BY aspect'), [
      { aspect: 'a1', answer: 2 },
      { aspect: 'a2', answer: 1 },
      { aspect: 'topical', answer: 1 },
    ]);
    await study.close();
  });
