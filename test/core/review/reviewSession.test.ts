// A review over a real SQLite file: items imported (all or nothing, positioned errors), a reviewer's verdicts with
// the rubric and a reason, an edit that keeps the original and diffs against it, a rewrite's findings beside its
// diff, blind mode, and what the review decided (final verdicts, reviewer agreement, the accepted items' JSONL).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { importReviewItems } from '../../../core/review/reviewSession.ts';
import { exportReviewed, reviewSummary } from '../../../core/review/reviewSummary.ts';
import { createReviewStudy, reviewItems } from './reviewStudy.ts';

const items = reviewItems;
const reviewStudy = (extra = '') => createReviewStudy(`  annotators alice bob\n  adjudicator dana\n${extra}`);

test('items are imported with their first version; again, nothing changes; a changed text is a new version', async () => {
  const r = await reviewStudy();
  assert.deepEqual(r.imported, { added: 3, changed: 0, unchanged: 0 });
  assert.deepEqual(await importReviewItems(r.database, r.review, r.folder), { added: 0, changed: 0, unchanged: 3 });
  const edited = items.map((i) =>
    i.iid === 'i2' ? { ...i, instruction: 'Find tables of skyscrapers in metres.' } : i,
  );
  writeFileSync(join(r.folder, 'items.jsonl'), edited.map((i) => `${JSON.stringify(i)}\n`).join(''));
  assert.deepEqual(await importReviewItems(r.database, r.review, r.folder), { added: 0, changed: 1, unchanged: 2 });
  assert.deepEqual(
    r
      .session('alice')
      .itemAt(1)!
      .versions.map((v) => v.text),
    ['Find tables of tall buildings with heights in metres.', 'Find tables of skyscrapers in metres.'],
  );
  // A broken file: an error at its line, nothing imported.
  writeFileSync(
    join(r.folder, 'items.jsonl'),
    '{"iid": "i9", "instruction": "x"}\n{"iid": "i9", "instruction": "y"}\n',
  );
  await assert.rejects(
    importReviewItems(r.database, r.review, r.folder),
    /items\.jsonl:2:1: expected a new item id, found 'i9' again/,
  );
  assert.equal(r.database.db.prepare('SELECT count(*) FROM review_item').pluck().get(), 3);
  r.database.close();
});

test('verdicts with rubric and reason; an edit keeps the original and diffs against it; findings beside a rewrite', async () => {
  const r = await reviewStudy();
  const alice = r.session('alice');
  assert.equal(alice.state().length, 3);
  const first = alice.itemAt(0)!;
  assert.equal(first.typeLabel, 'Exclusive topic');
  assert.equal(first.model, 'gpt-5.2');
  assert.deepEqual(first.diff, [], 'an instruction with no source and one version: nothing to diff');
  assert.throws(
    () => alice.commit({ position: 0, itemId: 'i1', verdict: 'reject' }),
    /the verdict 'reject' needs a reason/,
  );
  assert.throws(
    () => alice.commit({ position: 0, itemId: 'i1', verdict: 'accept', rubric: { clarity: 'great' } }),
    /expected a level \(excellent, acceptable, poor\) for 'clarity', found 'great'/,
  );
  alice.commit({
    position: 0,
    itemId: 'i1',
    verdict: 'accept',
    rubric: { clarity: 'excellent', consistency: 'acceptable' },
  });
  const { item } = alice.commit({
    position: 1,
    itemId: 'i2',
    verdict: 'edit',
    reason: '"tall" is vague',
    text: 'Find tables of buildings over 300 m with heights in metres.',
  });
  assert.deepEqual(
    item.versions.map((v) => v.author),
    ['gpt-5.2', 'alice'],
  );
  assert.equal(item.diffAgainst, 'original');
  assert.ok(item.diff.some((p) => p.kind === 'removed' && p.text.includes('tall')));
  assert.ok(item.diff.some((p) => p.kind === 'added' && p.text.includes('300')));
  assert.equal(item.mine?.verdict, 'edit');
  const rewrite = alice.itemAt(2)!;
  assert.equal(rewrite.diffAgainst, 'source');
  assert.deepEqual(
    rewrite.findings.map((f) => f.check),
    ['dropped-number', 'dropped-citation', 'dropped-entity', 'length-drift'],
  );
  assert.deepEqual(r.database.db.prepare('SELECT verdict, rubric, rationale FROM review_verdict ORDER BY id').all(), [
    { verdict: 'accept', rubric: '{"clarity":"excellent","consistency":"acceptable"}', rationale: null },
    { verdict: 'edit', rubric: '{}', rationale: '"tall" is vague' },
  ]);
  assert.throws(() => r.session('mallory'), /'mallory' is not a reviewer of 'gen'/);
  r.database.close();
});

test('blind: others’ verdicts only after one’s own; final verdicts, agreement, and the accepted items exported', async () => {
  const r = await reviewStudy('  blind\n');
  const alice = r.session('alice');
  const bob = r.session('bob');
  alice.commit({ position: 0, itemId: 'i1', verdict: 'accept' });
  alice.commit({ position: 1, itemId: 'i2', verdict: 'reject', reason: 'leaks the answer' });
  alice.commit({ position: 2, itemId: 'n1', verdict: 'reject', reason: 'drops Section 420' });
  assert.equal(bob.itemAt(0)!.hidden, true);
  assert.deepEqual(bob.itemAt(0)!.others, []);
  bob.commit({ position: 0, itemId: 'i1', verdict: 'accept' });
  assert.deepEqual(
    bob.itemAt(0)!.others.map((o) => [o.annotator, o.verdict]),
    [['alice', 'accept']],
  );
  bob.commit({ position: 1, itemId: 'i2', verdict: 'accept' });
  bob.commit({ position: 2, itemId: 'n1', verdict: 'reject', reason: 'numbers gone' });
  // The adjudicator settles i2.
  r.session('dana').commit({ position: 1, itemId: 'i2', verdict: 'accept', reason: 'fine after all' });
  const studyId = r.database.studyId('gen');
  const summary = reviewSummary(r.database.db, studyId, r.review);
  assert.deepEqual(summary.types, [
    { type: 'C2', counts: { accept: 1 } },
    { type: 'HN', counts: { reject: 1 } },
    { type: 'S1', counts: { accept: 1 } },
  ]);
  assert.equal(summary.agreement.n_annotators, 2, 'the adjudicator is not a reviewer');
  assert.equal(summary.agreement.percent_agreement, 2 / 3);
  const out = join(r.folder, 'accepted.jsonl');
  assert.equal(await exportReviewed(r.database.db, studyId, r.review, out), 2);
  const lines = readFileSync(out, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    lines.map((l) => [l.item_id, l.final_verdict]),
    [
      ['i1', 'accept'],
      ['i2', 'accept'],
    ],
  );
  assert.deepEqual(
    lines[1].verdicts.map((v: { annotator: string; verdict: string }) => `${v.annotator}:${v.verdict}`),
    ['alice:reject', 'bob:accept', 'dana:accept'],
  );
  r.database.close();
});
