// Review verdicts from a file (core/review/verdictsFile.ts) on a real record (a SQLite file and a PostgreSQL database): checked whole against the review's
// items and rules before one transaction writes them, read back by the outcome, the summary and the Review view as
// the view's own verdicts; a file imported twice records nothing new.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ImportError } from '../../../core/importers/types.ts';
import { reviewOutcomes, reviewSummary } from '../../../core/review/reviewSummary.ts';
import { importReviewVerdicts } from '../../../core/review/verdictsFile.ts';
import { storeKinds } from '../../storeKinds.ts';
import { createReviewStudy } from './reviewStudy.ts';

const line = (o: Record<string, unknown>) => `${JSON.stringify(o)}\n`;

for (const kind of storeKinds)
  test(`verdicts from a file: rubric, edit and adjudication as in the view; twice records nothing new (${kind})`, async () => {
    const study = await createReviewStudy('  annotators alice bob\n  adjudicator carol\n', {}, kind);
    const { store, review, folder } = study;
    try {
      const path = join(folder, 'verdicts.jsonl');
      writeFileSync(
        path,
        line({ item_id: 'i1', verdict: 'accept', reviewer: 'alice', rubric: { clarity: 'excellent' } }) +
          line({ item_id: 'i1', verdict: 'reject', reviewer: 'bob', reason: 'keeps Beijing' }) +
          line({
            item_id: 'i2',
            verdict: 'edit',
            reviewer: 'alice',
            reason: 'units',
            text: 'Tall buildings, heights in m.',
          }) +
          line({ item_id: 'i2', verdict: 'accept', reviewer: 'bob' }) +
          '\n' +
          line({ item_id: 'i1', verdict: 'accept', reviewer: 'carol', reason: 'the exclusion is clear' }),
      );
      const first = await importReviewVerdicts(store, review, path, { shown: 'verdicts.jsonl' });
      assert.deepEqual(first, { recorded: 5, unchanged: 0 });
      const outcomes = await reviewOutcomes(store, review);
      assert.deepEqual(
        outcomes.map((o) => [o.itemId, o.final, o.text]),
        [
          ['i1', 'accept', 'Find medal tables, excluding the 2008 Beijing Games.'],
          // alice edited, bob accepted the generated text: they differ.
          ['i2', 'disputed', 'Find tables of tall buildings with heights in metres.'],
          ['n1', 'unreviewed', (await reviewOutcomes(store, review))[2]!.text],
        ],
      );
      assert.deepEqual(
        outcomes[0]!.history.map((h) => [h.annotator, h.role, h.verdict]),
        [
          ['alice', 'reviewer', 'accept'],
          ['bob', 'reviewer', 'reject'],
          ['carol', 'adjudicator', 'accept'],
        ],
      );
      assert.deepEqual(outcomes[0]!.history[0]!.rubric, { clarity: 'excellent' });
      // The view sees the file's verdicts as any other: bob's own verdict on i2 is there.
      const bob = await study.session('bob');
      assert.equal((await bob.itemAt(1))!.mine?.verdict, 'accept');
      const again = await importReviewVerdicts(store, review, path);
      assert.deepEqual(again, { recorded: 0, unchanged: 5 });
      // bob now accepts alice's edit: i2 is decided with the edited text.
      writeFileSync(
        path,
        line({
          item_id: 'i2',
          verdict: 'edit',
          reviewer: 'bob',
          reason: 'agree',
          text: 'Tall buildings, heights in m.',
        }),
      );
      assert.deepEqual(await importReviewVerdicts(store, review, path), { recorded: 1, unchanged: 0 });
      const summary = await reviewSummary(store, review);
      assert.deepEqual(summary.types, [
        { type: 'C2', counts: { accept: 1 } },
        { type: 'HN', counts: { unreviewed: 1 } },
        { type: 'S1', counts: { edit: 1 } },
      ]);
    } finally {
      await store.close();
    }
  });

for (const kind of storeKinds)
  test(`a bad verdict anywhere in the file writes none of it; the error is at its line and column (${kind})`, async () => {
    const study = await createReviewStudy('  annotators alice bob\n', {}, kind);
    const { store, review, folder } = study;
    try {
      const path = join(folder, 'verdicts.jsonl');
      // Six lines before the bad one: five verdicts (bob has none on n1) and a blank line.
      const good = [
        ...['i1', 'i2'].flatMap((item_id) =>
          ['alice', 'bob'].map((reviewer) => line({ item_id, verdict: 'accept', reviewer })),
        ),
        line({ item_id: 'n1', verdict: 'accept', reviewer: 'alice' }),
        '\n',
      ];
      const cases: [string, RegExp][] = [
        [
          line({ item_id: 'i1', verdict: 'accept', reviewer: 'alice' }),
          /^v:7:12: expected one verdict per reviewer and item, found a second verdict by 'alice' on 'i1' \(first on line 1\)$/,
        ],
        [
          line({ item_id: 'n1', verdict: 'accept', reviewer: 'bob', rubric: { tone: 'poor' } }),
          /^v:7:\d+: expected a rubric dimension \(clarity, consistency\), found 'tone'$/,
        ],
        [
          line({ item_id: 'n1', verdict: 'accept', reviewer: 'bob', rubric: { clarity: 'great' } }),
          /^v:7:\d+: expected a level \(excellent, acceptable, poor\) for 'clarity', found 'great'$/,
        ],
        [
          line({ item_id: 'n1', verdict: 'reject', reviewer: 'bob', reason: 'x', text: 'new' }),
          /^v:7:\d+: expected no 'text' \(only an edit has one\)/,
        ],
        [
          line({ item_id: 'n1', verdict: 'accept', reviewer: 'llm:gpt' }),
          /^v:7:\d+: expected a person's name in 'reviewer'/,
        ],
        ['[1, 2]\n', /^v:7:1: expected a JSON object \(one verdict a line\), found an array$/],
      ];
      for (const [bad, expected] of cases) {
        // The bad line is line 7; another good line follows it.
        writeFileSync(
          path,
          [...good, bad, line({ item_id: 'n1', verdict: 'reject', reviewer: 'carl', reason: 'x' })].join(''),
        );
        const error = await importReviewVerdicts(store, review, path, { shown: 'v' }).then(
          () => assert.fail('expected an ImportError'),
          (e: unknown) => e,
        );
        assert.ok(error instanceof ImportError, String(error));
        assert.match(error.message, expected);
        assert.deepEqual(
          (await reviewOutcomes(store, review)).map((o) => o.history.length),
          [0, 0, 0],
          'nothing was written',
        );
      }
    } finally {
      await store.close();
    }
  });
