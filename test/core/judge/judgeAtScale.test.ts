// The judge at scale (issue 22, "big jobs, steady"), on both store kinds (test/storeKinds.ts). The port's paging:
// pages of every size, one after another from each one's cursor, give exactly the pairs pairsToJudge selects, in its
// order (queries the study lacks and documents the corpus lacks included, a person's label left out with
// onlyUnlabelled), and countPairsToJudge counts them; cachedCalls answers for a page of keys as cachedCall does for
// each; recordCalls commits a group in one transaction (a bad one leaves none of the group). The judge run itself
// asks the store in pages and keeps a bounded number of pairs in hand: a study of many pages, judged through a port
// that counts what it is asked, never holds more than the look-ahead, and gives every pair its votes once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createChatClient } from '../../../core/judge/chatClient.ts';
import { defaultPromptTemplate } from '../../../core/judge/defaultPrompts.ts';
import { judgeStudy } from '../../../core/judge/judgeStudy.ts';
import type {
  JudgeCallRecord,
  JudgePort,
  PairsToJudgeCursor,
  SuggestionRecord,
} from '../../../core/store/port/judgePort.ts';
import type { StudyStore } from '../../../core/store/studyStore.ts';
import { nativeDir, scratchDir } from '../../helpers.ts';
import { openTestStore, type StoreKind, storeKinds } from '../../storeKinds.ts';
import { plainStudy } from '../labelling/labellingStudy.ts';
import { buildLargeStudy } from '../labelling/largeStudy.ts';
import { seedStudy } from '../store/postgres/seedStudy.ts';
import { startOpenAiServer } from './openAiServer.ts';

/** 4 queries × 4 documents (queries listed q4…q1, q2's ranked last to first); the corpus lacks d2-2; the run also
 * names q8 and q9, queries the study lacks; alice labelled q1/d1-2. */
async function pagedStudy(store: StudyStore) {
  const options = plainStudy(4, 4);
  options.documents = options.documents.filter((d) => d.docid !== 'd2-2');
  options.ranking.q9 = ['d1-1', 'd3-1'];
  options.ranking.q8 = ['d4-2'];
  // Query row ids against qid order, and ranks against docid order: a page must follow the row ids and the ranks.
  options.queries.reverse();
  options.ranking.q2!.reverse();
  const seeded = await seedStudy(store, { ...options, extra: '  annotators alice' });
  await store.labels.addJudgment({
    study: 's',
    qid: 'q1',
    docid: 'd1-2',
    annotator: 'alice',
    label: 2,
    source: 'manual',
    createdAt: new Date('2026-01-01T00:00:00.000Z'),
  });
  return seeded;
}

for (const kind of storeKinds) {
  test(`pairsToJudgePage: pages of every size, in turn, are pairsToJudge's pairs in its order (${kind})`, async () => {
    const store = await openTestStore(kind as StoreKind);
    try {
      const { studyId } = await pagedStudy(store);
      for (const onlyUnlabelled of [false, true]) {
        const whole = await store.judge.pairsToJudge(studyId, { onlyUnlabelled });
        assert.equal(whole.pairs.length, onlyUnlabelled ? 18 : 19);
        assert.ok(whole.pairs.some((p) => !p.hasQuery));
        assert.ok(whole.pairs.some((p) => !p.hasDocument));
        assert.equal(await store.judge.countPairsToJudge(studyId, { onlyUnlabelled }), whole.pairs.length);
        for (let limit = 1; limit <= whole.pairs.length + 1; limit++) {
          const pairs = [];
          const queries = new Map<string, unknown>();
          let after: PairsToJudgeCursor | undefined;
          let pages = 0;
          do {
            const page = await store.judge.pairsToJudgePage(studyId, {
              limit,
              onlyUnlabelled,
              ...(after !== undefined && { after }),
            });
            pages++;
            assert.ok(page.pairs.length <= limit);
            pairs.push(...page.pairs);
            // A page names the queries of its own pairs, each once.
            const qids = new Set(page.pairs.filter((p) => p.hasQuery).map((p) => p.qid));
            assert.deepEqual(page.queries.map((q) => q.qid).sort(), [...qids].sort());
            for (const query of page.queries) queries.set(query.qid, query);
            after = page.next;
          } while (after !== undefined);
          assert.deepEqual(pairs, whole.pairs, `pages of ${limit}`);
          assert.equal(pages, Math.floor(whole.pairs.length / limit) + 1, `pages of ${limit}`);
          assert.deepEqual(
            [...queries.values()].sort((a, b) => ((a as { qid: string }).qid < (b as { qid: string }).qid ? -1 : 1)),
            [...whole.queries].sort((a, b) => (a.qid < b.qid ? -1 : 1)),
          );
        }
      }
      const documents = await store.judge.documentsToJudge(studyId, ['d1-1', 'd2-2', 'd4-4', 'nope']);
      assert.deepEqual([...documents.keys()].sort(), ['d1-1', 'd4-4']);
      assert.deepEqual(documents.get('d4-4'), await store.judge.documentToJudge(studyId, 'd4-4'));
    } finally {
      await store.close();
    }
  });

  test(`cachedCalls and recordCalls: a page of keys in one read, a group of calls in one transaction (${kind})`, async () => {
    const store = await openTestStore(kind as StoreKind);
    try {
      const { studyId } = await pagedStudy(store);
      const { pairs } = await store.judge.pairsToJudge(studyId, {});
      const judge = 'llm:judge-a@0123abcd';
      const call = (key: string, pairId: number, vote: number, extra: Partial<JudgeCallRecord> = {}) =>
        ({
          cacheKey: key,
          request: {
            endpoint: 'http://127.0.0.1:1/v1',
            model: 'judge-a',
            parameters: '{}',
            promptHash: 'ph',
            voteIndex: vote,
          },
          promptTemplateHash: 'th',
          studyId,
          pairId,
          judge,
          rawOutput: `{"label": ${vote}}`,
          parsedLabel: vote,
          attempts: 1,
          createdAt: '2026-03-04T05:06:07.000Z',
          ...extra,
        }) satisfies JudgeCallRecord;
      const suggestion = (pairId: number, votes: { voteIndex: number; callId: number | null }[]): SuggestionRecord => ({
        pairId,
        judge,
        label: 1,
        callId: null,
        votes: votes.map((v) => ({ ...v, label: 1 })),
        createdAt: '2026-03-04T05:06:07.000Z',
      });
      const [p1, p2] = [pairs[0]!.pairId, pairs[1]!.pairId];
      const ids = await store.judge.recordCalls([
        { call: call('k1', p1, 0) },
        { call: call('k2', p1, 1, { rawOutput: 'nonsense', failure: { kind: 'parse', message: 'not JSON' } }) },
        { call: call('k3', p2, 0, { rawOutput: '', failure: { kind: 'server', message: '500' } }) },
        { call: call('k1', p2, 0) },
      ]);
      assert.equal(ids.length, 4);
      assert.equal(new Set(ids).size, 4);
      const [id1, id2, , id4] = ids as [number, number, number, number];
      // The last one completes p1's suggestion, naming the calls recorded before it in the same group.
      const [id5] = await store.judge.recordCalls([
        {
          call: call('k5', p1, 2),
          suggestion: suggestion(p1, [
            { voteIndex: 0, callId: id1 },
            { voteIndex: 2, callId: null },
          ]),
        },
      ]);
      // A suggestion may name a call of an earlier entry of its group (−(i + 1)), and an entry may be a suggestion
      // alone (a pair whose last vote came from the cache).
      const [p3, p4] = [pairs[2]!.pairId, pairs[3]!.pairId];
      const group = await store.judge.recordCalls([
        { call: call('k8', p3, 0) },
        { call: call('k9', p4, 0) },
        {
          call: call('k10', p3, 1),
          suggestion: {
            ...suggestion(p3, [
              { voteIndex: 0, callId: -1 },
              { voteIndex: 1, callId: null },
            ]),
            callId: -1,
          },
        },
        {
          suggestion: {
            ...suggestion(p4, [
              { voteIndex: 0, callId: -2 },
              { voteIndex: 1, callId: id1 },
            ]),
            callId: id1,
          },
        },
      ]);
      assert.equal(group[3], null);
      const written = await store.judge.suggestions(studyId, judge);
      assert.deepEqual(
        written.filter((w) => w.pairId === p3 || w.pairId === p4).map((w) => [w.pairId, w.votes.map((v) => v.callId)]),
        [
          [p3, [group[0], group[2]]],
          [p4, [group[1], id1]],
        ],
      );
      const found = await store.judge.cachedCalls(['k1', 'k2', 'k3', 'k5', 'unknown']);
      // Answered calls serve (a parse failure too), the first of a key; a call without an answer never does.
      assert.deepEqual([...found.keys()].sort(), ['k1', 'k2', 'k5']);
      assert.equal(found.get('k1')!.id, id1);
      assert.equal(found.get('k2')!.id, id2);
      for (const key of ['k1', 'k2', 'k5']) assert.deepEqual(found.get(key), await store.judge.cachedCall(key));
      assert.notEqual(id4, id1);
      const [stored] = (await store.judge.suggestions(studyId, judge)).filter((w) => w.pairId === p1);
      assert.deepEqual(
        stored!.votes.map((v) => [v.voteIndex, v.callId]),
        [
          [0, id1],
          [2, id5],
        ],
      );
      // A group with one bad suggestion (a person's name as the judge) writes none of its calls.
      await store.labels.addJudgment({
        study: 's',
        qid: 'q1',
        docid: 'd1-1',
        annotator: 'alice',
        label: 1,
        source: 'manual',
        createdAt: new Date('2026-01-01T00:00:00.000Z'),
      });
      const before = (await store.judge.calls(studyId)).length;
      await assert.rejects(
        store.judge.recordCalls([
          { call: call('k6', p2, 1) },
          {
            call: call('k7', p2, 2),
            suggestion: { ...suggestion(p2, [{ voteIndex: 2, callId: null }]), judge: 'alice' },
          },
        ]),
      );
      assert.equal((await store.judge.calls(studyId)).length, before);
      assert.deepEqual(await store.judge.recordCalls([]), []);
      assert.equal((await store.judge.cachedCalls([])).size, 0);
    } finally {
      await store.close();
    }
  });
}

for (const kind of storeKinds)
  test(`a run of many pages asks the store page by page and holds at most a page ahead of its calls (${kind})`, async (t) => {
    const queries = 6;
    const perQuery = 100;
    const votes = 2;
    const concurrency = 8;
    const study = await buildLargeStudy({
      kind: kind as StoreKind,
      folder: scratchDir(),
      nativeDir,
      queries,
      perQuery,
      extra: `  judge "judge-s" { votes ${votes}  seed 1 }`,
    });
    const server = await startOpenAiServer({
      respond: ({ index, body }) => ({
        content: JSON.stringify({ rationale: 'r', label: Number(body.seed) % 3 }),
        latencyMs: index % 3,
      }),
    });
    t.after(() => server.close());
    try {
      // The port as the run sees it, counting what it is asked.
      const port = study.store.judge;
      const asked = { whole: 0, single: 0, pages: [] as { read: number; done: number }[], cacheReads: 0, groups: 0 };
      let read = 0;
      let done = 0;
      const counting: JudgePort = Object.assign(Object.create(port) as JudgePort, {
        pairsToJudge: (...args: Parameters<JudgePort['pairsToJudge']>) => {
          asked.whole++;
          return port.pairsToJudge(...args);
        },
        documentToJudge: (...args: Parameters<JudgePort['documentToJudge']>) => {
          asked.single++;
          return port.documentToJudge(...args);
        },
        cachedCall: (...args: Parameters<JudgePort['cachedCall']>) => {
          asked.single++;
          return port.cachedCall(...args);
        },
        pairsToJudgePage: async (...args: Parameters<JudgePort['pairsToJudgePage']>) => {
          // When the next page is asked for, every vote of the pages before was handed out: what the run holds
          // beyond the calls in flight is this page.
          asked.pages.push({ read, done });
          const page = await port.pairsToJudgePage(...args);
          read += page.pairs.length;
          return page;
        },
        cachedCalls: (...args: Parameters<JudgePort['cachedCalls']>) => {
          asked.cacheReads++;
          return port.cachedCalls(...args);
        },
        recordCalls: (...args: Parameters<JudgePort['recordCalls']>) => {
          asked.groups++;
          return port.recordCalls(...args);
        },
      });
      const store = Object.assign(Object.create(study.store) as StudyStore, { judge: counting });
      const options = {
        concurrency,
        client: createChatClient({ baseURL: server.baseURL, apiKey: '' }),
        prompt: { ...defaultPromptTemplate('graded-relevance'), output: 'label' as const },
        prices: {},
        onProgress: (progress: { done: number }) => {
          done = progress.done;
        },
      };
      const report = await judgeStudy(store, study.study, options);
      const pairs = queries * perQuery;
      assert.equal(report.suggestions, pairs);
      assert.equal(report.done, pairs * votes);
      assert.equal(report.total, pairs * votes);
      assert.equal(server.requests(), pairs * votes);
      // Pages, never the whole selection nor a document or cache entry at a time.
      assert.equal(asked.whole, 0);
      assert.equal(asked.single, 0);
      assert.ok(asked.pages.length >= 3, `${asked.pages.length} pages`);
      assert.equal(asked.cacheReads, asked.pages.length - (pairs % 256 === 0 ? 1 : 0));
      const pageSize = 256;
      for (const { read: before, done: finished } of asked.pages) {
        // Pairs read but not finished when the next page is asked for: at most the calls in flight (and the
        // votes that came back in the same turn, waiting for their group's commit).
        assert.ok(before * votes - finished <= 2 * concurrency, `${before} pairs read, ${finished} votes done`);
        assert.ok(before % pageSize === 0);
      }
      // Finished votes were written in groups (fewer transactions than votes).
      assert.ok(asked.groups < pairs * votes, `${asked.groups} groups`);

      // Run again: every vote from the cache, a page's keys in one read, and no request.
      const rerun = await judgeStudy(store, study.study, { ...options, onProgress: () => {} });
      assert.equal(rerun.cached, pairs * votes);
      assert.equal(server.requests(), pairs * votes);
      assert.equal(asked.single, 0);
    } finally {
      await study.store.close();
    }
  });
