// `qrels-studio judge --estimate` and budgets, as users run them: the built CLI as a real process against the
// OpenAI-compatible test server on 127.0.0.1, a real study of either store kind. An estimate sends nothing (and needs
// no approval); a budget below the estimate, or a budget without a price, refuses to start with the reason and
// sends nothing; a run within its budget prints its estimate first and runs.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { startOpenAiServer } from '../core/judge/openAiServer.ts';
import { cliLauncher, scratchDir } from '../helpers.ts';
import { storeKinds } from '../storeKinds.ts';
import { type CliStore, cliStore } from './cliStore.ts';

function workspace(store: CliStore, judge: string): string {
  const root = scratchDir();
  mkdirSync(join(root, 'data'));
  mkdirSync(join(root, 'runs'));
  store.writeStudy(
    join(root, 'wqt.assess'),
    `study "wqt" {
  queries "data/queries.jsonl" { id: qid  text: query }
  corpus  "data/corpus.jsonl"  { id: _id  body: text }
  pool    "runs/bm25.trec" depth 3
  scale ordinal { 0 "No" key "0"  1 "Partly" key "1"  2 "Yes" key "2" }
  ${judge}
}
`,
  );
  const queries = [1, 2].map((q) => JSON.stringify({ qid: `q${q}`, query: `query ${q}` }));
  const documents = [1, 2, 3, 4, 5, 6].map((d) => JSON.stringify({ _id: `d${d}`, text: `document number ${d}` }));
  const run = [1, 2, 3, 4, 5, 6].map((d) => `q${Math.ceil(d / 3)} Q0 d${d} ${((d - 1) % 3) + 1} ${10 - d} bm25`);
  writeFileSync(join(root, 'data', 'queries.jsonl'), `${queries.join('\n')}\n`);
  writeFileSync(join(root, 'data', 'corpus.jsonl'), `${documents.join('\n')}\n`);
  writeFileSync(join(root, 'runs', 'bm25.trec'), `${run.join('\n')}\n`);
  const imported = store.cli(['import', 'wqt.assess'], { cwd: root });
  assert.equal(imported.status, 0, imported.stderr);
  return root;
}

function cli(args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [cliLauncher, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    stdout += text;
  });
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

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
    const env: NodeJS.ProcessEnv = { ...process.env, ...store.env, QRELS_STUDIO_CONFIG_DIR: scratchDir() };
    delete env.OPENAI_API_KEY;
    delete env.OPENAI_BASE_URL;
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
