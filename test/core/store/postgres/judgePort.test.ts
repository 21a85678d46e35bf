// The judge's area of the storage port on both adapters (test/storeKinds.ts): one study seeded through each store's
// own port (sync, import, pool, a person's label), then the same JudgePort calls on each — the pairs and queries to
// judge, documents, the cache rule (an answer serves, a parse failure serves, a call without an answer never does), a
// call and the suggestion it completes in one transaction (a bad suggestion leaves no call either), a suggestion
// replaced with its votes, totals, the calls and the suggestions read back, and the annotator rule (a person is no
// judge) — give the same answers, errors included. PostgreSQL alone: two runs replacing the same pair's suggestion at
// once leave one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JudgeCallRecord, JudgePort, SuggestionRecord } from '../../../../core/store/port/judgePort.ts';
import { StoreError } from '../../../../core/store/studyDatabase.ts';
import type { StoreChange, StudyStore } from '../../../../core/store/studyStore.ts';
import { openTestStore, type StoreKind, storeKinds } from '../../../storeKinds.ts';
import { type LabellingStudyOptions, plainStudy } from '../../labelling/labellingStudy.ts';
import { seedStudy } from './seedStudy.ts';

/** seedStudy, and each pair's id by `qid/docid` (999999 for one the study lacks). */
async function seedWithPairIds(store: StudyStore, options: LabellingStudyOptions) {
  const seeded = await seedStudy(store, options);
  const { pairs } = await store.judge.pairsToJudge(seeded.studyId, {});
  const ids = new Map(pairs.map((p) => [`${p.qid}/${p.docid}`, p.pairId]));
  return { ...seeded, pairId: (qid: string, docid: string) => ids.get(`${qid}/${docid}`) ?? 999_999 };
}

/** The study both adapters hold: 3 queries × 3 pooled documents (the corpus lacks d3-3); alice labelled q1/d1-1. */
async function seededStudy(kind: StoreKind) {
  const store = await openTestStore(kind);
  const options = plainStudy(3, 3);
  options.documents = options.documents.filter((d) => d.docid !== 'd3-3');
  const seeded = await seedWithPairIds(store, { ...options, extra: '  annotators alice' });
  await store.labels.addJudgment({
    study: 's',
    qid: 'q1',
    docid: 'd1-1',
    annotator: 'alice',
    label: 2,
    source: 'manual',
    createdAt: new Date('2026-01-01T00:00:00.000Z'),
  });
  return { store, ...seeded };
}

/** Runs the same calls on `judge`; returns what each answered (errors as their class and message). */
async function scenario(judge: JudgePort, studyId: number, pairId: (qid: string, docid: string) => number) {
  const log: unknown[] = [];
  const attempt = async (what: string, call: () => Promise<unknown>) => {
    try {
      log.push([what, await call()]);
    } catch (error) {
      // A StoreError says the same on both; a constraint the database enforces is worded by each database.
      log.push(error instanceof StoreError ? [what, 'rejected', error.name, error.message] : [what, 'rejected']);
    }
  };
  const judgeName = 'llm:judge-a@0123abcd';
  const request = { endpoint: 'http://127.0.0.1:1/v1', model: 'judge-a', parameters: '{"temperature":0}' };
  const call = (key: string, qid: string, docid: string, vote: number, extra: Partial<JudgeCallRecord> = {}) =>
    ({
      cacheKey: key,
      request: { ...request, promptHash: `ph-${qid}-${docid}`, voteIndex: vote },
      promptTemplateHash: 'th',
      studyId,
      pairId: pairId(qid, docid),
      judge: judgeName,
      rawOutput: `{"label": ${vote % 3}}`,
      parsedLabel: vote % 3,
      rationale: `vote ${vote}`,
      inputTokens: 100 + vote,
      outputTokens: 10,
      latencyMs: 12.6,
      attempts: 1,
      cost: 0.000_123 * (vote + 1),
      createdAt: `2026-03-04T05:06:0${vote}.000Z`,
      ...extra,
    }) satisfies JudgeCallRecord;
  const suggestion = (qid: string, docid: string, extra: Partial<SuggestionRecord> = {}): SuggestionRecord => ({
    pairId: pairId(qid, docid),
    judge: judgeName,
    label: 1,
    callId: null,
    votes: [{ voteIndex: 0, callId: null, label: 1 }],
    createdAt: '2026-03-04T05:06:07.000Z',
    ...extra,
  });

  await attempt('judge annotator', () => judge.judgeAnnotator(judgeName));
  await attempt('judge annotator again', () => judge.judgeAnnotator(judgeName));
  await attempt('a person is no judge', () => judge.judgeAnnotator('alice'));
  await attempt('pairs', () => judge.pairsToJudge(studyId, {}));
  await attempt('pairs, limit 4', () => judge.pairsToJudge(studyId, { limit: 4 }));
  await attempt('pairs, unlabelled', () => judge.pairsToJudge(studyId, { onlyUnlabelled: true, limit: 2 }));
  await attempt('pairs, none', () => judge.pairsToJudge(studyId, { limit: 0 }));
  await attempt('document', () => judge.documentToJudge(studyId, 'd2-1'));
  await attempt('no document', () => judge.documentToJudge(studyId, 'd3-3'));
  await attempt('nothing cached', () => judge.cachedCall('k1'));
  // No answer: on record, never served.
  await attempt('timeout', () =>
    judge.recordCall(
      call('k1', 'q1', 'd1-1', 0, { rawOutput: '', failure: { kind: 'timeout', message: 'no answer in 2 s' } }),
    ),
  );
  await attempt('a timeout is not cached', () => judge.cachedCall('k1'));
  // An answer that did not parse: served (the endpoint answered), never a label.
  await attempt('parse failure', () =>
    judge.recordCall(
      call('k2', 'q1', 'd1-2', 0, { rawOutput: 'maybe', failure: { kind: 'parse', message: 'no label' } }),
    ),
  );
  await attempt('a parse failure is cached', () => judge.cachedCall('k2'));
  // An answer with its suggestion (one vote, the call itself).
  await attempt('answer with its suggestion', () =>
    judge.recordCall(call('k1', 'q1', 'd1-1', 0), suggestion('q1', 'd1-1')),
  );
  await attempt('the answer is cached', () => judge.cachedCall('k1'));
  // A suggestion under a person's name: nothing written.
  await attempt('a person’s suggestion', () =>
    judge.recordCall(call('k8', 'q2', 'd2-1', 0), { ...suggestion('q2', 'd2-1'), judge: 'alice' }),
  );
  // Three votes on q2/d2-2 recorded one by one, the last completing the suggestion; then replaced.
  const first = await judge.recordCall(call('k3', 'q2', 'd2-2', 0));
  const second = await judge.recordCall(call('k4', 'q2', 'd2-2', 1));
  await attempt('third vote completes the suggestion', () =>
    judge.recordCall(
      call('k5', 'q2', 'd2-2', 2),
      suggestion('q2', 'd2-2', {
        label: 0,
        confidence: 2 / 3,
        rationale: 'vote 0',
        callId: first,
        votes: [
          { voteIndex: 0, callId: first, label: 0 },
          { voteIndex: 1, callId: second, label: 1 },
          { voteIndex: 2, callId: null, label: null },
        ],
      }),
    ),
  );
  // A replacing suggestion's id is a new row's: SQLite may give the deleted row's number again (the largest rowid
  // plus one), a PostgreSQL sequence never does — so only that it is an id is compared.
  const isId = async (id: Promise<number>) => Number.isInteger(await id);
  await attempt('replaced', () =>
    isId(
      judge.replaceSuggestion(
        suggestion('q2', 'd2-2', {
          label: 1,
          confidence: 1 / 3,
          callId: second,
          votes: [{ voteIndex: 1, callId: second, label: 1 }],
          createdAt: '2026-03-04T05:07:00.000Z',
        }),
      ),
    ),
  );
  await attempt('replace naming no call', () => judge.replaceSuggestion(suggestion('q3', 'd3-1')));
  await attempt('a suggestion with no label', () =>
    isId(
      judge.replaceSuggestion(
        suggestion('q1', 'd1-2', { label: null, callId: first, votes: [{ voteIndex: 0, callId: first, label: null }] }),
      ),
    ),
  );
  await attempt('totals', () => judge.callTotals(studyId));
  await attempt('totals of the judge', () => judge.callTotals(studyId, judgeName));
  await attempt('totals of another judge', () => judge.callTotals(studyId, 'llm:other@00000000'));
  await attempt('calls', () => judge.calls(studyId));
  await attempt('calls of another judge', () => judge.calls(studyId, 'llm:other@00000000'));
  await attempt('suggestions', () => judge.suggestions(studyId, judgeName));
  await attempt('suggestions of nobody', () => judge.suggestions(studyId, 'alice'));
  // A suggestion that cannot be stored (no such pair): its call is not written either. Last: a sequence gives no
  // number back when a transaction rolls back, so PostgreSQL's next ids would differ from SQLite's.
  await attempt('bad suggestion', () =>
    judge.recordCall(call('k9', 'q2', 'd2-1', 0), { ...suggestion('q2', 'd2-1'), pairId: 999_999 }),
  );
  await attempt('nothing of the bad suggestion', () => judge.cachedCall('k9'));
  await attempt('calls after the bad suggestion', () => judge.calls(studyId));
  return log;
}

/** Messages name where the record is: the same text once each adapter's location is taken out. */
function withoutLocation(log: unknown[], location: string): unknown {
  return JSON.parse(JSON.stringify(log).replaceAll(location, '<location>'));
}

const logs = new Map<StoreKind, unknown>();

for (const kind of storeKinds) {
  test(`the judge port: pairs, documents, the cache rule, calls with their suggestions, the annotator rule (${kind})`, async (t) => {
    const { store, studyId, pairId } = await seededStudy(kind);
    t.after(() => store.close());
    const changes: StoreChange[] = [];
    t.after(store.onChange((change) => changes.push(change)));
    const log = await scenario(store.judge, studyId, pairId);
    logs.set(kind, withoutLocation(log, store.location));

    const answer = (what: string) => (log.find((entry) => (entry as unknown[])[0] === what) as unknown[])[1];
    assert.equal(answer('a timeout is not cached'), undefined);
    assert.equal((answer('a parse failure is cached') as { rawOutput: string }).rawOutput, 'maybe');
    assert.equal(answer('nothing of the bad suggestion'), undefined);
    assert.equal(answer('a person is no judge'), 'rejected');
    assert.equal(answer('a person’s suggestion'), 'rejected');
    assert.deepEqual(
      (answer('pairs') as { pairs: { docid: string; hasDocument: boolean }[] }).pairs.map((p) => [
        p.docid,
        p.hasDocument,
      ]),
      [
        ['d1-1', true],
        ['d1-2', true],
        ['d1-3', true],
        ['d2-1', true],
        ['d2-2', true],
        ['d2-3', true],
        ['d3-1', true],
        ['d3-2', true],
        ['d3-3', false],
      ],
    );
    assert.deepEqual(
      (answer('pairs, unlabelled') as { pairs: { docid: string }[] }).pairs.map((p) => p.docid),
      ['d1-2', 'd1-3'],
    );
    const suggestions = answer('suggestions') as { docid: string; label: number | null; votes: unknown[] }[];
    assert.deepEqual(
      suggestions.map((s) => [s.docid, s.label, s.votes.length]),
      [
        ['d1-1', 1, 1],
        ['d1-2', null, 1],
        ['d2-2', 1, 1],
      ],
    );
    const totals = answer('totals') as { calls: number; answered: number; failed: number };
    assert.deepEqual([totals.calls, totals.answered, totals.failed], [6, 5, 2]);
    assert.ok(
      changes.some((c) => c.what === 'judge'),
      JSON.stringify(changes),
    );
  });
}

test('the judge port answers the same on SQLite and PostgreSQL, errors included', () => {
  assert.equal(logs.size, storeKinds.length, 'every kind ran');
  assert.deepEqual(logs.get('postgres'), logs.get('sqlite'));
});

test('PostgreSQL: two runs replacing one pair’s suggestion at once leave one suggestion', async (t) => {
  const { store, studyId, pairId: pairOf } = await seededStudy('postgres');
  t.after(() => store.close());
  const judge = store.judge;
  const name = 'llm:judge-c@0123abcd';
  const pairId = pairOf('q1', 'd1-3');
  const calls = await Promise.all(
    [0, 1, 2, 3, 4, 5].map((vote) =>
      judge.recordCall({
        cacheKey: `c${vote}`,
        request: { endpoint: 'e', model: 'm', parameters: '{}', promptHash: 'p', voteIndex: vote },
        promptTemplateHash: 't',
        studyId,
        pairId,
        judge: name,
        rawOutput: '1',
        parsedLabel: 1,
        attempts: 1,
        createdAt: '2026-03-04T05:06:07.000Z',
      }),
    ),
  );
  await Promise.all(
    calls.map((callId, i) =>
      judge.replaceSuggestion({
        pairId,
        judge: name,
        label: i % 3,
        callId,
        votes: [{ voteIndex: i, callId, label: i % 3 }],
        createdAt: '2026-03-04T05:06:08.000Z',
      }),
    ),
  );
  const stored = await judge.suggestions(studyId, name);
  assert.equal(stored.length, 1, JSON.stringify(stored));
  assert.equal(stored[0]!.votes.length, 1);
});
