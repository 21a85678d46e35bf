// `qrels-studio judge` as users run it: the built CLI as a real process (spawned without blocking, so the
// OpenAI-compatible test server on 127.0.0.1 in this process can answer it), a real study imported into a real
// database, the approval store in a scratch config folder. It never calls an endpoint that is not approved; the API
// key goes from OPENAI_API_KEY to the server as the bearer token and is never printed; a re-run asks nothing;
// Ctrl+C stops it, recorded, with exit code 130; a broken prompt file is an error at its line and column. Each test
// of a study runs on a study of either store kind (cliStore.ts).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { progressLine } from '../../cli/commands/judge.ts';
import { approveEndpoint } from '../../core/judge/endpointApproval.ts';
import { type OpenAiServer, startOpenAiServer } from '../core/judge/openAiServer.ts';
import { runCliAsync, runCliProcess, scratchDir, startCliProcess } from '../helpers.ts';
import { storeKinds } from '../storeKinds.ts';
import { type CliStore, cliStore } from './cliStore.ts';
import { documentOf, judgeEnvironment, judgeWorkspace, labelAnswer, testApiKey } from './judgeCli.ts';

const apiKey = testApiKey;

/** A study of `queries` × `perQuery` pairs (documents with titles) with the `judge` statement given, imported. */
const workspace = (store: CliStore, judge: string, queries = 2, perQuery = 2) =>
  judgeWorkspace(store, judge, { queries, perQuery, titles: true });

/** The CLI's environment with the approval store `config`. */
const environment = (store: CliStore, config: string, extra: Record<string, string> = {}) =>
  judgeEnvironment(store, extra, config);

const startCli = startCliProcess;
const cli = runCliAsync;

/** The study's record, through the storage port, and the study's id in it. */
async function record(kindStore: CliStore, root: string) {
  const store = await kindStore.open(join(root, 'wqt.assess'));
  return { store, studyId: await store.studies.studyId('wqt') };
}

const answer = labelAnswer;

async function labelServer(options: { latencyMs?: number; apiKey?: string } = {}): Promise<OpenAiServer> {
  return startOpenAiServer({
    ...(options.apiKey !== undefined && { apiKey: options.apiKey }),
    respond: ({ body }) => ({
      content: answer(documentOf(body) % 3),
      ...(options.latencyMs !== undefined && { latencyMs: options.latencyMs }),
      usage: { prompt_tokens: 1000, completion_tokens: 20 },
    }),
  });
}

for (const kind of storeKinds)
  test(`an endpoint that is not approved is refused before any request; --allow-endpoint lets the run go (${kind})`, async (t) => {
    const kindStore = await cliStore(kind);
    const server = await labelServer({ apiKey });
    t.after(() => server.close());
    const root = workspace(kindStore, `judge "judge-x" { endpoint "${server.baseURL}/" }`);
    const env = environment(kindStore, scratchDir(), { OPENAI_API_KEY: apiKey });
    const refused = await cli(['judge', 'wqt.assess'], root, env);
    assert.equal(refused.status, 1);
    assert.equal(
      refused.stderr,
      `refusing to call ${server.baseURL} : not approved — pass --allow-endpoint ${server.baseURL} or approve it once in VS Code\n`,
    );
    assert.equal(server.requests(), 0);
    const other = await cli(['judge', 'wqt.assess', '--allow-endpoint', 'http://127.0.0.1:1/v1'], root, env);
    assert.equal(other.status, 1, 'approving another endpoint approves nothing here');
    assert.equal(server.requests(), 0);

    const allowed = await cli(
      ['judge', 'wqt.assess', '--allow-endpoint', server.baseURL, '--price', 'judge-x=0.5,2'],
      root,
      env,
    );
    assert.equal(allowed.status, 0, allowed.stderr);
    assert.equal(server.requests(), 4);
    assert.match(allowed.stdout, /^judge llm:judge-x@[0-9a-f]{8} on study 'wqt' at http:\/\/127\.0\.0\.1:\d+\/v1$/m);
    assert.match(allowed.stdout, /^votes: 4 of 4 \(4 asked, 0 from the cache\)$/m);
    // 4 calls × (1000 × 0.5 + 20 × 2) / 1M = $0.00216
    assert.match(allowed.stdout, /^tokens: 4,000 in, 80 out · cost \$0\.0022 · [\d.]+ s$/m);
    assert.match(allowed.stdout, /^suggestions: 4 written$/m);
    const judge = /^judge (llm:judge-x@[0-9a-f]{8}) /m.exec(allowed.stdout)![1]!;
    const { store, studyId } = await record(kindStore, root);
    assert.deepEqual(
      (await store.judge.suggestions(studyId, judge))
        .map(({ docid, label }) => ({ docid, label }))
        .sort((a, b) => a.docid.localeCompare(b.docid)),
      [1, 2, 3, 4].map((d) => ({ docid: `d${d}`, label: d % 3 })),
    );
    await store.close();

    // Run again: nothing is asked.
    const again = await cli(['judge', 'wqt.assess', '--allow-endpoint', server.baseURL], root, env);
    assert.equal(again.status, 0, again.stderr);
    assert.equal(server.requests(), 4);
    assert.match(again.stdout, /^votes: 4 of 4 \(0 asked, 4 from the cache\)$/m);
  });

for (const kind of storeKinds)
  test(`a judge's suggestions are its labels: export --labels writes them, and agree on the file equals agree on the study (${kind})`, async (t) => {
    const kindStore = await cliStore(kind);
    const server = await labelServer();
    t.after(() => server.close());
    const root = workspace(kindStore, `judge "judge-z" { endpoint "${server.baseURL}" }`);
    const env = environment(kindStore, scratchDir());
    const judged = await cli(['judge', 'wqt.assess', '--allow-endpoint', server.baseURL], root, env);
    assert.equal(judged.status, 0, judged.stderr);
    // The judge said d % 3 for d1…d4: 1 2 0 1; alice says 1 2 1 1.
    writeFileSync(join(root, 'alice.qrels'), 'q1 0 d1 1\nq1 0 d2 2\nq2 0 d3 1\nq2 0 d4 1\n');
    const imported = kindStore.cli(['import', 'wqt.assess', '--qrels', 'alice.qrels', '--annotator', 'alice'], {
      cwd: root,
    });
    assert.equal(imported.status, 0, imported.stderr);
    const exported = kindStore.cli(['export', 'wqt.assess', '--labels', 'labels.csv'], { cwd: root });
    assert.equal(exported.status, 0, exported.stderr);
    assert.equal(exported.stdout, 'labels.csv: 8 judgments (label file)\n');
    const rows = readFileSync(join(root, 'labels.csv'), 'utf8').trim().split('\n');
    assert.match(rows[2]!, /^q1,d1,llm:judge-z@[0-9a-f]{8},1,[\d-]+T[\d:.]+Z,suggestion,because,,judge$/);
    const agree = (file: string) => {
      const run = kindStore.cli(['agree', file, '--json'], { cwd: root });
      assert.equal(run.status, 0, run.stderr);
      return JSON.parse(run.stdout);
    };
    const study = agree('wqt.assess');
    const fromFile = agree('labels.csv');
    assert.equal(study.cohen.length, 1, 'alice and the judge');
    assert.equal(study.cohen[0].n, 4);
    assert.equal(study.cohen[0].percent_agreement, 0.75);
    assert.deepEqual(fromFile.cohen, study.cohen);
  });

for (const kind of storeKinds)
  test(`an endpoint approved in the store (as VS Code approves it) needs no flag; OPENAI_BASE_URL fills a missing endpoint (${kind})`, async (t) => {
    const kindStore = await cliStore(kind);
    const server = await labelServer();
    t.after(() => server.close());
    const root = workspace(kindStore, 'judge "judge-y" {}');
    const config = scratchDir();
    const noEndpoint = await cli(['judge', 'wqt.assess'], root, environment(kindStore, config));
    assert.equal(noEndpoint.status, 1);
    assert.equal(
      noEndpoint.stderr,
      `judge 'judge-y' of study 'wqt' names no endpoint: add endpoint "URL" to its judge block, pass --endpoint URL, or set OPENAI_BASE_URL\n`,
    );
    const env = environment(kindStore, config, { OPENAI_BASE_URL: server.baseURL });
    assert.equal((await cli(['judge', 'wqt.assess'], root, env)).status, 1, 'not approved yet');
    approveEndpoint(server.baseURL, { env: { QRELS_STUDIO_CONFIG_DIR: config } });
    const approved = await cli(['judge', 'wqt.assess', '--limit', '3'], root, env);
    assert.equal(approved.status, 0, approved.stderr);
    assert.equal(server.requests(), 3);
    const viaFlag = await cli(
      ['judge', 'wqt.assess', '--endpoint', server.baseURL],
      root,
      environment(kindStore, config),
    );
    assert.equal(viaFlag.status, 0, viaFlag.stderr);
    assert.equal(server.requests(), 4, 'the three judged before come from the cache');
  });

for (const kind of storeKinds)
  test(`OPENAI_API_KEY is sent as the bearer token and never printed; without it the message says to set it (${kind})`, async (t) => {
    const kindStore = await cliStore(kind);
    const tokens = new Set<string | undefined>();
    const server = await startOpenAiServer({
      apiKey,
      respond: ({ body, authorization }) => {
        tokens.add(authorization);
        t.after(() => server.close());
        return { content: answer(documentOf(body) % 3) };
      },
    });
    const root = workspace(kindStore, `judge "judge-k" { endpoint "${server.baseURL}" }`);
    const config = scratchDir();
    approveEndpoint(server.baseURL, { env: { QRELS_STUDIO_CONFIG_DIR: config } });
    const ok = await cli(['judge', 'wqt.assess'], root, environment(kindStore, config, { OPENAI_API_KEY: apiKey }));
    assert.equal(ok.status, 0, ok.stderr);
    assert.deepEqual([...tokens], [`Bearer ${apiKey}`]);
    assert.ok(!`${ok.stdout}${ok.stderr}`.includes(apiKey));

    // A wrong key: the server quotes it back in its 401, the CLI must not repeat it.
    const wrong = 'sk-wrong-key-9876543210fedcba';
    const refused = await cli(
      ['judge', 'wqt.assess', '--only-unlabelled'],
      root,
      environment(kindStore, config, { OPENAI_API_KEY: wrong }),
    );
    assert.equal(refused.status, 0, 'every call is answered from the cache: no request, so no key is needed');
    const freshStore = await cliStore(kind);
    const fresh = workspace(freshStore, `judge "judge-k" { endpoint "${server.baseURL}" }`);
    const wrongRun = await cli(
      ['judge', 'wqt.assess'],
      fresh,
      environment(freshStore, config, { OPENAI_API_KEY: wrong }),
    );
    assert.equal(wrongRun.status, 1);
    assert.match(wrongRun.stdout, /first auth failure: .*refused the API key \(401/);
    assert.match(wrongRun.stderr, /refused the API key: check OPENAI_API_KEY/);
    assert.ok(!`${wrongRun.stdout}${wrongRun.stderr}`.includes(wrong), `${wrongRun.stdout}${wrongRun.stderr}`);
    const noKey = await cli(['judge', 'wqt.assess'], fresh, environment(freshStore, config));
    assert.equal(noKey.status, 1);
    assert.match(noKey.stderr, /wants an API key: set OPENAI_API_KEY/);
  });

for (const kind of storeKinds)
  test(`Ctrl+C stops the run: no call starts after it, the calls in flight are recorded, exit code 130 (${kind})`, async (t) => {
    const kindStore = await cliStore(kind);
    const server = await labelServer({ latencyMs: 400 });
    t.after(() => server.close());
    const root = workspace(kindStore, `judge "judge-c" { endpoint "${server.baseURL}" }`, 4, 10);
    const config = scratchDir();
    approveEndpoint(server.baseURL, { env: { QRELS_STUDIO_CONFIG_DIR: config } });
    const concurrency = 3;
    const running = startCli(
      ['judge', 'wqt.assess', '--concurrency', String(concurrency)],
      root,
      environment(kindStore, config),
    );
    // Interrupt once a few calls have been answered and others are in flight.
    while (server.requests() < 7) await new Promise((resolve) => setTimeout(resolve, 20));
    running.child.kill('SIGINT');
    const stopped = await running.finished;
    assert.equal(stopped.status, 130, stopped.stderr);
    assert.match(stopped.stderr, /cancelling: no new call starts/);
    assert.match(stopped.stdout, /^cancelled: \d+ votes not asked; run again to finish/m);
    const done = Number(/^votes: (\d+) of 40/m.exec(stopped.stdout)?.[1]);
    assert.ok(done < 40);
    assert.ok(server.requests() <= done + concurrency, `${server.requests()} requests, ${done} done`);
    const { store, studyId } = await record(kindStore, root);
    const calls = await store.judge.calls(studyId);
    assert.equal(calls.length, done, 'every finished call is recorded');
    const answered = calls.filter((call) => call.error === null).length;
    await store.close();

    const before = server.requests();
    const rest = await cli(['judge', 'wqt.assess', '--concurrency', '8'], root, environment(kindStore, config));
    assert.equal(rest.status, 0, rest.stderr);
    assert.equal(server.requests() - before, 40 - answered, 'only what was not answered is asked');
  });

for (const kind of storeKinds)
  test(`a prompt file with an unknown variable is an error at its line and column; nothing is asked (${kind})`, async (t) => {
    const kindStore = await cliStore(kind);
    const server = await labelServer();
    t.after(() => server.close());
    // The study is imported before its judge names the prompt (a study file naming a missing file does not import).
    const judge = `judge "judge-p" { endpoint "${server.baseURL}" }`;
    const root = workspace(kindStore, judge);
    mkdirSync(join(root, 'prompts'));
    writeFileSync(
      join(root, 'prompts', 'judge.md'),
      'Query: {{query}}\n\nThe document: {{documnt}}\nGrades: {{scale}}\n',
    );
    const studyFile = join(root, 'wqt.assess');
    const withPrompt = `judge "judge-p" { endpoint "${server.baseURL}"  prompt "prompts/judge.md" }`;
    writeFileSync(studyFile, readFileSync(studyFile, 'utf8').replace(judge, withPrompt));
    const result = await cli(
      ['judge', 'wqt.assess', '--allow-endpoint', server.baseURL],
      root,
      environment(kindStore, scratchDir()),
    );
    assert.equal(result.status, 1);
    assert.match(
      result.stderr,
      /^prompts\/judge\.md:3:15: unknown variable \{\{documnt\}\}: .*did you mean \{\{document\}\}/m,
    );
    assert.equal(server.requests(), 0);
  });

test('--write-default-prompts writes the default prompts and keeps files already there', () => {
  const root = scratchDir();
  const first = runCliProcess(['judge', '--write-default-prompts', 'prompts'], { cwd: root });
  assert.equal(first.status, 0, first.stderr);
  assert.deepEqual(readdirSync(join(root, 'prompts')).sort(), [
    'conditions.md',
    'graded-relevance.md',
    'instruction-critic.md',
    'instruction-following.md',
    'instruction-relevance.md',
    'table-relevance.md',
  ]);
  assert.match(readFileSync(join(root, 'prompts', 'graded-relevance.md'), 'utf8'), /\{\{query\}\}/);
  writeFileSync(join(root, 'prompts', 'conditions.md'), 'tuned');
  const again = runCliProcess(['judge', '--write-default-prompts', 'prompts'], { cwd: root });
  assert.equal(again.status, 0);
  assert.match(again.stderr, /prompts\/conditions\.md: already there, kept as it is/);
  assert.equal(readFileSync(join(root, 'prompts', 'conditions.md'), 'utf8'), 'tuned');
  assert.ok(existsSync(join(root, 'prompts', 'instruction-critic.md')));
});

test('bad options are usage errors naming the option', () => {
  const root = scratchDir();
  const cases: [string[], RegExp][] = [
    [['judge', 'wqt.assess', '--limit', '0'], /--limit expects a whole number ≥ 1, found '0'/],
    [['judge', 'wqt.assess', '--concurrency', 'many'], /--concurrency expects a whole number ≥ 1, found 'many'/],
    [['judge', 'wqt.assess', '--price', 'gpt=1'], /--price: Expected MODEL=INPUT,OUTPUT/],
    [['judge', 'wqt.assess', '--frobnicate'], /unknown option '--frobnicate'/],
    [['judge'], /no study file/],
  ];
  for (const [args, message] of cases) {
    const result = runCliProcess(args, { cwd: root });
    assert.equal(result.status, 2, args.join(' '));
    assert.match(result.stderr, message);
  }
});

test('the progress line reads as the issue shows it', () => {
  const line = progressLine(
    'gpt-x',
    {
      total: 1000,
      done: 412,
      cached: 0,
      requests: 412,
      failures: 2,
      inputTokens: 80_000,
      outputTokens: 1_204,
      cost: 0.0312,
      elapsedMs: 11_075,
      callsPerSecond: 37.2,
    },
    true,
  );
  assert.equal(line, 'judge gpt-x: 412/1,000 · 37.2 calls/s · 81,204 tokens · $0.0312 · 2 failures');
});
