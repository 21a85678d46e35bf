// `qrels-studio judge --estimate` and budgets, as users run them: the built CLI as a real process against the
// OpenAI-compatible test server on 127.0.0.1, a real study of either store kind. An estimate sends nothing (and needs
// no approval); a budget below the estimate, or a budget without a price, refuses to start with the reason and
// sends nothing; a run within its budget prints its estimate first and runs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startOpenAiServer } from '../core/judge/openAiServer.ts';
import { runCliAsync } from '../helpers.ts';
import { storeKinds } from '../storeKinds.ts';
import { type CliStore, cliStore } from './cliStore.ts';
import { judgeEnvironment, judgeWorkspace } from './judgeCli.ts';

/** A study of 2 queries × 3 documents with the `judge` statement given, imported. */
const workspace = (store: CliStore, judge: string) => judgeWorkspace(store, judge, { perQuery: 3 });

const cli = runCliAsync;

for (const kind of storeKinds)
  test(`--estimate prints the estimate and sends nothing; a budget refuses beyond it or without a price (${kind})`, async (t) => {
    const store = await cliStore(kind);
    const server = await startOpenAiServer({
      respond: () => ({
        content: JSON.stringify({ rationale: 'because', label: 1 }),
        usage: { prompt_tokens: 100, completion_tokens: 20 },
      }),
    });
    t.after(() => server.close());
    const root = workspace(store, `judge "gpt-4o-mini" { endpoint "${server.baseURL}"  max_tokens 80  budget 5 USD }`);
    const env = judgeEnvironment(store);
    const price = ['--price', 'gpt-4o-mini=150,600'];

    // No approval needed: nothing is sent.
    const estimate = await cli(['judge', 'wqt.assess', '--estimate', ...price], root, env);
    assert.equal(estimate.status, 0, estimate.stderr);
    assert.match(estimate.stdout, /^estimate for judge gpt-4o-mini: 6 calls to send \(6 prompts; /m);
    assert.match(
      estimate.stdout,
      /^input: [\d,]+ tokens, counted with o200k_base \+ [\d,]+ for the response schema \(estimated\)$/m,
    );
    assert.match(estimate.stdout, /^output: 480 tokens, at most the judge's max_tokens a call \(an upper bound\)$/m);
    const cost = Number(/^cost: \$([\d.]+) at online prices · budget \$5\.00$/m.exec(estimate.stdout)?.[1]);
    assert.ok(cost > 480 * 600e-6, estimate.stdout);
    assert.equal(server.requests(), 0);

    const allow = ['--allow-endpoint', server.baseURL];
    const over = await cli(['judge', 'wqt.assess', ...allow, ...price, '--budget', '0.01'], root, env);
    assert.equal(over.status, 1);
    assert.match(over.stderr, /refusing to start: the estimated cost \$[\d.]+ is over the budget \$0\.0100 \(6 calls/);
    assert.match(over.stderr, /nothing was sent/);
    assert.equal(server.requests(), 0);

    const unpriced = await cli(['judge', 'wqt.assess', ...allow], root, env);
    assert.equal(unpriced.status, 1);
    assert.match(unpriced.stderr, /judge 'gpt-4o-mini' has a budget of \$5\.00 but no price/);
    assert.equal(server.requests(), 0);

    const within = await cli(['judge', 'wqt.assess', ...allow, ...price], root, env);
    assert.equal(within.status, 0, within.stderr);
    assert.match(within.stderr, /^estimate for judge gpt-4o-mini: 6 calls to send/m);
    assert.equal(server.requests(), 6);
    assert.match(within.stdout, /^votes: 6 of 6 \(6 asked, 0 from the cache\)$/m);

    // Answered calls cost nothing: the estimate is now empty.
    const after = await cli(['judge', 'wqt.assess', '--estimate', ...price], root, env);
    assert.match(after.stdout, /^estimate for judge gpt-4o-mini: 0 calls to send/m);
  });

test('--budget takes an amount in USD', async () => {
  const { parseJudgeArguments } = await import('../../cli/commands/judge.ts');
  assert.equal(parseJudgeArguments(['s.assess', '--budget', '2.50']).budget, 2.5);
  assert.equal(parseJudgeArguments(['s.assess', '--estimate']).estimate, true);
  for (const bad of ['-1', 'ten', '$5', '5USD'])
    assert.throws(() => parseJudgeArguments(['s.assess', '--budget', bad]), /--budget expects an amount in USD/);
});
