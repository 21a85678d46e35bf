// recordCalls with a group larger than one INSERT … VALUES could hold on PostgreSQL (65,535 parameters: 2,978 rows
// of 22 columns), on both store kinds (test/storeKinds.ts): every call on record with the id returned in its place,
// suggestions naming calls of earlier entries (−(i + 1)) and their own resolved to the right rows, and a group with
// one row the database refuses (vote_index −1 breaks a CHECK) writes nothing. On PostgreSQL the group's calls go as
// one INSERT statement, and the suggestions of a group naming each pair once as four: counted on the real connection
// (node-postgres' Client.query, wrapped to count and passed on). A group naming a pair twice writes the later
// suggestion over the earlier, as one at a time would.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import type { CallToRecord, JudgeCallRecord, SuggestionRecord } from '../../../../core/store/port/judgePort.ts';
import { openTestStore, storeKinds } from '../../../storeKinds.ts';
import { plainStudy } from '../../labelling/labellingStudy.ts';
import { seedStudy } from './seedStudy.ts';

/** Calls in the group: more rows than a 22-column VALUES list may carry. */
const groupSize = 3_000;
const votes = 3;

/** Counts the statements sent that insert into llm_call, and those that write suggestions, while `during` runs. */
async function statementsSent<T>(
  during: () => Promise<T>,
): Promise<{ result: T; inserts: number; suggestionStatements: number }> {
  const query = pg.Client.prototype.query;
  let inserts = 0;
  let suggestionStatements = 0;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string } | undefined)?.text;
    if (text !== undefined && /INSERT INTO llm_call\b/.test(text)) inserts++;
    if (text !== undefined && /suggestion/.test(text)) suggestionStatements++;
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    return { result: await during(), inserts, suggestionStatements };
  } finally {
    pg.Client.prototype.query = query;
  }
}

for (const kind of storeKinds)
  test(`a group of ${groupSize} calls with their suggestions is recorded in one transaction, ids in order; one bad row writes none (${kind})`, async () => {
    const store = await openTestStore(kind);
    try {
      const { studyId } = await seedStudy(store, plainStudy(4, 5));
      const { pairs } = await store.judge.pairsToJudge(studyId, {});
      const judge = 'llm:judge-a@0123abcd';
      const call = (i: number, extra: Partial<JudgeCallRecord> = {}): JudgeCallRecord => ({
        cacheKey: `key-${i}`,
        request: {
          endpoint: 'http://127.0.0.1:1/v1',
          model: 'judge-a',
          parameters: '{}',
          promptHash: `ph-${i}`,
          voteIndex: i % votes,
        },
        promptTemplateHash: 'th',
        studyId,
        pairId: pairs[Math.floor(i / votes) % pairs.length]!.pairId,
        judge,
        rawOutput: `{"label": ${i % 3}}`,
        parsedLabel: i % 3,
        inputTokens: i,
        outputTokens: 1,
        attempts: 1,
        cost: i / 1e6,
        createdAt: '2026-03-04T05:06:07.000Z',
        ...extra,
      });
      // Every third entry completes its pair's suggestion from the two calls before it and its own; the pairs come
      // round again, so a later group entry replaces the suggestion an earlier one wrote.
      const group: CallToRecord[] = [];
      for (let i = 0; i < groupSize; i++) {
        const entry: CallToRecord = { call: call(i) };
        if (i % votes === votes - 1) {
          const suggestion: SuggestionRecord = {
            pairId: entry.call!.pairId!,
            judge,
            label: i % 3,
            callId: -(i - 1),
            votes: [
              { voteIndex: 0, callId: -(i - 1), label: (i - 2) % 3 },
              { voteIndex: 1, callId: -i, label: (i - 1) % 3 },
              { voteIndex: 2, callId: null, label: i % 3 },
            ],
            createdAt: '2026-03-04T05:06:07.000Z',
          };
          entry.suggestion = suggestion;
        }
        group.push(entry);
      }
      const { result: ids, inserts } = await statementsSent(() => store.judge.recordCalls(group));
      if (kind === 'postgres') assert.equal(inserts, 1, 'the group’s calls in one INSERT statement');
      assert.equal(ids.length, groupSize);
      assert.equal(new Set(ids).size, groupSize);
      const calls = await store.judge.calls(studyId, judge);
      assert.equal(calls.length, groupSize);
      const byId = new Map(calls.map((c) => [c.id, c]));
      ids.forEach((id, i) => {
        assert.equal(byId.get(id!)?.cacheKey, `key-${i}`, `entry ${i}'s id`);
      });
      assert.equal((await store.judge.callTotals(studyId, judge)).pricedCalls, groupSize);
      // The last group of three of each pair wrote its suggestion, votes naming that group's calls.
      const suggestions = await store.judge.suggestions(studyId, judge);
      assert.equal(suggestions.length, pairs.length);
      const lastGroupOf = new Map<number, number>();
      for (let start = 0; start < groupSize; start += votes) lastGroupOf.set(group[start]!.call!.pairId!, start);
      for (const s of suggestions) {
        const last = lastGroupOf.get(s.pairId)!;
        assert.deepEqual(
          s.votes.map((v) => v.callId),
          [ids[last], ids[last + 1], ids[last + 2]],
          `${s.qid}/${s.docid}`,
        );
      }

      // A group whose suggestions are of distinct pairs (what an online run's group commit holds): on PostgreSQL
      // its calls in one statement and its suggestions in four (delete votes, delete, insert, insert votes).
      const distinct: CallToRecord[] = pairs.flatMap((pair, p) =>
        Array.from({ length: votes }, (_, vote): CallToRecord => {
          const i = groupSize + 100 + p * votes + vote;
          const entry: CallToRecord = { call: { ...call(i), pairId: pair.pairId } };
          if (vote === votes - 1) {
            entry.suggestion = {
              pairId: pair.pairId,
              judge,
              label: 2,
              confidence: 2 / 3,
              callId: null,
              votes: [
                { voteIndex: 0, callId: -(p * votes + 1), label: 2 },
                { voteIndex: 1, callId: -(p * votes + 2), label: 1 },
                { voteIndex: 2, callId: null, label: 2 },
              ],
              createdAt: '2026-03-05T05:06:07.000Z',
            };
          }
          return entry;
        }),
      );
      const sent = await statementsSent(() => store.judge.recordCalls(distinct));
      if (kind === 'postgres') assert.deepEqual([sent.inserts, sent.suggestionStatements], [1, 4]);
      const replaced = await store.judge.suggestions(studyId, judge);
      assert.equal(replaced.length, pairs.length);
      for (const s of replaced) {
        const p = pairs.findIndex((pair) => pair.pairId === s.pairId);
        assert.deepEqual(
          [s.label, s.confidence, s.votes.map((v) => [v.voteIndex, v.callId, v.label])],
          [
            2,
            2 / 3,
            [
              [0, sent.result[p * votes], 2],
              [1, sent.result[p * votes + 1], 1],
              [2, sent.result[p * votes + 2], 2],
            ],
          ],
          `${s.qid}/${s.docid}`,
        );
      }

      // One row the database refuses: none of the group is written.
      const bad = Array.from({ length: 10 }, (_, i) => ({
        call: call(groupSize + i, i === 7 ? { request: { ...call(0).request, voteIndex: -1 } } : {}),
      }));
      await assert.rejects(store.judge.recordCalls(bad));
      assert.equal((await store.judge.calls(studyId, judge)).length, groupSize + pairs.length * votes);
    } finally {
      await store.close();
    }
  });
