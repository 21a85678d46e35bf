// Queue orders on a hand-built study whose expected orders are worked out below: queries imported out of id order,
// rank ties, pairs no run ranked, a pair of a query the study does not have, suggestions with and without a
// confidence (one unparsed), labels that agree and disagree, and a retracted label that must not count.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ImportedRecord } from '../../../core/importers/types.ts';
import { buildLabelQueue, type QueueScope } from '../../../core/labelling/labelQueue.ts';
import type { QueueOrder } from '../../../core/labelling/types.ts';
import { type StoreKind, storeKinds } from '../../storeKinds.ts';
import { type LabellingStudy, labellingStudy } from './labellingStudy.ts';

async function* records(list: ImportedRecord[]): AsyncIterable<ImportedRecord> {
  yield* list;
}

/**
 * Queries `qb` (imported first) and `qa` (imported later: a larger query id although it sorts first by name).
 * qb ranks x3, x1, x2 (run 1) and x4 at rank 1 (run 2: a tie with x3); qa ranks y1, y2. Imported judgments add
 * (qb, x9) and (qz, z1), pairs no run ranked, qz not one of the study's queries.
 */
async function queueStudy(kind: StoreKind, extra = ''): Promise<LabellingStudy> {
  const study = await labellingStudy(
    {
      queries: [{ qid: 'qb', text: 'b' }],
      documents: ['x1', 'x2', 'x3', 'x4', 'y1', 'y2'].map((docid) => ({ docid, body: docid })),
      ranking: { qb: ['x3', 'x1', 'x2'] },
      extra,
    },
    kind,
  );
  await study.store.imports.importBatch('s', [
    {
      records: records([{ kind: 'query', qid: 'qa', text: 'a', metadata: {}, at: { file: 'more', line: 1 } }]),
      origin: { file: 'more', target: 'queries', format: 'jsonl' },
    },
  ]);
  await study.pool({ qb: ['x4'], qa: ['y1', 'y2'] }, 'second.trec');
  for (const [qid, docid] of [
    ['qb', 'x9'],
    ['qz', 'z1'],
  ] as const) {
    await study.store.labels.addJudgment({
      study: 's',
      qid,
      docid,
      annotator: 'assessor',
      label: 1,
      source: 'imported',
    });
  }
  return study;
}

async function judge(study: LabellingStudy, name: string): Promise<number> {
  return (await study.value(
    `INSERT INTO annotator (name, kind) VALUES (?, 'llm')
     ON CONFLICT (name) DO UPDATE SET name = excluded.name RETURNING id`,
    name,
  )) as number;
}

async function suggest(
  study: LabellingStudy,
  pair: string,
  judgeName: string,
  label: number | null,
  confidence?: number,
): Promise<void> {
  const [qid, docid] = pair.split('/') as [string, string];
  const pairId = await study.value(
    'SELECT id FROM pair WHERE study_id = ? AND qid = ? AND docid = ?',
    study.studyId,
    qid,
    docid,
  );
  await study.rows(
    `INSERT INTO suggestion (pair_id, annotator_id, label, confidence, created_at)
     VALUES (?, ?, ?, ?, '2026-01-01T00:00:00.000Z')`,
    pairId,
    await judge(study, judgeName),
    label,
    confidence ?? null,
  );
}

async function label(study: LabellingStudy, pair: string, annotator: string, value: number): Promise<number> {
  const [qid, docid] = pair.split('/') as [string, string];
  return (await study.store.labels.addJudgment({ study: 's', qid, docid, annotator, label: value, source: 'manual' }))
    .id;
}

async function retract(study: LabellingStudy, judgmentId: number): Promise<void> {
  await study.rows(
    "INSERT INTO judgment_retraction (judgment_id, retracted_at) VALUES (?, '2026-01-02T00:00:00.000Z')",
    judgmentId,
  );
}

async function queue(
  study: LabellingStudy,
  order: QueueOrder,
  annotator: string,
  scope: Partial<QueueScope> = {},
): Promise<string[]> {
  const annotatorId = ((await study.value('SELECT id FROM annotator WHERE name = ?', annotator)) as number) ?? -1;
  const ids = await buildLabelQueue(study.store, order, {
    studyId: study.studyId,
    annotatorId,
    assignedOnly: false,
    unlabelledOnly: false,
    ...scope,
  });
  const names = new Map(
    (await study.rows("SELECT id, qid || '/' || docid AS name FROM pair WHERE study_id = ?", study.studyId)).map(
      (row) => [row.id as number, row.name as string],
    ),
  );
  return [...ids].map((id) => names.get(id) as string);
}

for (const kind of storeKinds)
  test(`query order: query import order (ids), then best rank with unranked pairs last, then docid (${kind})`, async () => {
    const study = await queueStudy(kind);
    assert.deepEqual(await queue(study, 'query', 'alice'), [
      'qb/x3',
      'qb/x4',
      'qb/x1',
      'qb/x2',
      'qb/x9',
      'qa/y1',
      'qa/y2',
      'qz/z1',
    ]);
    await study.close();
  });

for (const kind of storeKinds)
  test(`rank order: best rank across queries, ties in query order, unranked pairs last (${kind})`, async () => {
    const study = await queueStudy(kind);
    assert.deepEqual(await queue(study, 'rank', 'alice'), [
      'qb/x3',
      'qb/x4',
      'qa/y1',
      'qb/x1',
      'qa/y2',
      'qb/x2',
      'qb/x9',
      'qz/z1',
    ]);
    await study.close();
  });

for (const kind of storeKinds)
  test(`confidence order: least confident suggestion first (unparsed = 0, no confidence = 1), unsuggested last (${kind})`, async () => {
    const study = await queueStudy(kind);
    await suggest(study, 'qa/y2', 'llm:A@1', 2, 0.4);
    await suggest(study, 'qa/y2', 'llm:B@1', 2, 0.9);
    await suggest(study, 'qb/x1', 'llm:A@1', null);
    await suggest(study, 'qb/x2', 'llm:A@1', 1);
    await suggest(study, 'qb/x3', 'llm:A@1', 1, 0.4);
    assert.deepEqual(await queue(study, 'confidence', 'alice'), [
      'qb/x1',
      'qb/x3',
      'qa/y2',
      'qb/x2',
      'qb/x4',
      'qb/x9',
      'qa/y1',
      'qz/z1',
    ]);
    await study.close();
  });

for (const kind of storeKinds)
  test(`disagreement order: most distinct labels (current labels and suggestions) first; retracted ones do not count (${kind})`, async () => {
    const study = await queueStudy(kind);
    await label(study, 'qb/x4', 'alice', 0);
    await label(study, 'qb/x4', 'bob', 2);
    await suggest(study, 'qb/x4', 'llm:A@1', 1); // 3 distinct
    await label(study, 'qa/y1', 'alice', 1);
    await label(study, 'qa/y1', 'bob', 2); // 2
    await suggest(study, 'qb/x2', 'llm:A@1', 1);
    await label(study, 'qb/x2', 'alice', 2); // 2: tied with qa/y1, qb comes first
    await label(study, 'qb/x3', 'alice', 1);
    await suggest(study, 'qb/x3', 'llm:A@1', 1); // agreement: 1
    await suggest(study, 'qb/x1', 'llm:A@1', null); // unparsed: 0
    await retract(study, await label(study, 'qb/x9', 'bob', 0)); // only the imported 1 is current: 1
    await label(study, 'qa/y2', 'alice', 0);
    await label(study, 'qa/y2', 'alice', 2); // alice changed her mind: only her current label counts, 1
    assert.deepEqual(await queue(study, 'disagreement', 'alice'), [
      'qb/x4',
      'qb/x2',
      'qa/y1',
      'qb/x3',
      'qb/x1',
      'qb/x9',
      'qa/y2',
      'qz/z1',
    ]);
    await study.close();
  });

for (const kind of storeKinds)
  test(`unlabelled only: the annotator's labelled pairs are left out, a retracted label counts as none (${kind})`, async () => {
    const study = await queueStudy(kind);
    await label(study, 'qb/x4', 'alice', 0);
    await label(study, 'qa/y1', 'bob', 2); // someone else's label: still unlabelled for alice
    await retract(study, await label(study, 'qb/x1', 'alice', 1));
    const x2 = await label(study, 'qb/x2', 'alice', 0);
    await label(study, 'qb/x2', 'alice', 1);
    await retract(study, x2); // the earlier one retracted, the later one is current
    assert.deepEqual(await queue(study, 'query', 'alice', { unlabelledOnly: true }), [
      'qb/x3',
      'qb/x1',
      'qb/x9',
      'qa/y1',
      'qa/y2',
      'qz/z1',
    ]);
    assert.deepEqual(await queue(study, 'rank', 'alice', { unlabelledOnly: true }), [
      'qb/x3',
      'qa/y1',
      'qb/x1',
      'qa/y2',
      'qb/x9',
      'qz/z1',
    ]);
    await study.close();
  });

for (const kind of storeKinds)
  test(`assigned only: an annotator's queue is their assignment, in the order asked (${kind})`, async () => {
    const study = await queueStudy(kind, '  annotators alice bob  overlap 1');
    await study.session('alice'); // opening a session assigns the pairs
    const alice = await queue(study, 'query', 'alice', { assignedOnly: true });
    const bob = await queue(study, 'query', 'bob', { assignedOnly: true });
    assert.equal(alice.length + bob.length, 8);
    assert.deepEqual(
      [...alice, ...bob].sort(),
      (await queue(study, 'query', 'alice')).sort(),
      'each pair to one of them',
    );
    const everything = await queue(study, 'query', 'alice');
    assert.deepEqual(
      alice,
      everything.filter((pair) => alice.includes(pair)),
      'in query order',
    );
    // Pair r (by id) goes to annotator r mod 2: alice has the even ones.
    const byId = (await study.rows("SELECT qid || '/' || docid AS name FROM pair ORDER BY id")).map(
      (row) => row.name as string,
    );
    assert.deepEqual([...alice].sort(), byId.filter((_, r) => r % 2 === 0).sort());
    await study.close();
  });
