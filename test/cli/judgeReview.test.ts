// `qrels-studio judge REVIEW.assess`: a review block's LLM critic from the CLI — its items imported, each rated
// once against an OpenAI-compatible server on 127.0.0.1 the user approved, a re-run asking nothing, and an
// unapproved endpoint refused before any call. On a review of each store kind (cliStore.ts).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { startOpenAiServer } from '../core/judge/openAiServer.ts';
import { runCliAsync as cli, scratchDir } from '../helpers.ts';
import { storeKinds } from '../storeKinds.ts';
import { cliStore } from './cliStore.ts';

for (const kind of storeKinds)
  test(`judge on a review runs its critic once per version, on approval only (${kind})`, async () => {
    const server = await startOpenAiServer({
      respond: () => ({ content: JSON.stringify({ rationale: 'fine', scores: { clarity: 'acceptable' } }) }),
    });
    try {
      const kindStore = await cliStore(kind);
      const root = scratchDir();
      writeFileSync(
        join(root, 'items.jsonl'),
        '{"iid": "i1", "text": "Only after 2000."}\n{"iid": "i2", "text": "Only in km."}\n',
      );
      kindStore.writeStudy(
        join(root, 'gen.assess'),
        `review "gen" {\n  items "items.jsonl" { id: iid  text: text }\n  rubric levels excellent acceptable poor { clarity }\n  judge "critic" { endpoint "${server.baseURL}" }\n}\n`,
      );
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        ...kindStore.env,
        QRELS_STUDIO_CONFIG_DIR: scratchDir(),
        OPENAI_API_KEY: 'key',
      };
      const refused = await cli(['judge', 'gen.assess'], root, env);
      assert.equal(refused.status, 1);
      assert.match(refused.stderr, /refusing to call http:\/\/127\.0\.0\.1:\d+\/v1 : not approved/);
      assert.equal(server.requests(), 0);
      const first = await cli(['judge', 'gen.assess', '--allow-endpoint', server.baseURL], root, env);
      assert.equal(first.status, 0, first.stderr);
      assert.match(
        first.stdout,
        /critic llm:critic@[0-9a-f]{8} on review 'gen' .*: 2 items, 2 rated now, 0 already rated, 2 requests/,
      );
      const again = await cli(['judge', 'gen.assess', '--allow-endpoint', server.baseURL], root, env);
      assert.match(again.stdout, /0 rated now, 2 already rated, 0 requests/);
      assert.equal(server.requests(), 2);
    } finally {
      await server.close();
    }
  });
