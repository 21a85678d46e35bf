// The local Files + Batch API server (openAiBatchServer.ts) as the real `openai` SDK sees it: a multipart upload,
// file lists by purpose across pages, a batch that moves through its statuses one poll at a time, output and error
// lines in the API's shapes (a 200 completion, a 4xx body, batch_expired), a malformed input that fails the batch
// with positioned errors, cancelling → cancelled, and the holds the kill tests stop the client with.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import OpenAI, { toFile } from 'openai';
import { startOpenAiBatchServer } from '../openAiBatchServer.ts';

const requestLine = (customId: string, content: string, model = 'test-model') =>
  JSON.stringify({
    custom_id: customId,
    method: 'POST',
    url: '/v1/chat/completions',
    body: { model, messages: [{ role: 'user', content }] },
  });

const clientOf = (baseURL: string) => new OpenAI({ baseURL, apiKey: 'sk-test', maxRetries: 0 });

async function upload(client: OpenAI, lines: string[], name = 'input.jsonl') {
  return client.files.create({ file: await toFile(Buffer.from(`${lines.join('\n')}\n`), name), purpose: 'batch' });
}

test('a batch round trip: upload, create, poll through the statuses, download output and error lines', async () => {
  const server = await startOpenAiBatchServer({
    respondLine: ({ customId, body }) => {
      if (customId === 'r-fail') return { status: 429, message: 'Too many tokens' };
      if (customId === 'r-expire') return { expired: true };
      return { content: `answer to ${body.messages?.[0]?.content}`, usage: { prompt_tokens: 7, completion_tokens: 3 } };
    },
  });
  try {
    const client = clientOf(server.baseURL);
    const input = ['r1', 'r2', 'r-fail', 'r-expire'].map((id) => requestLine(id, `question ${id}`));
    const file = await upload(client, input);
    assert.equal(file.purpose, 'batch');
    assert.equal(file.filename, 'input.jsonl');
    assert.equal(file.bytes, Buffer.byteLength(`${input.join('\n')}\n`));
    assert.equal(await (await client.files.content(file.id)).text(), `${input.join('\n')}\n`, 'stored byte for byte');

    const created = await client.batches.create({
      input_file_id: file.id,
      endpoint: '/v1/chat/completions',
      completion_window: '24h',
      metadata: { job: 'j1' },
    });
    assert.equal(created.status, 'validating');
    const seen: string[] = [created.status];
    let batch = created;
    while (!['completed', 'failed', 'expired', 'cancelled'].includes(batch.status)) {
      batch = await client.batches.retrieve(created.id);
      seen.push(batch.status);
    }
    assert.deepEqual(seen, ['validating', 'in_progress', 'finalizing', 'expired']);
    assert.deepEqual(batch.request_counts, { total: 4, completed: 2, failed: 2 });
    assert.deepEqual(batch.metadata, { job: 'j1' });
    assert.deepEqual(server.customIds(batch.id), ['r1', 'r2', 'r-fail', 'r-expire']);

    const output = (await (await client.files.content(batch.output_file_id!)).text()).trim().split('\n');
    assert.equal(output.length, 2);
    const first = JSON.parse(output[0]!);
    assert.equal(first.custom_id, 'r1');
    assert.equal(first.error, null);
    assert.equal(first.response.status_code, 200);
    assert.match(first.response.request_id, /^req_/);
    assert.equal(first.response.body.object, 'chat.completion');
    assert.equal(first.response.body.choices[0].message.content, 'answer to question r1');
    assert.deepEqual(first.response.body.usage, { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 });

    const errors = (await (await client.files.content(batch.error_file_id!)).text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.deepEqual(
      errors.map((e) => [e.custom_id, e.response?.status_code ?? null, e.error?.code ?? null]),
      [
        ['r-fail', 429, null],
        ['r-expire', null, 'batch_expired'],
      ],
    );
    assert.equal(errors[0].response.body.error.message, 'Too many tokens');

    const listed = [];
    for await (const b of client.batches.list()) listed.push(b.id);
    assert.deepEqual(listed, [batch.id]);
    assert.equal(server.routeCounts().get('files.create'), 1);
    assert.equal(server.routeCounts().get('batches.create'), 1);
    assert.equal(server.routeCounts().get('batches.retrieve'), 3);
  } finally {
    await server.close();
  }
});

test('files list: purpose filter and cursor pages the SDK follows; delete removes a file', async () => {
  const server = await startOpenAiBatchServer();
  try {
    const client = clientOf(server.baseURL);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await upload(client, [requestLine(`c${i}`, 'x')], `f${i}.jsonl`)).id);
    const other = await client.files.create({ file: await toFile(Buffer.from('{}'), 'a.json'), purpose: 'user_data' });
    const batchFiles = [];
    for await (const f of client.files.list({ purpose: 'batch', limit: 2 })) batchFiles.push(f.id);
    assert.deepEqual(batchFiles, [...ids].reverse(), 'newest first, over three pages');
    assert.equal(server.routeCounts().get('files.list'), 3);
    assert.equal((await client.files.retrieve(other.id)).purpose, 'user_data');
    assert.deepEqual(await client.files.delete(ids[0]!), { id: ids[0], object: 'file', deleted: true });
    await assert.rejects(
      client.files.retrieve(ids[0]!),
      (error: unknown) => (error as { status: number }).status === 404,
    );
  } finally {
    await server.close();
  }
});

test('malformed input fails the batch with the lines and codes the API reports; no output file', async () => {
  const server = await startOpenAiBatchServer({ progress: 'manual' });
  try {
    const client = clientOf(server.baseURL);
    const file = await upload(client, [
      requestLine('a', 'x'),
      '{"custom_id": "b", "method": "POST", ',
      JSON.stringify({ custom_id: 'c', method: 'POST', url: '/v1/chat/completions' }),
      requestLine('a', 'duplicate'),
      requestLine('d', 'x', 'other-model'),
    ]);
    const batch = await client.batches.create({
      input_file_id: file.id,
      endpoint: '/v1/chat/completions',
      completion_window: '24h',
    });
    assert.equal(await server.advance(batch.id), 'failed');
    const failed = await client.batches.retrieve(batch.id);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.output_file_id, null);
    assert.deepEqual(
      failed.errors?.data?.map((e) => [e.line, e.code]),
      [
        [2, 'invalid_json_line'],
        [3, 'missing_required_parameter'],
        [4, 'duplicate_custom_id'],
        [5, 'mismatched_model'],
      ],
    );
    await assert.rejects(
      client.batches.create({ input_file_id: 'file-nope', endpoint: '/v1/chat/completions', completion_window: '24h' }),
      (error: unknown) => (error as { status: number }).status === 404,
    );
  } finally {
    await server.close();
  }
});

test('cancel: cancelling, then cancelled; a finished batch cannot be cancelled', async () => {
  const server = await startOpenAiBatchServer({ progress: 'manual' });
  try {
    const client = clientOf(server.baseURL);
    const file = await upload(client, [requestLine('a', 'x')]);
    const batch = await client.batches.create({
      input_file_id: file.id,
      endpoint: '/v1/chat/completions',
      completion_window: '24h',
    });
    await server.advance(batch.id);
    assert.equal((await client.batches.cancel(batch.id)).status, 'cancelling');
    assert.equal(await server.finish(batch.id), 'cancelled');
    const cancelled = await client.batches.retrieve(batch.id);
    assert.equal(cancelled.status, 'cancelled');
    assert.ok(cancelled.cancelled_at);
    await assert.rejects(
      client.batches.cancel(batch.id),
      (error: unknown) => (error as { status: number }).status === 409,
    );
  } finally {
    await server.close();
  }
});

test('holds: a held creation waits for the test, a dropped one never happens; a download pauses after N lines', async () => {
  const server = await startOpenAiBatchServer();
  try {
    const client = clientOf(server.baseURL);
    const lines = Array.from({ length: 50 }, (_, i) => requestLine(`r${i}`, `q${i}`));
    const file = await upload(client, lines);
    const params = { input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' } as const;

    const dropHold = server.hold('batches.create');
    const dropped = client.batches.create(params);
    await dropHold.arrived;
    assert.equal(server.batches().length, 0);
    dropHold.drop();
    await assert.rejects(dropped);
    assert.equal(server.batches().length, 0, 'a dropped creation creates nothing');

    const hold = server.hold('batches.create');
    const creating = client.batches.create(params);
    await hold.arrived;
    hold.release();
    const batch = await creating;
    assert.equal(server.batches().length, 1);
    assert.equal(await server.finish(batch.id), 'completed');

    const outputId = server.batches()[0]!.output_file_id!;
    const download = server.hold('files.content', { afterLines: 20 });
    const response = await client.files.content(outputId);
    await download.arrived;
    const reader = response.body!.getReader();
    let received = '';
    while (received.split('\n').length - 1 < 20) received += new TextDecoder().decode((await reader.read()).value);
    assert.equal(received.split('\n').length - 1, 20, 'exactly 20 lines before the pause');
    download.release();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      received += new TextDecoder().decode(chunk.value);
    }
    assert.equal(received.trim().split('\n').length, 50);
  } finally {
    await server.close();
  }
});

test('a clock: with stepMs a batch moves only once that long has passed since its last step', async () => {
  const slow = await startOpenAiBatchServer({ progress: { stepMs: 3_600_000 } });
  const fast = await startOpenAiBatchServer({ progress: { stepMs: 0 } });
  try {
    for (const [server, expected] of [
      [slow, ['validating', 'validating', 'validating']],
      [fast, ['in_progress', 'finalizing', 'completed']],
    ] as const) {
      const client = clientOf(server.baseURL);
      const file = await upload(client, [requestLine('a', 'x')]);
      const batch = await client.batches.create({
        input_file_id: file.id,
        endpoint: '/v1/chat/completions',
        completion_window: '24h',
      });
      const seen: string[] = [];
      for (let poll = 0; poll < 3; poll++) seen.push((await client.batches.retrieve(batch.id)).status);
      assert.deepEqual(seen, expected);
    }
  } finally {
    await slow.close();
    await fast.close();
  }
});

test('a multipart upload of several MB arrives byte for byte, whatever its chunks and lookalike boundaries hold', async () => {
  const server = await startOpenAiBatchServer();
  try {
    const client = clientOf(server.baseURL);
    // Random bytes with many CRLF-- runs (what a boundary starts with), cut across the body's chunks.
    let seed = 7;
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 17);
    for (let i = 0; i < bytes.length; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      bytes[i] = seed >>> 24;
    }
    for (let at = 1000; at + 8 < bytes.length; at += 65_521) bytes.write('\r\n------', at, 'latin1');
    const file = await client.files.create({ file: await toFile(bytes, 'noise.bin'), purpose: 'user_data' });
    assert.equal(file.bytes, bytes.length);
    const back = Buffer.from(await (await client.files.content(file.id)).arrayBuffer());
    assert.ok(back.equals(bytes), 'the stored file equals the upload');
  } finally {
    await server.close();
  }
});
