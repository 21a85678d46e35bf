// The LLM critic's verdicts in what a review exports (`export REVIEW --summary`, `--review`) as a process: an item
// only the critic has judged shows the critic's verdict as the critic's, not "unreviewed"; it still decides nothing.
// The critic runs for real (core/review/reviewCritic.ts through the `openai` SDK against a local server). On a
// review of each store kind (cliStore.ts).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { createChatClient } from '../../core/judge/chatClient.ts';
import { critiqueReview } from '../../core/review/reviewCritic.ts';
import { ReviewSession } from '../../core/review/reviewSession.ts';
import { startOpenAiServer } from '../core/judge/openAiServer.ts';
import { openReviewFile, verdictOn } from '../core/review/reviewStudy.ts';
import { scratchDir } from '../helpers.ts';
import { storeKinds } from '../storeKinds.ts';
import { cliStore } from './cliStore.ts';

for (const kind of storeKinds)
  test(`an item only the critic judged shows the critic's verdict in --summary and --review; a person's verdict decides (${kind})`, async () => {
    const kindStore = await cliStore(kind);
    const folder = scratchDir('qrels-studio-critic-outcome-');
    writeFileSync(
      join(folder, 'items.jsonl'),
      [
        { iid: 'i1', text: 'Only tables of the Summer Olympics after 2000.', type: 'C1' },
        { iid: 'i2', text: 'Relevant detailed reliable tables.', type: 'C1' },
        { iid: 'i3', text: 'Rivers longer than 1000 km.', type: 'S1' },
      ]
        .map((i) => `${JSON.stringify(i)}\n`)
        .join(''),
    );
    const server = await startOpenAiServer({
      respond: ({ body }) => {
        const poor = (body.messages?.at(-1)?.content ?? '').includes('Relevant detailed reliable');
        return {
          content: JSON.stringify({
            rationale: poor ? '"relevant", "detailed" exclude no table' : 'a real constraint',
            scores: { clarity: poor ? 'poor' : 'excellent' },
          }),
        };
      },
    });
    const text = `review "gen" {
  items "items.jsonl" { id: iid  text: text  type: type }
  rubric levels excellent acceptable poor { clarity }
  verdicts accept edit reject
  annotators alice
  judge "critic-model" { temperature 0 }
}
`;
    const { file, store, review } = await openReviewFile(folder, kindStore.study(text), kind, {
      ...(kindStore.connection !== undefined && { connection: kindStore.connection }),
    });
    try {
      const client = createChatClient({ baseURL: server.baseURL, apiKey: 'key' });
      const report = await critiqueReview(store, review, { client, judge: review.judges[0]!, folder });
      assert.equal(report.stored, 3);
      // A person accepts i1; i2 (rejected by the critic) and i3 (accepted by it) no person has judged.
      await verdictOn(await ReviewSession.open(store, { studyFile: file, review, annotator: 'alice' }), 0, {
        verdict: 'accept',
      });
    } finally {
      await store.close();
      await server.close();
    }
    const summary = kindStore.cli(['export', 'gen.assess', '--summary'], { cwd: folder });
    assert.equal(summary.status, 0, summary.stderr);
    assert.match(
      summary.stdout,
      /review 'gen': 3 items\n {2}C1 {9}accept 1, critic reject 1\n {2}S1 {9}critic accept 1\n/,
    );
    // The critic is no reviewer: one item, one reviewer in the agreement.
    assert.match(summary.stdout, /reviewer agreement on verdicts: 1 items, 1 reviewers/);
    const json = JSON.parse(kindStore.cli(['export', 'gen.assess', '--summary', '--json'], { cwd: folder }).stdout);
    assert.deepEqual(json.outcomes, [
      'accept',
      'edit',
      'reject',
      'critic accept',
      'critic reject',
      'disputed',
      'pending',
      'unreviewed',
    ]);
    const exported = kindStore.cli(['export', 'gen.assess', '--review', 'accepted.jsonl'], { cwd: folder });
    assert.equal(exported.status, 0, exported.stderr);
    assert.equal(
      exported.stdout,
      'accepted.jsonl: 1 accepted items (the accepted text, versions, verdict history)\n' +
        "  not written: items only the critic has judged (critic reject 1, accept 1); a person's verdict decides\n",
    );
    const [accepted, ...rest] = readFileSync(join(folder, 'accepted.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(rest.length, 0);
    assert.equal(accepted.item_id, 'i1');
    assert.match(accepted.critic.annotator, /^llm:critic-model@/);
    assert.equal(accepted.critic.verdict, 'accept');
    assert.equal(accepted.critic.reason, 'a real constraint');
  });
