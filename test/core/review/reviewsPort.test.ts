// The review area of the storage port as the extension host uses it — across its worker thread for SQLite, in
// process for PostgreSQL: items imported (a changed text a new generated version, table sets replaced), read back
// whole and one at a time, a reviewer's progress, verdicts with an edit's version, a verdict decided on a text the
// items file has since replaced refused with nothing written, the one annotator rule (a person is not a critic, a
// critic not a person), and the store's change notifications for review writes.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseStudyFile, resolveStudies } from '../../../core/dsl/index.ts';
import { locateNativeBinding } from '../../../core/store/sqliteDatabase.ts';
import { StoreError } from '../../../core/store/studyDatabase.ts';
import type { StoreChange } from '../../../core/store/studyStore.ts';
import { openWorkerStudyStore } from '../../../core/worker/workerStudyStore.ts';
import { nativeDir, repoRoot, scratchDir } from '../../helpers.ts';
import { openTestStore, storeKinds } from '../../storeKinds.ts';

const nativeBinding = locateNativeBinding(nativeDir);
const workerScript = join(repoRoot, 'core', 'worker', 'studyWorker.ts');
const model = resolveStudies(
  parseStudyFile(`review "gen" {
  items "items.jsonl" { id: iid  text: text  parent: qid }
}
`),
);
const at = '2026-01-01T00:00:00.000Z';

for (const kind of storeKinds)
  test(`reviews through the worker: import, records, progress, verdicts, a stale verdict refused, the annotator rule (${kind})`, async () => {
    // The store the extension host uses: SQLite in its worker thread, a PostgreSQL store in process.
    const store =
      kind === 'sqlite'
        ? await openWorkerStudyStore(join(scratchDir(), 'gen.sqlite'), { nativeBinding, workerScript })
        : await openTestStore(kind);
    const changes: StoreChange[] = [];
    const stop = store.onChange((change) => changes.push(change));
    try {
      await store.studies.sync(model);
      const items = [
        { id: 'i1', text: 'Find medal tables.', parent: 'q1', model: 'gpt' },
        { id: 'i2', text: 'Find rivers.', source: 'rivers of Asia' },
      ];
      const tables = new Map([['i1', new Map([['t1', 2]])]]);
      assert.deepEqual(await store.reviews.importItems('gen', items, tables, at), {
        added: 2,
        changed: 0,
        unchanged: 0,
      });
      assert.deepEqual(
        await store.reviews.importItems('gen', [items[0]!, { ...items[1]!, text: 'Find long rivers.' }], undefined, at),
        { added: 0, changed: 1, unchanged: 1 },
      );
      const [i1, i2] = await store.reviews.records('gen');
      assert.deepEqual(i1!.item, { id: i1!.item.id, itemId: 'i1', parent: 'q1', type: null, model: 'gpt' });
      assert.equal(i2!.item.source, 'rivers of Asia');
      assert.deepEqual(
        i2!.versions.map((v) => [v.text, v.author, v.basedOn]),
        [
          ['Find rivers.', 'generator', null],
          ['Find long rivers.', 'generator', null],
        ],
      );
      assert.deepEqual(
        (await store.reviews.items('gen')).map((i) => i.itemId),
        ['i1', 'i2'],
      );
      const detail = await store.reviews.item('gen', i1!.item.id, { tables: true });
      assert.deepEqual(detail?.tables, [], 'the second import gave no table set: replaced by none');
      assert.equal(await store.reviews.item('gen', 9999), undefined);

      // alice edits i1 and rejects i2's latest text.
      const [oldI2, newI2] = i2!.versions;
      await store.reviews.recordVerdicts(
        'gen',
        [
          {
            item: i1!.item.id,
            versionId: i1!.versions[0]!.id,
            reviewer: 'alice',
            verdict: 'edit',
            rubric: {},
            reason: 'vague',
            text: 'Find Olympic medal tables.',
            root: i1!.versions[0]!.id,
          },
          { item: i2!.item.id, versionId: newI2!.id, reviewer: 'alice', verdict: 'reject', rubric: {}, reason: 'x' },
        ],
        at,
      );
      const after = await store.reviews.item('gen', i1!.item.id);
      assert.deepEqual(
        after!.versions.map((v) => [v.text, v.author, v.basedOn]),
        [
          ['Find medal tables.', 'gpt', null],
          ['Find Olympic medal tables.', 'alice', i1!.versions[0]!.id],
        ],
      );
      assert.deepEqual(
        after!.verdicts.map((v) => [v.annotator, v.verdict, v.reason, v.at]),
        [['alice', 'edit', 'vague', at]],
      );
      assert.deepEqual(await store.reviews.progress('gen', 'alice'), { items: 2, reviewed: 2 });
      assert.deepEqual(await store.reviews.progress('gen', 'bob'), { items: 2, reviewed: 0 });

      // bob judged i2 as it was shown before the items file changed: refused, nothing written (the whole batch).
      const stale = store.reviews.recordVerdicts(
        'gen',
        [
          {
            item: i1!.item.id,
            versionId: i1!.versions[0]!.id,
            reviewer: 'bob',
            verdict: 'accept',
            rubric: {},
            reason: null,
          },
          {
            item: i2!.item.id,
            versionId: oldI2!.id,
            reviewer: 'bob',
            verdict: 'accept',
            rubric: {},
            reason: null,
            root: oldI2!.id,
          },
        ],
        at,
      );
      await assert.rejects(stale, (error: unknown) => {
        assert.ok(error instanceof StoreError, String(error));
        assert.match(error.message, /item 'i2' changed since it was shown/);
        return true;
      });
      assert.deepEqual(await store.reviews.progress('gen', 'bob'), { items: 2, reviewed: 0 });

      // The critic: an LLM; a person's name cannot be one, nor a critic's a reviewer.
      const critic = 'llm:critic@0123abcd';
      assert.deepEqual(
        (await store.reviews.criticItems('gen', critic)).map((c) => [c.item.itemId, c.text, c.rated]),
        [
          ['i1', 'Find medal tables.', false],
          ['i2', 'Find long rivers.', false],
        ],
      );
      const rating = { item: i2!.item.id, versionId: newI2!.id, verdict: 'reject', rubric: { clarity: 'poor' } };
      await store.reviews.recordCriticVerdict('gen', { ...rating, reviewer: critic, reason: 'vague' }, at);
      assert.deepEqual(
        (await store.reviews.criticItems('gen', critic)).map((c) => c.rated),
        [false, true],
      );
      await assert.rejects(
        store.reviews.recordCriticVerdict('gen', { ...rating, reviewer: 'alice', reason: null }, at),
        (error: unknown) => error instanceof StoreError && /'alice' is a person/.test(error.message),
      );
      await assert.rejects(
        store.reviews.recordVerdicts('gen', [{ ...rating, reviewer: critic, reason: 'x' }], at),
        (error: unknown) => error instanceof StoreError && /is an LLM judge/.test(error.message),
      );
      const stored = await store.reviews.item('gen', i2!.item.id);
      assert.deepEqual(
        stored!.verdicts.map((v) => [v.annotator, v.verdict, v.rubric]),
        [
          ['alice', 'reject', {}],
          [critic, 'reject', { clarity: 'poor' }],
        ],
      );
      await assert.rejects(store.reviews.records('nope'), StoreError);
      assert.ok(
        changes.some((c) => c.what === 'reviews' && c.study === 'gen'),
        JSON.stringify(changes),
      );
    } finally {
      stop();
      await store.close();
    }
  });
