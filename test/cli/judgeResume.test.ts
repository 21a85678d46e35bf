// `qrels-studio judge` killed with SIGKILL mid-run (no handler runs, nothing is flushed) and run again: 0 duplicate
// calls. The built CLI is a real child process; the OpenAI-compatible test server on 127.0.0.1 in this process counts
// every request by (prompt, vote) — the judge's seed makes vote i of a pair carry seed + i, so the two are told apart.
// The guarantee, precisely: every call on record when the CLI died is never asked again; the only calls asked twice
// are those that were in flight at the kill (sent, their answers not yet on record), at most `concurrency` of them;
// after the re-run every pair has each vote on record exactly once, and its suggestion. 300 pairs, so the run reads
// more than one page of pairs. Each store kind (cliStore.ts).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { test } from 'node:test';
import { approveEndpoint } from '../../core/judge/endpointApproval.ts';
import { type ChatBody, startOpenAiServer } from '../core/judge/openAiServer.ts';
import { scratchDir, startCliProcess } from '../helpers.ts';
import { storeKinds } from '../storeKinds.ts';
import { type CliStore, cliStore } from './cliStore.ts';
import { judgeEnvironment, judgeWorkspace } from './judgeCli.ts';

const queries = 30;
const perQuery = 10;
const votes = 3;
const seed = 7;
const concurrency = 16;

/** The study of `queries` × `perQuery` pairs ("big") with the `judge` statement given, imported. */
const workspace = (store: CliStore, judge: string) => judgeWorkspace(store, judge, { queries, perQuery, study: 'big' });

/** A request's (prompt hash, vote index): what the record's calls are keyed by. */
function voteOf(body: ChatBody): string {
  const prompt = body.messages?.[0]?.content ?? '';
  const hash = createHash('sha256').update(prompt).digest('hex');
  return `${hash}/${Number(body.seed) - seed}`;
}

const runCli = startCliProcess;

for (const kind of storeKinds)
  test(`judge killed with SIGKILL mid-run, run again: no call on record asked twice, every vote on record once (${kind})`, async (t) => {
    const kindStore = await cliStore(kind);
    const server = await startOpenAiServer({
      // Answers of varied latency, so calls finish out of order and many are in flight at any moment.
      respond: ({ index, body }) => ({
        content: JSON.stringify({ rationale: 'because', label: Number(body.seed) % 3 }),
        latencyMs: 5 + ((index * 7) % 30),
      }),
    });
    t.after(() => server.close());
    const root = workspace(kindStore, `judge "judge-k" { endpoint "${server.baseURL}"  votes ${votes}  seed ${seed} }`);
    const config = scratchDir();
    approveEndpoint(server.baseURL, { env: { QRELS_STUDIO_CONFIG_DIR: config } });
    const env = judgeEnvironment(kindStore, {}, config);
    const args = ['judge', 'big.assess', '--concurrency', String(concurrency)];
    const total = queries * perQuery * votes;

    const first = runCli(args, root, env);
    // Killed once about a third of the calls were sent: some pages read, many calls answered, others in flight.
    while (server.requests() < total / 3) await new Promise((resolve) => setTimeout(resolve, 5));
    first.child.kill('SIGKILL');
    const killed = await first.finished;
    assert.equal(killed.signal, 'SIGKILL', first.stderr());
    const sentBeforeKill = server.requests();
    assert.ok(sentBeforeKill < total, 'the run was killed before it finished');

    const opened = await kindStore.open(join(root, 'big.assess'));
    const studyId = await opened.studies.studyId('big');
    const recordedAtKill = new Set((await opened.judge.calls(studyId)).map((c) => `${c.promptHash}/${c.voteIndex}`));
    await opened.close();
    assert.ok(recordedAtKill.size > 0, 'some calls were on record when the CLI died');
    assert.ok(recordedAtKill.size <= sentBeforeKill);

    const second = runCli(args, root, env);
    const rerun = await second.finished;
    assert.equal(rerun.status, 0, second.stderr());

    const asked = new Map<string, number>();
    for (const body of server.bodies()) asked.set(voteOf(body), (asked.get(voteOf(body)) ?? 0) + 1);
    const reopened = await kindStore.open(join(root, 'big.assess'));
    try {
      const calls = await reopened.judge.calls(studyId);
      const recorded = new Map<string, number>();
      for (const call of calls) {
        assert.equal(call.error, null, 'every call was answered');
        const key = `${call.promptHash}/${call.voteIndex}`;
        recorded.set(key, (recorded.get(key) ?? 0) + 1);
      }
      // Every pair + vote on record exactly once.
      assert.equal(calls.length, total);
      assert.equal(recorded.size, total);
      assert.ok([...recorded.values()].every((n) => n === 1));
      // The server saw exactly the votes on record, and no call on record at the kill was asked again.
      assert.deepEqual([...asked.keys()].sort(), [...recorded.keys()].sort());
      for (const key of recordedAtKill) assert.equal(asked.get(key), 1, `${key} was on record, yet asked again`);
      // Asked twice: only calls in flight at the kill (answers that never reached the record).
      const twice = [...asked].filter(([, n]) => n > 1);
      assert.ok(twice.every(([, n]) => n === 2));
      for (const [key] of twice) assert.ok(!recordedAtKill.has(key));
      assert.ok(
        twice.length <= concurrency,
        `${twice.length} calls asked twice, more than the ${concurrency} in flight`,
      );
      assert.equal(server.requests(), total + twice.length);
      t.diagnostic(
        `${recordedAtKill.size} calls on record at the kill of ${sentBeforeKill} sent; ${twice.length} asked twice`,
      );
      const suggestions = await reopened.judge.suggestions(studyId, calls[0]!.judge!);
      assert.equal(suggestions.length, queries * perQuery);
      assert.ok(suggestions.every((s) => s.votes.length === votes));
    } finally {
      await reopened.close();
    }
  });
