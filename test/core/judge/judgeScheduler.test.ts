// The judge's scheduler: at most `concurrency` jobs in flight (measured at a real server, through the real chat
// client), cooperative stopping, failures counted without stopping the rest, and the throughput concurrency buys.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { ChatFailure, createChatClient } from '../../../core/judge/chatClient.ts';
import { runJobs, type SchedulerProgress } from '../../../core/judge/judgeScheduler.ts';
import { type OpenAiServerOptions, startOpenAiServer } from './openAiServer.ts';

const servers: { close(): Promise<void> }[] = [];
after(() => Promise.all(servers.map((s) => s.close())));

async function server(options: OpenAiServerOptions) {
  const started = await startOpenAiServer(options);
  servers.push(started);
  return started;
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

test('never more than `concurrency` requests at the server, and every job runs', async () => {
  const s = await server({ respond: ({ index }) => ({ content: `answer ${index}`, latencyMs: 40 }) });
  const client = createChatClient({ baseURL: s.baseURL, apiKey: 'key' });
  const answers: string[] = [];
  let maxReported = 0;
  const outcome = await runJobs(range(40), {
    concurrency: 4,
    async run(job, signal) {
      const result = await client.complete(
        { model: `m${job % 2}`, messages: [{ role: 'user', content: `${job}` }] },
        signal,
      );
      answers.push(result.text);
    },
    onProgress: (p) => {
      maxReported = Math.max(maxReported, p.inFlight);
    },
  });
  assert.deepEqual(outcome, { done: 40, failed: 0, notStarted: 0, errors: [] });
  assert.equal(answers.length, 40);
  assert.equal(s.requests(), 40);
  assert.equal(s.maxInFlight(), 4, 'the server saw 4 at once, never more');
  assert.equal(maxReported, 4);
  assert.deepEqual(
    s.requestsByModel(),
    new Map([
      ['m0', 20],
      ['m1', 20],
    ]),
  );
});

test('after abort no job starts; jobs in flight see the aborted signal; the call waits for them', async () => {
  const s = await server({ respond: () => ({ content: 'ok', latencyMs: 60 }) });
  const client = createChatClient({ baseURL: s.baseURL, apiKey: 'key' });
  const controller = new AbortController();
  let startedAfterAbort = 0;
  let started = 0;
  let settled = 0;
  let cancelledInFlight = 0;
  let answeredAfterAbort = 0;
  let inFlightAtAbort = -1;
  const outcome = await runJobs(range(60), {
    concurrency: 5,
    signal: controller.signal,
    async run(job, signal) {
      started++;
      if (signal.aborted) startedAfterAbort++;
      try {
        await client.complete({ model: 'm', messages: [{ role: 'user', content: `${job}` }] }, signal);
        if (signal.aborted) answeredAfterAbort++;
      } catch (error) {
        // The judge's way: a cancelled call is recorded as not judged, and the job returns.
        if (error instanceof ChatFailure && error.kind === 'cancelled') cancelledInFlight++;
        else throw error;
      } finally {
        settled++;
      }
    },
    onProgress: (p: SchedulerProgress) => {
      if (p.done === 12 && !controller.signal.aborted) {
        inFlightAtAbort = p.inFlight;
        controller.abort();
      }
    },
  });
  assert.equal(startedAfterAbort, 0);
  assert.equal(settled, started, 'every started job settled before runJobs resolved');
  assert.equal(outcome.failed, 0);
  assert.equal(outcome.done, started);
  assert.equal(outcome.notStarted, 60 - started);
  assert.ok(outcome.notStarted >= 60 - 12 - 5, `not started: ${outcome.notStarted}`);
  // An answer already on its way when the abort came may still land; the rest are cancelled.
  assert.equal(cancelledInFlight + answeredAfterAbort, inFlightAtAbort, 'the jobs in flight at the abort ended');
  assert.ok(cancelledInFlight > 0);
  // A job cancelled while its connection was being made never reached the server.
  const requestsWhenSettled = s.requests();
  assert.ok(requestsWhenSettled <= started && requestsWhenSettled >= started - inFlightAtAbort);
  await new Promise((resolve) => setTimeout(resolve, 150));
  assert.equal(s.requests(), requestsWhenSettled, 'no request after runJobs resolved');
});

test('a job that throws is counted and returned; the others run', async () => {
  const ran: number[] = [];
  const outcome = await runJobs(range(20), {
    concurrency: 3,
    async run(job) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      ran.push(job);
      if (job % 3 === 0) throw new Error(`job ${job} failed`);
    },
  });
  assert.equal(ran.length, 20);
  assert.equal(outcome.done, 13);
  assert.equal(outcome.failed, 7);
  assert.equal(outcome.notStarted, 0);
  assert.deepEqual(
    outcome.errors.map((e) => e.job).sort((a, b) => a - b),
    [0, 3, 6, 9, 12, 15, 18],
  );
  const [first] = outcome.errors;
  assert.equal((first!.error as Error).message, `job ${first!.job} failed`);
});

test('an aborted signal before the start: nothing runs; no jobs: nothing to do', async () => {
  let ran = 0;
  const aborted = await runJobs(range(5), {
    concurrency: 2,
    signal: AbortSignal.abort(),
    run: async () => {
      ran++;
    },
  });
  assert.deepEqual(aborted, { done: 0, failed: 0, notStarted: 5, errors: [] });
  assert.equal(ran, 0);
  assert.deepEqual(await runJobs([], { concurrency: 4, run: async () => {} }), {
    done: 0,
    failed: 0,
    notStarted: 0,
    errors: [],
  });
});

test('a concurrency that is not a whole number ≥ 1 is refused in a sentence', async () => {
  for (const concurrency of [0, -1, 1.5, Number.NaN]) {
    await assert.rejects(runJobs([1], { concurrency, run: async () => {} }), {
      name: 'RangeError',
      message: `expected the concurrency to be a whole number ≥ 1, found ${concurrency}`,
    });
  }
});

test('throughput: 200 jobs of 50 ms at concurrency 16 keep 16 requests in flight until the queue runs dry', async (t) => {
  const s = await server({ respond: () => ({ content: 'ok', latencyMs: 50 }) });
  const client = createChatClient({ baseURL: s.baseURL, apiKey: 'key' });
  // How many other jobs were running when each one started.
  let running = 0;
  let others: number[] = [];
  const run = async (job: number, signal: AbortSignal) => {
    others.push(running++);
    try {
      await client.complete({ model: 'm', messages: [{ role: 'user', content: `${job}` }] }, signal);
    } finally {
      running--;
    }
  };
  // Warm up: the 16 connections opened and the code paths compiled, as in a long judge run.
  await runJobs(range(32), { concurrency: 16, run });
  others = [];
  const started = performance.now();
  const outcome = await runJobs(range(200), { concurrency: 16, run });
  const wallSeconds = (performance.now() - started) / 1000;
  const boundSeconds = (200 * 0.05) / 16;
  // How close the wall time comes to the bound is `npm run bench`'s to report (tests assert no clock).
  t.diagnostic(
    `wall ${wallSeconds.toFixed(3)} s, bound ${boundSeconds.toFixed(3)} s, bound/wall ${(boundSeconds / wallSeconds).toFixed(2)}`,
  );
  assert.equal(outcome.done, 200);
  assert.equal(s.maxInFlight(), 16);
  // The first 16 start together; every later one takes the slot a finished job left, at once (not in batches).
  assert.deepEqual(others.slice(0, 16), range(16));
  assert.deepEqual(new Set(others.slice(16)), new Set([15]));
});

test('a lazy source is taken one job at a time as workers free, never ahead; a stop ends it and closes it', async () => {
  let taken = 0;
  let running = 0;
  let mostAhead = 0;
  let closed = false;
  async function* source(n: number) {
    try {
      for (let i = 0; i < n; i++) {
        taken++;
        // Jobs taken but not yet started or finished: the source's look-ahead, as the workers see it.
        mostAhead = Math.max(mostAhead, taken - running - finished);
        yield i;
      }
    } finally {
      closed = true;
    }
  }
  let finished = 0;
  const run = async () => {
    running++;
    await new Promise((resolve) => setTimeout(resolve, 1));
    running--;
    finished++;
  };
  const outcome = await runJobs(source(50), { concurrency: 4, run });
  assert.deepEqual(outcome, { done: 50, failed: 0, notStarted: 0, errors: [] });
  assert.equal(taken, 50);
  assert.ok(mostAhead <= 4, `${mostAhead} jobs taken ahead of the workers`);
  assert.ok(closed);

  // Stopped half-way: no more is taken, the source is closed (its finally runs), started jobs settle first.
  const controller = new AbortController();
  taken = 0;
  finished = 0;
  closed = false;
  const stopped = await runJobs(source(1_000), {
    concurrency: 3,
    signal: controller.signal,
    run: async () => {
      await run();
      if (finished === 10) controller.abort();
    },
  });
  assert.ok(closed, 'the source was closed');
  assert.ok(taken < 20, `${taken} taken`);
  assert.equal(stopped.done, finished);
  assert.equal(running, 0);

  // A source that fails: the started jobs settle, then runJobs throws its error.
  async function* failing() {
    yield 1;
    yield 2;
    throw new Error('the store went away');
  }
  finished = 0;
  await assert.rejects(runJobs(failing(), { concurrency: 2, run }), { message: 'the store went away' });
  assert.equal(finished, 2);
  assert.equal(running, 0);
});
