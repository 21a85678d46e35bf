// A review over a real record (a SQLite file and a PostgreSQL database): items imported (all or nothing, positioned errors), a reviewer's verdicts with
// the rubric and a reason, an edit that keeps the original and diffs against it, a rewrite's findings beside its
// diff, blind mode (no one else's verdict or edit before one's own), and what the verdicts decide: only verdicts on
// the item's current text count, an accepted edit is agreed by accepting it, items wait for the reviewers the review
// asks for, disagreements are disputed until the adjudicator decides, and the accepted items' JSONL.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { importReviewItems, ReviewSession } from '../../../core/review/reviewSession.ts';
import { exportReviewed, reviewSummary } from '../../../core/review/reviewSummary.ts';
import { scratchDir } from '../../helpers.ts';
import { type StoreKind, storeKinds } from '../../storeKinds.ts';
import {
  createReviewStudy,
  openReviewFile,
  type ReviewStudy,
  reviewItems,
  storedVerdicts,
  verdictOn,
} from './reviewStudy.ts';

const items = reviewItems;
const reviewStudy = (kind: StoreKind, extra = '') =>
  createReviewStudy(`  annotators alice bob\n  adjudicator dana\n${extra}`, {}, kind);

/** Rewrites the items file with item `iid`'s text changed. */
function regenerate(r: ReviewStudy, iid: string, instruction: string): void {
  const changed = items.map((i) => (i.iid === iid ? { ...i, instruction } : i));
  writeFileSync(join(r.folder, 'items.jsonl'), changed.map((i) => `${JSON.stringify(i)}\n`).join(''));
}

const finals = async (r: ReviewStudy) => (await reviewSummary(r.store, r.review)).types.map((t) => [t.type, t.counts]);

async function exported(r: ReviewStudy): Promise<{ item_id: string; final_verdict: string; text: string }[]> {
  const out = join(r.folder, 'accepted.jsonl');
  await exportReviewed(r.store, r.review, out);
  const text = readFileSync(out, 'utf8').trim();
  return text === '' ? [] : text.split('\n').map((l) => JSON.parse(l));
}

for (const kind of storeKinds)
  test(`items are imported with their first version; again, nothing changes; a changed text is a new version (${kind})`, async () => {
    const r = await reviewStudy(kind);
    assert.deepEqual(r.imported, { added: 3, changed: 0, unchanged: 0 });
    assert.deepEqual(await importReviewItems(r.store, r.review, r.folder), { added: 0, changed: 0, unchanged: 3 });
    regenerate(r, 'i2', 'Find tables of skyscrapers in metres.');
    assert.deepEqual(await importReviewItems(r.store, r.review, r.folder), { added: 0, changed: 1, unchanged: 2 });
    const item = (await (await r.session('alice')).itemAt(1))!;
    assert.deepEqual(
      item.versions.map((v) => [v.number, v.text, v.current]),
      [
        [1, 'Find tables of tall buildings with heights in metres.', false],
        [2, 'Find tables of skyscrapers in metres.', true],
      ],
    );
    assert.equal(item.reviewing, item.versions[1]!.id);
    // A broken file: an error at its line, nothing imported.
    writeFileSync(
      join(r.folder, 'items.jsonl'),
      '{"iid": "i9", "instruction": "x"}\n{"iid": "i9", "instruction": "y"}\n',
    );
    await assert.rejects(
      importReviewItems(r.store, r.review, r.folder),
      /items\.jsonl:2:1: expected a new item id, found 'i9' again/,
    );
    assert.equal((await r.store.reviews.items('gen')).length, 3);
    await r.store.close();
  });

for (const kind of storeKinds)
  test(`verdicts with rubric and reason; an edit keeps the original and diffs against it; findings beside a rewrite (${kind})`, async () => {
    const r = await reviewStudy(kind);
    const alice = await r.session('alice');
    assert.equal((await alice.state()).length, 3);
    const first = (await alice.itemAt(0))!;
    assert.equal(first.typeLabel, 'Exclusive topic');
    assert.equal(first.model, 'gpt-5.2');
    assert.deepEqual(first.diff, [], 'an instruction with no source and one version: nothing to diff');
    await assert.rejects(verdictOn(alice, 0, { verdict: 'reject' }), /the verdict 'reject' needs a reason/);
    await assert.rejects(
      verdictOn(alice, 0, { verdict: 'accept', rubric: { clarity: 'great' } }),
      /expected a level \(excellent, acceptable, poor\) for 'clarity', found 'great'/,
    );
    await verdictOn(alice, 0, { verdict: 'accept', rubric: { clarity: 'excellent', consistency: 'acceptable' } });
    const { item } = await verdictOn(alice, 1, {
      verdict: 'edit',
      reason: '"tall" is vague',
      text: 'Find tables of buildings over 300 m with heights in metres.',
    });
    assert.deepEqual(
      item.versions.map((v) => [v.number, v.author, v.basedOn === undefined ? null : v.basedOn]),
      [
        [1, 'gpt-5.2', null],
        [2, 'alice', item.versions[0]!.id],
      ],
    );
    assert.equal(item.reviewing, item.versions[1]!.id, 'the edit is the version under review now');
    assert.equal(item.diffAgainst, 'original');
    assert.ok(item.diff.some((p) => p.kind === 'removed' && p.text.includes('tall')));
    assert.ok(item.diff.some((p) => p.kind === 'added' && p.text.includes('300')));
    assert.equal(item.mine?.verdict, 'edit');
    const rewrite = (await alice.itemAt(2))!;
    assert.equal(rewrite.diffAgainst, 'source');
    assert.deepEqual(
      rewrite.findings.map((f) => f.check),
      ['dropped-number', 'dropped-citation', 'dropped-entity', 'length-drift'],
    );
    assert.deepEqual(
      (await storedVerdicts(r.store)).map((v) => ({ verdict: v.verdict, rubric: v.rubric, rationale: v.reason })),
      [
        { verdict: 'accept', rubric: { clarity: 'excellent', consistency: 'acceptable' }, rationale: null },
        { verdict: 'edit', rubric: {}, rationale: '"tall" is vague' },
      ],
    );
    await assert.rejects(r.session('mallory'), /'mallory' is not a reviewer of 'gen'/);
    await r.store.close();
  });

for (const kind of storeKinds)
  test(`blind: neither others’ verdicts nor their edits before one’s own; the adjudicator settles a dispute with the edit (${kind})`, async () => {
    const r = await reviewStudy(kind, '  blind\n');
    const alice = await r.session('alice');
    const bob = await r.session('bob');
    await verdictOn(alice, 0, { verdict: 'accept' });
    await verdictOn(alice, 1, { verdict: 'edit', reason: 'vague', text: 'Find tables of buildings over 300 m.' });
    await verdictOn(alice, 2, { verdict: 'reject', reason: 'drops Section 420' });
    const hidden = (await bob.itemAt(1))!;
    assert.equal(hidden.hidden, true);
    assert.deepEqual(hidden.others, []);
    assert.equal(hidden.status, undefined, 'what the others decided would tell their verdicts');
    assert.deepEqual(
      hidden.versions.map((v) => v.author),
      ['gpt-5.2'],
      'alice’s edit is not shown before bob’s own verdict',
    );
    assert.deepEqual(hidden.diff, [], 'nor diffed against');
    await verdictOn(bob, 0, { verdict: 'accept' });
    assert.deepEqual(
      (await bob.itemAt(0))!.others.map((o) => [o.annotator, o.verdict]),
      [['alice', 'accept']],
    );
    // Bob accepts the generated text alice edited: they disagree.
    const after = (await verdictOn(bob, 1, { verdict: 'accept' })).item;
    assert.deepEqual(
      after.versions.map((v) => v.author),
      ['gpt-5.2', 'alice'],
    );
    assert.deepEqual(after.status, { final: 'disputed', reviewers: 2, required: 2 });
    await verdictOn(bob, 2, { verdict: 'reject', reason: 'numbers gone' });
    assert.deepEqual(await finals(r), [
      ['C2', { accept: 1 }],
      ['HN', { reject: 1 }],
      ['S1', { disputed: 1 }],
    ]);
    assert.deepEqual(await exported(r).then((l) => l.map((x) => x.item_id)), ['i1'], 'a disputed item is not exported');

    // The adjudicator's queue: the disputed item; dana sees both and accepts alice's edit.
    const dana = await r.session('dana');
    assert.equal((await dana.setQueue('disputed')).length, 1);
    const disputed = (await dana.itemAt(0))!;
    assert.equal(disputed.itemId, 'i2');
    assert.equal(disputed.hidden, false);
    assert.deepEqual(
      disputed.others.map((o) => [o.annotator, o.verdict, o.category]),
      [
        ['alice', 'edit', 'edit'],
        ['bob', 'accept', 'accept'],
      ],
    );
    assert.equal(disputed.versions.at(-1)!.text, 'Find tables of buildings over 300 m.');
    await verdictOn(dana, 0, { verdict: 'accept', reason: 'the edit is right' });
    assert.equal((await dana.itemAt(0))!.itemId, 'i2', 'the queue keeps the item it was picked with');
    assert.deepEqual(await finals(r), [
      ['C2', { accept: 1 }],
      ['HN', { reject: 1 }],
      ['S1', { edit: 1 }],
    ]);
    const summary = await reviewSummary(r.store, r.review);
    assert.equal(summary.agreement.n_annotators, 2, 'the adjudicator is not a reviewer');
    assert.equal(summary.agreement.percent_agreement, 2 / 3);
    assert.deepEqual(summary.outcomes, ['accept', 'edit', 'reject', 'disputed', 'pending', 'unreviewed']);
    const lines = await exported(r);
    assert.deepEqual(
      lines.map((l) => [l.item_id, l.final_verdict, l.text]),
      [
        ['i1', 'accept', items[0]!.instruction],
        ['i2', 'edit', 'Find tables of buildings over 300 m.'],
      ],
    );
    const history = (
      lines[1] as unknown as { verdicts: { annotator: string; role: string; version: number; made?: number }[] }
    ).verdicts;
    assert.deepEqual(
      history.map((v) => [v.annotator, v.role, v.version, v.made ?? null]),
      [
        ['alice', 'reviewer', 1, 2],
        ['bob', 'reviewer', 1, null],
        ['dana', 'adjudicator', 2, null],
      ],
    );
    await r.store.close();
  });

for (const kind of storeKinds)
  test(`not blind: accepting another’s edit agrees with it; one reviewer of two leaves an item pending (${kind})`, async () => {
    const r = await reviewStudy(kind);
    const alice = await r.session('alice');
    const bob = await r.session('bob');
    await verdictOn(alice, 1, { verdict: 'edit', reason: 'vague', text: 'Find tables of buildings over 300 m.' });
    assert.deepEqual((await alice.itemAt(1))!.status, { final: 'pending', reviewers: 1, required: 2 });
    const seen = (await bob.itemAt(1))!;
    assert.equal(seen.versions.find((v) => v.id === seen.reviewing)!.author, 'alice', 'bob reviews the edit');
    await verdictOn(bob, 1, { verdict: 'accept' });
    assert.deepEqual((await bob.itemAt(1))!.status, { final: 'edit', reviewers: 2, required: 2 });
    await verdictOn(alice, 0, { verdict: 'accept' });
    assert.deepEqual(await finals(r), [
      ['C2', { pending: 1 }],
      ['HN', { unreviewed: 1 }],
      ['S1', { edit: 1 }],
    ]);
    assert.deepEqual(
      (await exported(r)).map((l) => [l.item_id, l.text]),
      [['i2', 'Find tables of buildings over 300 m.']],
    );
    // bob's queue of items still to review: i1 and n1.
    assert.equal((await bob.setQueue('todo')).length, 2);
    assert.deepEqual(await Promise.all([0, 1].map(async (p) => (await bob.itemAt(p))!.itemId)), ['i1', 'n1']);
    await assert.rejects(bob.setQueue('mine' as 'all'), /expected a queue \(all, todo, disputed\), found 'mine'/);
    await r.store.close();
  });

for (const kind of storeKinds)
  test(`a changed generated text needs reviewing again: earlier verdicts do not count, and a stale verdict is refused (${kind})`, async () => {
    const r = await reviewStudy(kind, '  overlap 1\n');
    const alice = await r.session('alice');
    await verdictOn(alice, 1, { verdict: 'accept' });
    assert.deepEqual((await finals(r))[2], ['S1', { accept: 1 }]);
    const shown = (await alice.itemAt(1))!;
    regenerate(r, 'i2', 'Find tables of skyscrapers (regenerated).');
    await importReviewItems(r.store, r.review, r.folder);
    // The view still shows the old text: its verdict is refused, not stored against the new one.
    await assert.rejects(
      alice.commit({ position: 1, itemId: 'i2', verdict: 'accept', versionId: shown.reviewing }),
      /item 'i2' changed since it was shown \(the version judged is not one of its current versions you may see\): look at it again/,
    );
    assert.deepEqual((await finals(r))[2], ['S1', { unreviewed: 1 }]);
    assert.deepEqual(await exported(r), [], 'the new text was never accepted');
    const again = (await alice.itemAt(1))!;
    assert.equal(again.mine, undefined);
    assert.equal(again.earlier?.verdict, 'accept', 'the earlier verdict is shown as such');
    assert.equal((await alice.state()).reviewed, 0);
    await verdictOn(alice, 1, { verdict: 'accept' });
    assert.deepEqual(
      (await exported(r)).map((l) => l.text),
      ['Find tables of skyscrapers (regenerated).'],
    );
    await r.store.close();
  });

for (const kind of storeKinds)
  test(`an instruction checked against its table set (tables + corpus) and shown with its parent query's text (${kind})`, async () => {
    // i1 excludes the 2008 Beijing Games; its tables: t1 and t2 compliant (t2's text names Beijing 2008: it cannot
    // comply), t3 violating with a caption that gives its label away; too few of each. i2 has a full set.
    const tables = ['i1 0 t1 2', 'i1 0 t2 2', 'i1 0 t3 1', 'i1 0 t4 0']
      .concat(
        ['a', 'b', 'c'].map((t) => `i2 0 c${t} 2`),
        ['d', 'e', 'f'].map((t) => `i2 0 v${t} 1`),
      )
      .join('\n');
    const corpus = [
      { id: 't1', caption: 'Medal table of the 2012 London Olympics', table: '| nation | gold |' },
      { id: 't2', caption: 'Medal table, Summer Games', table: '| 2008 Beijing Games | host China |' },
      { id: 't3', caption: 'Excluded: medals of the 2008 Beijing Games', table: '| nation | gold |' },
      { id: 't4', caption: 'Rainfall in Peru', table: '| month | mm |' },
    ];
    const r = await createReviewStudy(
      '  queries "queries.jsonl" { id: qid  text: query }\n  corpus "tables.jsonl" { id: id  body: table  title: caption }\n  tables "instructions.qrels"\n',
      {
        'queries.jsonl': `${JSON.stringify({ qid: 'q1', query: 'olympic medal tables' })}\n`,
        'tables.jsonl': corpus.map((t) => `${JSON.stringify(t)}\n`).join(''),
        'instructions.qrels': `${tables}\n`,
      },
      kind,
    );
    const alice = await r.session('alice');
    const i1 = (await alice.itemAt(0))!;
    assert.equal(i1.parentText, 'olympic medal tables');
    assert.deepEqual(i1.tables, { compliant: 2, violating: 1, offTopic: 1 });
    assert.deepEqual(
      i1.findings.map((f) => [f.check, f.message]),
      [
        ['label-leak', "table 't3' has 'excluded' in its title or caption"],
        [
          'contradiction',
          "table 't2' is labelled compliant but mentions '2008 Beijing Games', which the instruction excludes",
        ],
        ['table-count', 'the instruction has 2 compliant (at least 3) and 1 violating (at least 3) tables'],
      ],
    );
    assert.deepEqual((await alice.itemAt(1))!.findings, [], 'i2: a full table set, nothing leaks');
    assert.equal((await alice.itemAt(1))!.parentText, undefined, 'q2 is not in the queries file');

    // A tables file naming an item the items file does not have: an error at its line; nothing changes.
    writeFileSync(join(r.folder, 'instructions.qrels'), `${tables}\nzz 0 t1 2\n`);
    await assert.rejects(
      importReviewItems(r.store, r.review, r.folder),
      /instructions\.qrels:11:1: error: the table set of item 'zz', which items\.jsonl does not have/,
    );
    assert.deepEqual((await alice.itemAt(0))!.tables, { compliant: 2, violating: 1, offTopic: 1 });
    await r.store.close();
  });

for (const kind of storeKinds)
  test(`overlap 2 of three reviewers: an item two agreed on leaves the third one’s queue; the adjudicator’s is the disputed ones (${kind})`, async () => {
    const r = await createReviewStudy('  annotators alice bob eve  overlap 2\n  adjudicator dana\n', {}, kind);
    const [alice, bob, eve, dana] = await Promise.all(['alice', 'bob', 'eve', 'dana'].map((name) => r.session(name)));
    await verdictOn(alice!, 0, { verdict: 'accept' });
    await verdictOn(bob!, 0, { verdict: 'accept' });
    await verdictOn(alice!, 1, { verdict: 'accept' });
    await verdictOn(bob!, 1, { verdict: 'reject', reason: 'vague' });
    await verdictOn(alice!, 2, { verdict: 'reject', reason: 'numbers gone' });
    assert.deepEqual((await alice!.itemAt(0))!.status, { final: 'accept', reviewers: 2, required: 2 });
    const queue = async (session: typeof alice) =>
      Promise.all(
        Array.from({ length: (await session!.state()).length }, async (_, p) => (await session!.itemAt(p))!.itemId),
      );
    await eve!.setQueue('todo');
    assert.deepEqual(await queue(eve), ['n1'], 'i1 is decided, i2 disputed: only n1 (pending) waits for eve');
    await dana!.setQueue('todo');
    assert.deepEqual(await queue(dana), ['i2']);
    await verdictOn(dana!, 0, { verdict: 'reject', reason: 'leaks its answer' });
    await dana!.setQueue('todo');
    assert.deepEqual(await queue(dana), [], 'settled');
    await r.store.close();
  });

for (const kind of storeKinds)
  test(`blind with three reviewers: no dispute, count or edit of others leaks; the adjudicator may accept an earlier edit (${kind})`, async () => {
    const r = await createReviewStudy('  annotators alice bob eve  overlap 2\n  adjudicator dana\n  blind\n', {}, kind);
    const [alice, bob, eve, dana] = await Promise.all(['alice', 'bob', 'eve', 'dana'].map((name) => r.session(name)));
    // alice and bob each edit i2, neither seeing the other's edit: two different texts, a dispute.
    const aliceEdit = 'Find tables of buildings over 300 m.';
    await verdictOn(alice!, 1, { verdict: 'edit', reason: 'vague', text: aliceEdit });
    const bobSees = (await bob!.itemAt(1))!;
    assert.deepEqual(
      bobSees.versions.map((v) => [v.number, v.author]),
      [[1, 'gpt-5.2']],
    );
    const bobsItem = (
      await verdictOn(bob!, 1, { verdict: 'edit', reason: 'vague', text: 'Find tables of skyscrapers.' })
    ).item;
    assert.deepEqual(bobsItem.status, { final: 'disputed', reviewers: 2, required: 2 });
    await verdictOn(alice!, 0, { verdict: 'accept' });

    // eve has judged nothing: she does not learn of the dispute, nor of any count, nor of an edit.
    assert.equal((await eve!.setQueue('disputed')).length, 0);
    const evesSummary = await eve!.summary();
    assert.equal(evesSummary.scope, 'the items you have reviewed');
    assert.deepEqual(
      evesSummary.types.map((t) => t.counts),
      [],
      'no outcome of an item eve has not reviewed',
    );
    await eve!.setQueue('all');
    assert.deepEqual(
      (await eve!.itemAt(1))!.versions.map((v) => [v.number, v.author]),
      [[1, 'gpt-5.2']],
      'numbered among what she sees: no gap where an edit was',
    );
    // alice and bob see the dispute they are in; alice's summary counts only her items (i1 pending, i2 disputed).
    assert.equal((await alice!.setQueue('disputed')).length, 1);
    assert.deepEqual(
      (await alice!.summary()).types.map((t) => [t.type, t.counts]),
      [
        ['C2', { pending: 1 }],
        ['S1', { disputed: 1 }],
      ],
    );
    assert.equal((await reviewSummary(r.store, r.review)).scope, undefined, 'the whole review');

    // dana sees both edits and accepts alice's, the earlier one, not the latest version.
    assert.equal((await dana!.setQueue('disputed')).length, 1);
    const disputed = (await dana!.itemAt(0))!;
    assert.deepEqual(
      disputed.versions.map((v) => [v.number, v.author, v.current]),
      [
        [1, 'gpt-5.2', true],
        [2, 'alice', true],
        [3, 'bob', true],
      ],
    );
    const alicesVersion = disputed.versions[1]!.id;
    await dana!.commit({
      position: 0,
      itemId: 'i2',
      verdict: 'accept',
      versionId: alicesVersion,
      reason: 'more exact',
    });
    assert.deepEqual((await finals(r))[2], ['S1', { edit: 1 }]);
    assert.deepEqual(
      (await exported(r)).map((l) => [l.item_id, l.text]),
      [['i2', aliceEdit]],
    );
    // A version the reviewer cannot see is refused: eve, blind, may not judge bob's edit by its id.
    await eve!.setQueue('all');
    await assert.rejects(
      eve!.commit({ position: 1, itemId: 'i2', verdict: 'accept', versionId: disputed.versions[2]!.id }),
      /the version judged is not one of its current versions you may see/,
    );
    await r.store.close();
  });

for (const kind of storeKinds)
  test(`each current version carries its own findings: an edit that restores the dropped facts has none (${kind})`, async () => {
    const r = await reviewStudy(kind);
    const source = items[2]!.original!;
    await verdictOn(await r.session('alice'), 2, { verdict: 'edit', reason: 'restores Section 420', text: source });
    const seen = (await (await r.session('bob')).itemAt(2))!;
    assert.deepEqual(
      seen.versions.map((v) => [v.author, v.findings?.map((f) => f.check)]),
      [
        ['gpt-4o', ['dropped-number', 'dropped-citation', 'dropped-entity', 'length-drift']],
        ['alice', []],
      ],
    );
    assert.equal(seen.reviewing, seen.versions[1]!.id);
    assert.deepEqual(seen.findings, [], 'the version under review: alice’s edit');
    await r.store.close();
  });

for (const kind of storeKinds)
  test(`a rewrite whose type the taxonomy calls an expansion is not flagged for growing; another type is (${kind})`, async () => {
    const folder = scratchDir('qrels-studio-review-');
    const source = 'eviction first hearing Tennessee';
    const rewrite =
      'which court hears an eviction case at first instance in Tennessee: general sessions or circuit court';
    const lines = [
      { iid: 'x1', type: 'QE', text: rewrite, original: source },
      { iid: 'x2', type: 'RW', text: rewrite, original: source },
    ];
    writeFileSync(join(folder, 'items.jsonl'), lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    const { file, store, review } = await openReviewFile(
      folder,
      `review "gen" {
  items "items.jsonl" { id: iid  text: text  type: type  source: original }
  taxonomy { QE "Query expansion"  RW "Rewrite" }
  verdicts accept reject
  annotators alice
}
`,
      kind,
    );
    const session = await ReviewSession.open(store, { studyFile: file, review, annotator: 'alice' });
    const drift = async (position: number) =>
      (await session.itemAt(position))!.findings.filter((f) => f.check === 'length-drift').length;
    assert.equal(await drift(0), 0, 'QE: an expansion');
    assert.equal(await drift(1), 1, 'RW: a rewrite of the same length change');
    await store.close();
  });
