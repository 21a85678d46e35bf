// The review area of the storage port on both stores of test/storeKinds.ts: one review synced through each store's
// port (with a parent query and two table documents planted as rows), then the same ReviewsPort calls on each — items
// imported (new items with their first version, a changed text a new generated version, an item named twice, table
// sets replaced, a 300-item file), read back whole and one at a time (parent text, table set with titles and texts),
// progress, verdicts with an edit's version, a stale verdict refused with nothing of its batch written, the critic's
// items and verdicts, and the annotator rule (reviewers are people, the critic an LLM) — give the same answers, errors
// included. PostgreSQL alone: a verdict racing an import that makes it stale is refused or stored before the import,
// never stored against the new text.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseStudyFile, resolveStudies } from '../../../../core/dsl/index.ts';
import type { ReviewsPort } from '../../../../core/store/port/reviewsPort.ts';
import type { PostgresStudyStore } from '../../../../core/store/postgres/postgresStudyStore.ts';
import { locateNativeBinding, openDatabase } from '../../../../core/store/sqliteDatabase.ts';
import { StoreError } from '../../../../core/store/studyDatabase.ts';
import type { StoreChange } from '../../../../core/store/studyStore.ts';
import { nativeDir } from '../../../helpers.ts';
import { openTestStore, type StoreKind, storeKinds } from '../../../storeKinds.ts';

const at = '2026-01-01T00:00:00.000Z';

/** A store of `kind` with review "gen" synced, bob a person, and a query and two documents of the review planted. */
async function seededReview(kind: StoreKind) {
  const store = await openTestStore(kind);
  await store.studies.sync(
    resolveStudies(
      parseStudyFile(`review "gen" {
  items "items.jsonl" { id: iid  text: text  parent: qid }
}
`),
    ),
  );
  await store.studies.ensureAnnotator('bob', 'human');
  const studyId = await store.studies.studyId('gen');
  const rows: [string, unknown[]][] = [
    ["INSERT INTO query (study_id, qid, text, source) VALUES (?, 'q1', 'medal tables', 'fixture')", [studyId]],
    ...[
      ['t1', 'Medals 2012'],
      ['t2', null],
    ].map(([docid, title]): [string, unknown[]] => [
      "INSERT INTO document (study_id, docid, title, body, format, source) VALUES (?, ?, ?, ?, 'plain', 'fixture')",
      [studyId, docid, title, `table ${docid}`],
    ]),
  ];
  if (kind === 'sqlite') {
    const db = openDatabase(store.location, { nativeBinding: locateNativeBinding(nativeDir) });
    for (const [sql, values] of rows) db.prepare(sql).run(...values);
    db.close();
  } else {
    const { pool } = store as PostgresStudyStore;
    for (const [sql, values] of rows) {
      let n = 0;
      await pool.query(
        sql.replaceAll('?', () => `$${++n}`),
        values,
      );
    }
  }
  return store;
}

/** Runs the same calls on `reviews`; returns what each answered (errors as their class and message). */
async function scenario(reviews: ReviewsPort) {
  const log: unknown[] = [];
  const attempt = async <T>(what: string, call: () => Promise<T>): Promise<T | undefined> => {
    try {
      const result = await call();
      log.push([what, result]);
      return result;
    } catch (error) {
      log.push(error instanceof StoreError ? [what, 'rejected', error.name, error.message] : [what, 'rejected']);
      return undefined;
    }
  };
  const items = [
    { id: 'i1', text: 'Find medal tables.', parent: 'q1', model: 'gpt' },
    { id: 'i2', text: 'Find rivers.', source: 'rivers of Asia', type: 'S1' },
    { id: 'i3', text: 'Find towers.', parent: 'q9' },
  ];
  const tables = new Map([
    [
      'i1',
      new Map([
        ['t2', 0],
        ['t1', 2],
        ['t9', 1],
      ]),
    ],
  ]);
  await attempt('import', () => reviews.importItems('gen', items, tables, at));
  await attempt('import again, i2 changed, i3 twice', () =>
    reviews.importItems(
      'gen',
      [items[0]!, { ...items[1]!, text: 'Find long rivers.' }, items[2]!, { ...items[2]!, text: 'Find tall towers.' }],
      new Map([['i1', new Map([['t1', 1]])]]),
      '2026-01-02T00:00:00.000Z',
    ),
  );
  await attempt('import into no review', () => reviews.importItems('nope', items, undefined, at));
  const records = (await attempt('records', () => reviews.records('gen'))) ?? [];
  await attempt('items', () => reviews.items('gen'));
  const [i1, i2, i3] = records;
  await attempt('item with tables', () => reviews.item('gen', i1!.item.id, { tables: true }));
  await attempt('item without', () => reviews.item('gen', i3!.item.id));
  await attempt('no item', () => reviews.item('gen', 9999));
  await attempt('progress before', () => reviews.progress('gen', 'alice'));
  const [oldI2, newI2] = i2!.versions;
  await attempt('verdicts', () =>
    reviews.recordVerdicts(
      'gen',
      [
        {
          item: i1!.item.id,
          versionId: i1!.versions[0]!.id,
          reviewer: 'alice',
          verdict: 'edit',
          rubric: { clarity: 'poor' },
          reason: 'vague',
          text: 'Find Olympic medal tables.',
          root: i1!.versions[0]!.id,
        },
        { item: i2!.item.id, versionId: newI2!.id, reviewer: 'alice', verdict: 'reject', rubric: {}, reason: 'x' },
      ],
      at,
    ),
  );
  await attempt('progress of alice', () => reviews.progress('gen', 'alice'));
  await attempt('stale verdict', () =>
    reviews.recordVerdicts(
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
    ),
  );
  await attempt('a version of another item', () =>
    reviews.recordVerdicts(
      'gen',
      [{ item: i1!.item.id, versionId: newI2!.id, reviewer: 'bob', verdict: 'accept', rubric: {}, reason: null }],
      at,
    ),
  );
  await attempt('progress of bob', () => reviews.progress('gen', 'bob'));
  const critic = 'llm:critic@0123abcd';
  await attempt('critic items', () => reviews.criticItems('gen', critic));
  const rating = { item: i2!.item.id, versionId: newI2!.id, verdict: 'reject', rubric: { clarity: 'poor' } };
  await attempt('critic verdict', () =>
    reviews.recordCriticVerdict('gen', { ...rating, reviewer: critic, reason: 'vague' }, at),
  );
  await attempt('critic items after', () => reviews.criticItems('gen', critic));
  await attempt('a person as critic', () =>
    reviews.recordCriticVerdict('gen', { ...rating, reviewer: 'alice', reason: null }, at),
  );
  await attempt('a critic as reviewer', () =>
    reviews.recordVerdicts('gen', [{ ...rating, reviewer: critic, reason: 'x' }], at),
  );
  await attempt('records after', () => reviews.records('gen'));
  await attempt('records of no review', () => reviews.records('nope'));
  // A larger file: 300 items, new ones among known ones, each with a table set.
  const many = Array.from({ length: 300 }, (_, i) => ({ id: `m${(i * 7) % 300}`, text: `item ${i % 50}` }));
  const manyTables = new Map(many.map((item, i) => [item.id, new Map([[`t${i % 3}`, i % 3]])]));
  await attempt('a larger import', () =>
    reviews.importItems('gen', [...many, items[0]!, ...many.slice(0, 10)], manyTables, at),
  );
  await attempt('the larger import read back', () => reviews.records('gen'));
  await attempt('a table set of it', async () => (await reviews.item('gen', 50, { tables: true }))?.tables);
  return log;
}

function withoutLocation(log: unknown[], location: string): unknown {
  return JSON.parse(JSON.stringify(log).replaceAll(location, '<location>'));
}

const logs = new Map<StoreKind, unknown>();

for (const kind of storeKinds) {
  test(`the reviews port: imports, records, progress, verdicts, the stale-root check, the critic, the annotator rule (${kind})`, async (t) => {
    const store = await seededReview(kind);
    t.after(() => store.close());
    const changes: StoreChange[] = [];
    t.after(store.onChange((change) => changes.push(change)));
    const log = await scenario(store.reviews);
    logs.set(kind, withoutLocation(log, store.location));

    const answer = (what: string) => (log.find((entry) => (entry as unknown[])[0] === what) as unknown[])[1];
    assert.deepEqual(answer('import'), { added: 3, changed: 0, unchanged: 0 });
    assert.deepEqual(answer('import again, i2 changed, i3 twice'), { added: 0, changed: 2, unchanged: 2 });
    const detail = answer('item with tables') as { parentText: string; tables: unknown[] };
    assert.equal(detail.parentText, 'medal tables');
    assert.deepEqual(detail.tables, [{ id: 't1', label: 1, title: 'Medals 2012', text: 'table t1' }]);
    assert.deepEqual(answer('progress of alice'), { items: 3, reviewed: 2 });
    assert.deepEqual(answer('progress of bob'), { items: 3, reviewed: 0 });
    assert.equal(answer('stale verdict'), 'rejected');
    assert.equal(answer('a person as critic'), 'rejected');
    assert.equal(answer('records of no review'), 'rejected');
    assert.deepEqual(answer('a larger import'), { added: 300, changed: 0, unchanged: 11 });
    assert.equal((answer('the larger import read back') as unknown[]).length, 303);
    assert.ok(
      changes.some((c) => c.what === 'reviews' && c.study === 'gen'),
      JSON.stringify(changes),
    );
  });
}

test('the reviews port answers the same on SQLite and PostgreSQL, errors included', () => {
  assert.equal(logs.size, storeKinds.length, 'every kind ran');
  assert.deepEqual(logs.get('postgres'), logs.get('sqlite'));
});

test('PostgreSQL: a verdict racing the import that replaces its text is refused or stored before it', async (t) => {
  const store = await seededReview('postgres');
  t.after(() => store.close());
  const reviews = store.reviews;
  for (let round = 0; round < 10; round++) {
    await reviews.importItems('gen', [{ id: 'r', text: `text ${round}` }], undefined, at);
    const [record] = (await reviews.records('gen')).filter((r) => r.item.itemId === 'r');
    const shown = record!.versions.at(-1)!;
    const verdict = reviews.recordVerdicts(
      'gen',
      [
        {
          item: record!.item.id,
          versionId: shown.id,
          reviewer: 'alice',
          verdict: 'accept',
          rubric: {},
          reason: null,
          root: shown.id,
        },
      ],
      at,
    );
    const imported = reviews.importItems('gen', [{ id: 'r', text: `text ${round + 1}` }], undefined, at);
    const [stored] = await Promise.allSettled([verdict, imported]);
    const after = await reviews.item('gen', record!.item.id);
    const onShown = after!.verdicts.filter((v) => v.versionId === shown.id);
    if (stored.status === 'fulfilled') assert.equal(onShown.length, 1);
    else {
      assert.match(String(stored.reason), /changed since it was shown/);
      assert.equal(onShown.length, 0);
    }
  }
});
