// `qrels-studio judge --batch` killed with SIGKILL at exact points (issue 22 "How it is tested"): the local Files +
// Batch server (openAiBatchServer.ts) holds a route until the test has killed the CLI — during the upload; between
// the upload and the batch's creation (the creation never reached the API; or it did, and the CLI died before hearing
// the batch's id); while it polls; in the middle of the output file's download. A re-run finds the batch by its recorded id (or
// by the key in its metadata), never creates a second batch for the same requests (the server's counts), and
// records every line exactly once (the study's record, read through the storage port). Both store kinds.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type CliStore, cliStore } from '../../../cli/cliStore.ts';
import { documentOf, judgeEnvironment, judgeWorkspace, labelAnswer } from '../../../cli/judgeCli.ts';
import { runCliAsync, startCliProcess } from '../../../helpers.ts';
import { storeKinds } from '../../../storeKinds.ts';
import { type Hold, type OpenAiBatchServer, type Route, startOpenAiBatchServer } from '../openAiBatchServer.ts';
import { assertEachVoteOnce, inputFilesKept, recorded } from './batchCli.ts';

const pairs = 12;
const batchStudy = { queries: 3, perQuery: 4, titles: true };

async function labelBatchServer(): Promise<OpenAiBatchServer> {
  return startOpenAiBatchServer({
    respondLine: ({ body }) => ({
      content: labelAnswer(documentOf(body) % 3),
      usage: { prompt_tokens: 100, completion_tokens: 10 },
    }),
  });
}

interface Setup {
  kindStore: CliStore;
  server: OpenAiBatchServer;
  root: string;
  env: NodeJS.ProcessEnv;
  /** `judge --batch` (writes, uploads and creates the batches, then returns). */
  submit: string[];
  /** `judge --batch-status` (polls each open batch once, records those that finished). */
  status: string[];
}

/** The runs a user makes: submit, then look at the status until the job is recorded. */
const session = (setup: Setup) => [setup.submit, ...Array.from({ length: 5 }, () => setup.status)];

async function setUp(kind: (typeof storeKinds)[number]): Promise<Setup> {
  const kindStore = await cliStore(kind);
  const server = await labelBatchServer();
  const root = judgeWorkspace(kindStore, `judge "judge-b" { endpoint "${server.baseURL}" }`, batchStudy);
  const env = judgeEnvironment(kindStore);
  const allow = ['--allow-endpoint', server.baseURL];
  return {
    kindStore,
    server,
    root,
    env,
    submit: ['judge', 'wqt.assess', '--batch', ...allow],
    status: ['judge', 'wqt.assess', '--batch-status', ...allow],
  };
}

/**
 * Runs the CLI (submit, then status) until a request arrives at `hold`, then kills it with SIGKILL while the request
 * waits.
 */
async function killWhenHeld(setup: Setup, hold: Hold): Promise<void> {
  for (const args of session(setup)) {
    const cli = startCliProcess(args, setup.root, setup.env);
    const first = await Promise.race([hold.arrived.then(() => 'held' as const), cli.finished]);
    if (first === 'held') {
      cli.child.kill('SIGKILL');
      const killed = await cli.finished;
      assert.equal(killed.signal, 'SIGKILL', killed.stderr);
      return;
    }
    assert.equal(first.status, 0, first.stderr);
  }
  assert.fail('the held request never came');
}

/** Runs the CLI again (submit, then status) until the record holds a call for every vote and no batch is open. */
async function runToTheEnd(setup: Setup): Promise<void> {
  for (const args of session(setup)) {
    const finished = await runCliAsync(args, setup.root, setup.env);
    assert.equal(finished.status, 0, finished.stderr);
    const { calls, batches } = await recorded(setup.kindStore, setup.root);
    if (calls.length >= pairs && batches.every((b) => b.recordedAt !== null)) return;
  }
  assert.fail('the batch job was not recorded after a submit and five status runs');
}

/** One batch at the server, holding every request once; every vote recorded once; a further run sends nothing. */
async function assertOneBatchEachLineOnce(setup: Setup, message: string): Promise<void> {
  const { server } = setup;
  const created = server.batches();
  assert.equal(created.length, 1, `${message}: batches created at the API`);
  const customIds = server.customIds(created[0]!.id);
  assert.equal(customIds.length, pairs);
  assert.equal(new Set(customIds).size, pairs);
  const { calls, batches } = await recorded(setup.kindStore, setup.root);
  assertEachVoteOnce(calls, pairs, message);
  assert.ok(
    calls.every((c) => c.parsedLabel !== null && c.errorKind === null),
    `${message}: every call is a label`,
  );
  assert.equal(batches.length, 1, `${message}: batches in the record`);
  assert.equal(batches[0]!.batchId, created[0]!.id);
  assert.equal(batches[0]!.recorded, pairs);
  // The batch id is on record: the local input file is gone (a re-run finds the batch by its id or its key).
  assert.deepEqual(inputFilesKept(setup.root), [], `${message}: input files left`);

  const before = (route: Route) => server.routeCounts().get(route) ?? 0;
  const counts = { files: before('files.create'), batches: before('batches.create') };
  for (const args of [setup.submit, setup.status]) {
    const again = await runCliAsync(args, setup.root, setup.env);
    assert.equal(again.status, 0, again.stderr);
  }
  assert.equal(before('files.create'), counts.files, `${message}: a finished job uploads nothing`);
  assert.equal(before('batches.create'), counts.batches, `${message}: a finished job creates no batch`);
  assert.equal(server.requests(), 0, `${message}: and asks nothing online`);
  assertEachVoteOnce((await recorded(setup.kindStore, setup.root)).calls, pairs, `${message}, run again`);
}

for (const kind of storeKinds) {
  test(`killed during the upload (never stored): the re-run uploads the kept input once and creates the one batch (${kind})`, async (t) => {
    const setup = await setUp(kind);
    t.after(() => setup.server.close());
    const hold = setup.server.hold('files.create');
    await killWhenHeld(setup, hold);
    hold.drop();
    assert.deepEqual(setup.server.files(), [], 'nothing was stored');
    const [batch] = (await recorded(setup.kindStore, setup.root)).batches;
    assert.deepEqual(inputFilesKept(setup.root), [`qrels-studio-batch-${batch!.batchKey}.jsonl`], 'kept to upload');
    await runToTheEnd(setup);
    assert.equal(setup.server.files().filter((f) => f.purpose === 'batch').length, 1, 'one input file stored');
    await assertOneBatchEachLineOnce(setup, 'killed during the upload');
  });

  test(`killed between the upload and the batch's creation (never sent): the re-run creates the one batch (${kind})`, async (t) => {
    const setup = await setUp(kind);
    t.after(() => setup.server.close());
    const hold = setup.server.hold('batches.create');
    await killWhenHeld(setup, hold);
    hold.drop();
    assert.equal(setup.server.routeCounts().get('files.create'), 1, 'the input was uploaded');
    assert.equal(setup.server.batches().length, 0, 'no batch exists at the API');
    await runToTheEnd(setup);
    await assertOneBatchEachLineOnce(setup, 'killed before creation');
  });

  test(`killed after asking for the batch, before hearing its id: the re-run finds it by its key, no second batch (${kind})`, async (t) => {
    const setup = await setUp(kind);
    t.after(() => setup.server.close());
    const hold = setup.server.hold('batches.create');
    await killWhenHeld(setup, hold);
    // The API creates the batch after all: its answer has nobody to go to.
    hold.release();
    while (setup.server.batches().length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const { batches } = await recorded(setup.kindStore, setup.root);
    assert.equal(batches.length, 1);
    assert.equal(batches[0]!.batchId, null, "the record does not know the batch's id");
    assert.equal(inputFilesKept(setup.root).length, 1, 'kept while the batch may not exist');
    await runToTheEnd(setup);
    await assertOneBatchEachLineOnce(setup, 'killed before hearing the id');
  });

  test(`killed while polling the batch: the re-run follows the recorded batch (${kind})`, async (t) => {
    const setup = await setUp(kind);
    t.after(() => setup.server.close());
    const hold = setup.server.hold('batches.retrieve');
    await killWhenHeld(setup, hold);
    hold.drop();
    const { batches } = await recorded(setup.kindStore, setup.root);
    assert.equal(batches[0]!.batchId, setup.server.batches()[0]!.id, 'the batch id was recorded before polling');
    await runToTheEnd(setup);
    await assertOneBatchEachLineOnce(setup, 'killed while polling');
  });

  test(`killed in the middle of the output's download: the re-run records the rest, each line once (${kind})`, async (t) => {
    const setup = await setUp(kind);
    t.after(() => setup.server.close());
    const hold = setup.server.hold('files.content', { afterLines: 5 });
    await killWhenHeld(setup, hold);
    hold.drop();
    const { calls } = await recorded(setup.kindStore, setup.root);
    assert.ok(calls.length < pairs, `${calls.length} of ${pairs} recorded before the kill`);
    await runToTheEnd(setup);
    await assertOneBatchEachLineOnce(setup, 'killed during the download');
    assert.ok((setup.server.routeCounts().get('files.content') ?? 0) >= 2, 'the output was downloaded again');
  });
}
