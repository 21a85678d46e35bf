// The LLM critic of a review through the real `openai` SDK against an OpenAI-compatible server on 127.0.0.1: each
// item's latest version rated on the rubric, every call on record, the rating stored as the critic's verdict (reject
// on any worst level), a re-run asking nothing, a malformed answer recorded and no verdict guessed, and blind mode
// hiding the critic from a reviewer until their own verdict.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseStudyFile, resolveStudies } from '../../../core/dsl/index.ts';
import { createChatClient } from '../../../core/judge/chatClient.ts';
import { criticPromptText } from '../../../core/review/criticPrompt.ts';
import { critiqueReview, majorityLevels } from '../../../core/review/reviewCritic.ts';
import { ReviewSession } from '../../../core/review/reviewSession.ts';
import { scratchDir } from '../../helpers.ts';
import { storeKinds } from '../../storeKinds.ts';
import { startOpenAiServer } from '../judge/openAiServer.ts';
import { openReviewFile, storedVerdicts, verdictOn } from './reviewStudy.ts';

const dimensions = ['clarity', 'consistency'];

for (const kind of storeKinds)
  test(`the critic rates every item once, on record; poor means reject; blind hides it until the reviewer decides (${kind})`, async () => {
    const folder = scratchDir('qrels-studio-critic-');
    writeFileSync(
      join(folder, 'items.jsonl'),
      [
        { iid: 'i1', qid: 'q1', text: 'Only tables of the Summer Olympics after 2000.' },
        { iid: 'i2', qid: 'q2', text: 'Relevant detailed reliable tables.' },
        { iid: 'i3', qid: 'q3', text: 'Cities by population.' },
      ]
        .map((i) => `${JSON.stringify(i)}\n`)
        .join(''),
    );
    writeFileSync(
      join(folder, 'queries.jsonl'),
      ['medal tables', 'rivers', 'cities'].map((q, i) => `${JSON.stringify({ qid: `q${i + 1}`, q })}\n`).join(''),
    );
    const server = await startOpenAiServer({
      respond: ({ body }) => {
        const prompt = body.messages?.at(-1)?.content ?? '';
        if (prompt.includes('Cities by population')) return { content: 'I think it is fine.' };
        const poor = prompt.includes('Relevant detailed reliable');
        return {
          content: JSON.stringify({
            rationale: poor ? '"relevant", "detailed" exclude no table' : 'a real period constraint',
            scores: { clarity: 'excellent', consistency: poor ? 'poor' : 'acceptable' },
          }),
        };
      },
    });
    const text = `review "gen" {
  items "items.jsonl" { id: iid  text: text  parent: qid }
  queries "queries.jsonl" { id: qid  text: q }
  rubric levels excellent acceptable poor { ${dimensions.join('  ')} }
  verdicts accept edit reject
  judge "critic-model" { temperature 0 }
  blind
}
`;
    const { file, store, review } = await openReviewFile(folder, text, kind);
    try {
      const client = createChatClient({ baseURL: server.baseURL, apiKey: 'key' });
      const report = await critiqueReview(store, review, { client, judge: review.judges[0]!, folder });
      assert.equal(report.requests, 3);
      assert.equal(report.stored, 2);
      assert.deepEqual(
        report.failed.map((f) => f.itemId),
        ['i3'],
        'an answer without scores: no verdict guessed',
      );
      assert.match(report.critic, /^llm:critic-model@[0-9a-f]{8}$/);
      assert.deepEqual(
        (await storedVerdicts(store))
          .map((v) => ({ item_id: v.item, verdict: v.verdict, rubric: v.rubric, rationale: v.reason }))
          .sort((a, b) => a.item_id.localeCompare(b.item_id)),
        [
          {
            item_id: 'i1',
            verdict: 'accept',
            rubric: { clarity: 'excellent', consistency: 'acceptable' },
            rationale: 'a real period constraint',
          },
          {
            item_id: 'i2',
            verdict: 'reject',
            rubric: { clarity: 'excellent', consistency: 'poor' },
            rationale: '"relevant", "detailed" exclude no table',
          },
        ],
      );
      const calls = await store.judge.calls(await store.studies.studyId('gen'));
      assert.equal(calls.filter((c) => c.judge?.startsWith('llm:critic-model@')).length, 3);
      assert.equal(calls.filter((c) => c.errorKind === 'parse').length, 1);
      // The prompt carries the item (its parent as the query) and asks for the rubric by schema.
      // Requests run concurrently: which one arrives first is not fixed (on PostgreSQL it varies), so find i1's.
      const body = server.bodies().find((b) => b.messages?.at(-1)?.content?.includes('Only tables of the Summer'))!;
      assert.ok(body, "item i1's request");
      assert.match(
        body.messages!.at(-1)!.content,
        /## Query\n\nmedal tables\n\n## Instruction\n\nOnly tables of the Summer Olympics/,
      );
      assert.ok(JSON.stringify(body.response_format).includes('"consistency"'));

      // Again: the rated versions are not asked again; the malformed one comes from the cache (its answer is on record).
      const again = await critiqueReview(store, review, { client, judge: review.judges[0]!, folder });
      assert.deepEqual([again.requests, again.cached, again.skipped], [0, 1, 2]);
      assert.equal(server.requests(), 3);

      // Blind: alice does not see the critic until her own verdict.
      const alice = await ReviewSession.open(store, { studyFile: file, review, annotator: 'alice' });
      assert.equal((await alice.itemAt(1))!.hidden, true);
      assert.deepEqual((await alice.itemAt(1))!.others, []);
      const after = (await verdictOn(alice, 1, { verdict: 'reject', reason: 'says nothing' })).item;
      assert.deepEqual(
        after.others.map((o) => [o.verdict, o.rubric.consistency]),
        [['reject', 'poor']],
      );
    } finally {
      await store.close();
      await server.close();
    }
  });

for (const kind of storeKinds)
  test(`the critic's own prompt file and votes: each vote cached apart, each dimension's level by majority (a tie goes to the worse) (${kind})`, async () => {
    const folder = scratchDir('qrels-studio-critic-');
    writeFileSync(join(folder, 'items.jsonl'), `${JSON.stringify({ iid: 'i1', text: 'Tables of rivers in Asia.' })}\n`);
    writeFileSync(join(folder, 'critic.md'), 'Rate this instruction: {{instruction}}\n');
    // Three votes: clarity excellent, excellent, poor → excellent; consistency acceptable, poor, excellent → a three-way
    // tie → poor, the worst of them: the verdict is reject.
    const answers = [
      { rationale: 'first', scores: { clarity: 'excellent', consistency: 'acceptable' } },
      { rationale: 'second', scores: { clarity: 'excellent', consistency: 'poor' } },
      { rationale: 'third', scores: { clarity: 'poor', consistency: 'excellent' } },
    ];
    let asked = 0;
    const server = await startOpenAiServer({ respond: () => ({ content: JSON.stringify(answers[asked++ % 3]) }) });
    const text = `review "gen" {
  items "items.jsonl" { id: iid  text: text }
  rubric levels excellent acceptable poor { clarity  consistency }
  judge "critic-model" { prompt "critic.md"  votes 3 }
}
`;
    const { store, review } = await openReviewFile(folder, text, kind);
    try {
      const client = createChatClient({ baseURL: server.baseURL, apiKey: 'key' });
      const report = await critiqueReview(store, review, { client, judge: review.judges[0]!, folder });
      assert.deepEqual([report.requests, report.stored, report.failed.length], [3, 1, 0]);
      assert.match(report.critic, /^llm:critic-model@[0-9a-f]{8}$/);
      assert.deepEqual(
        server.bodies().map((b) => b.messages!.at(-1)!.content),
        Array(3).fill('Rate this instruction: Tables of rivers in Asia.\n'),
        'the prompt file, not the default',
      );
      assert.deepEqual(
        (await storedVerdicts(store)).map((v) => ({ verdict: v.verdict, rubric: v.rubric, rationale: v.reason })),
        [{ verdict: 'reject', rubric: { clarity: 'excellent', consistency: 'poor' }, rationale: 'second' }],
      );
      assert.deepEqual(
        (await store.judge.calls(await store.studies.studyId('gen'))).map((c) => c.voteIndex).sort(),
        [0, 1, 2],
      );
      assert.deepEqual(
        majorityLevels([{ a: 'poor' }, { a: 'excellent' }, { a: 'excellent' }], {
          dimensions: ['a'],
          levels: ['excellent', 'acceptable', 'poor'],
        }),
        { a: 'excellent' },
      );
      // A prompt file with an unknown variable: an error at its line and column, nothing asked.
      writeFileSync(join(folder, 'critic.md'), 'Rate {{instrucion}}\n');
      await assert.rejects(
        critiqueReview(store, review, { client, judge: review.judges[0]!, folder }),
        /critic\.md:1:6: unknown variable \{\{instrucion\}\}/,
      );
      assert.equal(server.requests(), 3);
    } finally {
      await store.close();
      await server.close();
    }
  });

for (const kind of storeKinds)
  test(`the critic's default prompt is built from the review: a hard-negative rewrite on its own rubric and types (${kind})`, async () => {
    // MultiConIR's hard negatives: a positive document's sentence rewritten so that one condition no longer holds.
    const folder = scratchDir('qrels-studio-critic-');
    writeFileSync(
      join(folder, 'items.jsonl'),
      `${JSON.stringify({
        iid: 'n1',
        kind: 'HN',
        text: 'Severe carotid artery stenosis.',
        original: 'Moderate carotid artery stenosis.',
      })}\n`,
    );
    const server = await startOpenAiServer({
      respond: () => ({
        content: JSON.stringify({ rationale: 'one condition changed', scores: { one_change: 'yes', fluent: 'yes' } }),
      }),
    });
    const text = `review "hard-negatives" {
  items "items.jsonl" { id: iid  text: text  type: kind  source: original }
  taxonomy { HN "Hard negative"  PD "Paraphrase" }
  rubric levels yes no { one_change "It changes exactly one condition of the source and keeps the rest."  fluent }
  verdicts accept reject
  judge "critic-model" {}
}
`;
    const { store, review } = await openReviewFile(folder, text, kind);
    try {
      const client = createChatClient({ baseURL: server.baseURL, apiKey: 'key' });
      const report = await critiqueReview(store, review, { client, judge: review.judges[0]!, folder });
      assert.equal(report.stored, 1);
      const prompt = server.bodies()[0]!.messages!.at(-1)!.content;
      assert.match(
        prompt,
        /## Source\n\nModerate carotid artery stenosis\.\n\n## Rewrite\n\nSevere carotid artery stenosis\./,
      );
      assert.match(prompt, /## Type\n\nHN: Hard negative\n/);
      assert.match(prompt, /- PD: Paraphrase/);
      assert.match(prompt, /Rate each dimension yes, no \(best first\)/);
      assert.match(prompt, /- one_change: It changes exactly one condition of the source and keeps the rest\./);
      assert.match(prompt, /"scores": \{"one_change": "<level>", "fluent": "<level>"\}/);
      // Not FollowTable's table-search critic: no tables, none of its six dimensions.
      assert.doesNotMatch(prompt, /table|semantic_expansion|category_focus/i);
    } finally {
      await store.close();
      await server.close();
    }
  });

test("FollowTable's review (demo/review) gets the table-instruction critic with the shipped dimension descriptions", () => {
  const text = readFileSync(new URL('../../../demo/review/instructions.assess', import.meta.url), 'utf8');
  const review = resolveStudies(parseStudyFile(text)).reviews[0]!;
  const prompt = criticPromptText(review);
  assert.match(prompt, /You review an instruction written to refine a table search query/);
  assert.match(prompt, /## Query\n\n\{\{query\}\}\n\n## Instruction\n\n\{\{instruction\}\}/);
  assert.match(prompt, /- C2: Exclusive topic/);
  assert.match(
    prompt,
    /- semantic_expansion: it adds a real constraint that shrinks the set of acceptable tables\. Poor when/,
  );
  assert.match(prompt, /- internal_consistency: one table could satisfy everything it asks at once\./);
});
