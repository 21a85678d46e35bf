// Defects found reviewing the labelling session, each pinned on a real study (SQLite and PostgreSQL): a pair undone after a reorder
// left it out of the queue can be labelled again; a session whose study file was synced again (blind switched on, a
// scale value removed) refuses to go on under the old rules; queue orders read each judge's latest suggestion only.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { parseStudyFile, resolveStudies } from '../../../core/dsl/index.ts';
import { buildLabelQueue } from '../../../core/labelling/labelQueue.ts';
import { LabelSession } from '../../../core/labelling/labelSession.ts';
import { storeKinds } from '../../storeKinds.ts';
import { type LabellingStudy, labellingStudy, plainStudy, studyText } from './labellingStudy.ts';

async function current(study: LabellingStudy): Promise<{ pairId: number; label: number }[]> {
  return (await study.rows('SELECT pair_id AS "pairId", label FROM current_judgment ORDER BY pair_id')) as {
    pairId: number;
    label: number;
  }[];
}

for (const kind of storeKinds)
  test(`a pair undone after "unlabelled only" left it out of the queue is labelled again at position -1 (${kind})`, async () => {
    const study = await labellingStudy({ ...plainStudy(1, 4), extra: '  annotators alice bob  overlap 1' }, kind);
    const alice = await study.session('alice');
    const version = alice.state().queue.version;
    const first = (await alice.pairAt(0, version, true))!;
    await alice.commit({ position: 0, pairId: first.pairId, label: 1, queueVersion: version });
    const filtered = await alice.setQueue({ order: 'query', unlabelledOnly: true });
    assert.equal(filtered.queue.length, 1, 'the labelled pair left the queue');
    const undone = (await alice.undo())!;
    assert.equal(undone.pair.position, -1);
    assert.deepEqual(undone.progress, { assigned: 2, judged: 0 });
    const cursorBefore = await study.value('SELECT pair_id FROM label_cursor');

    const stored = await alice.commit({
      position: -1,
      pairId: first.pairId,
      label: 2,
      queueVersion: filtered.queue.version,
    });
    assert.deepEqual(stored.progress, { assigned: 2, judged: 1 });
    assert.equal(stored.pair.position, -1);
    assert.equal(stored.pair.mine?.label, 2);
    assert.deepEqual(await current(study), [{ pairId: first.pairId, label: 2 }]);
    assert.equal(alice.state().position, 0, 'still where alice is in the queue');
    assert.equal(await study.value('SELECT pair_id FROM label_cursor'), cursorBefore);

    // Only a pair of hers: bob's pair (overlap 1) and a pair of no study are refused, in words.
    const bobsPair = (await study.value(
      `SELECT s.pair_id FROM assignment AS s JOIN annotator AS a ON a.id = s.annotator_id WHERE a.name = 'bob' LIMIT 1`,
    )) as number;
    for (const pairId of [bobsPair, 9999]) {
      await assert.rejects(
        () => alice.commit({ position: -1, pairId, label: 1, queueVersion: filtered.queue.version }),
        {
          name: 'StoreError',
          message: `pair ${pairId} is not one of the pairs 'alice' labels in this study`,
        },
      );
    }
    assert.equal(alice.state().progress.judged, 1);
    await study.close();
  });

for (const kind of storeKinds)
  test(`a session whose study file was synced again refuses to show or store anything until a new one opens (${kind})`, async () => {
    const study = await labellingStudy(
      {
        ...plainStudy(1, 3),
        extra: '  annotators alice bob',
      },
      kind,
    );
    const bob = await study.session('bob');
    const version = bob.state().queue.version;
    for (let p = 0; p < 3; p++) {
      await bob.commit({
        position: p,
        pairId: (await bob.pairAt(p, version, false))!.pairId,
        label: 1,
        queueVersion: version,
      });
    }
    const alice = await study.session('alice');
    const aliceVersion = alice.state().queue.version;
    const first = (await alice.pairAt(0, aliceVersion, true))!;
    assert.equal(first.others.length, 1, 'not blind: bob is shown');
    // Another window opening the same file syncs the same text again: nothing changed, the session goes on.
    const sameText = studyText({ extra: '  annotators alice bob' });
    await study.store.studies.sync(
      resolveStudies(parseStudyFile(sameText), study.studyFile),
      new Date(Date.now() + 500),
    );
    assert.equal((await alice.pairAt(1, aliceVersion, false))?.position, 1);

    // The study file is edited to be blind, and synced (as StudyFiles does on save).
    const blindText = studyText({ extra: '  annotators alice bob\n  blind' });
    writeFileSync(study.studyFile, blindText);
    const blindModel = resolveStudies(parseStudyFile(blindText), study.studyFile);
    await study.store.studies.sync(blindModel, new Date(Date.now() + 1000));

    const refused = /^s\.assess changed since this Label view opened: nothing was stored; open study 's' again/;
    await assert.rejects(() => alice.pairAt(1, aliceVersion, false), { name: 'StoreError', message: refused });
    await assert.rejects(
      () => alice.commit({ position: 0, pairId: first.pairId, label: 2, queueVersion: aliceVersion }),
      {
        message: refused,
      },
    );
    await assert.rejects(() => alice.undo(), { message: refused });
    await assert.rejects(() => alice.setQueue({ order: 'rank', unlabelledOnly: false }), { message: refused });
    await assert.rejects(() => alice.document('d1-1'), { message: refused });
    assert.equal(alice.state().study.blind, false, 'state still answers (the view can say where it was)');
    assert.equal(await alice.studyChanged(), true, 'what the panel asks to open a new session');
    assert.equal(
      await study.value(
        "SELECT count(*) FROM judgment AS j JOIN annotator AS a ON a.id = j.annotator_id WHERE a.name = 'alice'",
      ),
      0,
    );

    // A session on the file as it is now (what the panel opens) is blind: bob's labels are hidden from alice again.
    const blindSession = await LabelSession.open(study.store, {
      studyFile: study.studyFile,
      study: blindModel.studies[0]!,
      annotator: 'alice',
    });
    assert.equal(await blindSession.studyChanged(), false);
    const shown = (await blindSession.pairAt(0, blindSession.state().queue.version, false))!;
    assert.equal(shown.hidden, true);
    assert.deepEqual(shown.others, []);
    await study.close();
  });

for (const kind of storeKinds)
  test(`a study renamed in its file (nothing labelled yet): the session on the old name stops (${kind})`, async () => {
    const study = await labellingStudy(plainStudy(1, 2), kind);
    const alice = await study.session('alice');
    const version = alice.state().queue.version;
    const first = (await alice.pairAt(0, version, false))!;
    const renamed = studyText({}).replace('study "s"', 'study "s2"');
    await study.store.studies.sync(
      resolveStudies(parseStudyFile(renamed), study.studyFile),
      new Date(Date.now() + 1000),
    );
    // Its labels would go to a study the file no longer has, and block every later sync of the file.
    await assert.rejects(() => alice.commit({ position: 0, pairId: first.pairId, label: 1, queueVersion: version }), {
      name: 'StoreError',
      message: /^s\.assess changed since this Label view opened: nothing was stored/,
    });
    assert.equal(await alice.studyChanged(), true);
    assert.equal(await study.value('SELECT count(*) FROM judgment'), 0);
    await study.close();
  });

for (const kind of storeKinds)
  test(`queue orders read each judge's latest suggestion only, as the view shows them (${kind})`, async () => {
    const study = await labellingStudy(plainStudy(1, 3), kind);
    const judge = await study.value("INSERT INTO annotator (name, kind) VALUES ('llm:judge@1', 'llm') RETURNING id");
    const suggest = {
      run: (...values: unknown[]) =>
        study.rows(
          'INSERT INTO suggestion (pair_id, annotator_id, label, confidence, created_at) VALUES (?, ?, ?, ?, ?)',
          ...values,
        ),
    };
    const [x, y, z] = ['d1-1', 'd1-2', 'd1-3'].map((docid) => study.pairId('q1', docid)) as [number, number, number];
    // x: the judge could not decide at first (unparsed), then said 2 with full confidence: what the view shows.
    await suggest.run(x, judge, null, null, '2026-01-01T00:00:00.000Z');
    await suggest.run(x, judge, 2, 1, '2026-01-02T00:00:00.000Z');
    // y: one suggestion, half confident.
    await suggest.run(y, judge, 1, 0.5, '2026-01-01T00:00:00.000Z');
    // z: the judge changed its mind (0, then 2) and one person agrees with its latest: no disagreement.
    await suggest.run(z, judge, 0, 0.9, '2026-01-01T00:00:00.000Z');
    await suggest.run(z, judge, 2, 0.9, '2026-01-02T00:00:00.000Z');
    await study.store.labels.addJudgment({
      study: 's',
      qid: 'q1',
      docid: 'd1-3',
      annotator: 'bob',
      label: 2,
      source: 'manual',
    });
    const alice = await study.session('alice');
    const shownX = (await alice.pairAt(0, alice.state().queue.version, false))!;
    assert.deepEqual(
      shownX.suggestions.map((s) => s.label),
      [2],
    );
    const scope = { studyId: study.studyId, annotatorId: 1, assignedOnly: false, unlabelledOnly: false };
    assert.deepEqual(
      [...(await buildLabelQueue(study.store, 'confidence', scope))],
      [y, z, x],
      'y (0.5) first; x is confident now',
    );
    assert.deepEqual(
      [...(await buildLabelQueue(study.store, 'disagreement', scope))],
      [x, y, z],
      'z agrees: query order throughout',
    );
    await study.close();
  });

for (const kind of storeKinds)
  test(`a session that replaces another continues its queue versions: a request meant for the old one is refused (${kind})`, async () => {
    const study = await labellingStudy({ ...plainStudy(1, 3), extra: '  annotators alice bob' }, kind);
    const alice = await study.session('alice');
    const version = alice.state().queue.version;
    const pair = (await alice.pairAt(0, version, false))!;
    // The annotator is switched while alice's commit is on its way: the view's request reaches bob's session.
    const bob = await LabelSession.open(study.store, {
      studyFile: study.studyFile,
      study: study.study,
      annotator: 'bob',
      replaces: alice,
    });
    assert.ok(bob.state().queue.version > version);
    await assert.rejects(
      () => bob.commit({ position: 0, pairId: pair.pairId, label: 1, queueVersion: version }),
      /the queue changed: reload/,
    );
    assert.equal(await study.value('SELECT count(*) FROM judgment'), 0, 'nothing stored as bob');
    await study.close();
  });
