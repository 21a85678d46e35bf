// The Batch API's JSONL both ways, and the splitter that writes it within the API's limits: an input line carries the
// online call's body; output and error lines are read into answers, HTTP errors, batch errors (expired) or lines
// that are not the API's (said so, their text kept); files split by request count and by bytes, each file's sha256
// that of its bytes, a line too large for any file refused.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import {
  batchInputLine,
  chatCompletionBody,
  customIdOf,
  readBatchLine,
} from '../../../../core/judge/batch/batchLines.ts';
import { BatchSplitter, type WrittenBatchFile } from '../../../../core/judge/batch/batchSplitter.ts';
import type { ChatRequest } from '../../../../core/judge/chatClient.ts';
import { scratchDir } from '../../../helpers.ts';

const request: ChatRequest = {
  model: 'm',
  messages: [{ role: 'user', content: 'Is "x"\nrelevant?' }],
  temperature: 0,
  maxTokens: 30,
  seed: 4,
  responseFormat: { type: 'json_object' },
};

test('an input line is one chat completion request with the online body, in the online order', () => {
  const line = batchInputLine(customIdOf(12, 2), request);
  assert.ok(line.endsWith('\n'));
  assert.equal(line.indexOf('\n'), line.length - 1, 'one line, newlines in the prompt escaped');
  const parsed = JSON.parse(line);
  assert.deepEqual(Object.keys(parsed), ['custom_id', 'method', 'url', 'body']);
  assert.equal(parsed.custom_id, 'p12v2');
  assert.equal(parsed.method, 'POST');
  assert.equal(parsed.url, '/v1/chat/completions');
  assert.deepEqual(Object.keys(parsed.body), [
    'model',
    'messages',
    'temperature',
    'max_tokens',
    'seed',
    'response_format',
    'stream',
  ]);
  assert.deepEqual(parsed.body, { ...chatCompletionBody(request), stream: false });
  // Absent parameters are left out, not sent as null.
  assert.deepEqual(Object.keys(chatCompletionBody({ model: 'm', messages: [] })), ['model', 'messages']);
});

test('output and error lines: answers with tokens, HTTP errors, expired requests, and lines that are not the API’s', () => {
  const ok = readBatchLine(
    JSON.stringify({
      id: 'r1',
      custom_id: 'p1v0',
      response: {
        status_code: 200,
        body: {
          choices: [{ message: { content: '{"label": 2}' } }],
          usage: { prompt_tokens: 10, completion_tokens: 3 },
        },
      },
      error: null,
    }),
  );
  assert.deepEqual(ok, { kind: 'answer', customId: 'p1v0', text: '{"label": 2}', inputTokens: 10, outputTokens: 3 });
  const refused = readBatchLine(
    JSON.stringify({
      custom_id: 'p1v1',
      response: { status_code: 429, body: { error: { message: 'slow down' } } },
      error: null,
    }),
  );
  assert.equal(refused.kind, 'http-error');
  assert.equal(refused.kind === 'http-error' && refused.status, 429);
  assert.equal(refused.kind === 'http-error' && refused.message, 'slow down');
  const expired = readBatchLine(
    JSON.stringify({ custom_id: 'p2v0', response: null, error: { code: 'batch_expired', message: 'not run' } }),
  );
  assert.deepEqual(expired, { kind: 'batch-error', customId: 'p2v0', code: 'batch_expired', message: 'not run' });
  const broken = readBatchLine('{"custom_id": "p3v0", "response": {"status_code": 200, "bo');
  assert.equal(broken.kind, 'unreadable');
  assert.equal(broken.customId, 'p3v0');
  assert.equal(
    broken.kind === 'unreadable' && broken.raw,
    '{"custom_id": "p3v0", "response": {"status_code": 200, "bo',
  );
  assert.equal(readBatchLine('not json').kind, 'unreadable');
  assert.equal(readBatchLine('not json').customId, undefined);
  assert.equal(readBatchLine('{"id": 1}').kind, 'unreadable');
  const notCompletion = readBatchLine(JSON.stringify({ custom_id: 'p4v0', response: { status_code: 200, body: {} } }));
  assert.equal(notCompletion.kind, 'unreadable');
  assert.equal(notCompletion.customId, 'p4v0');
});

async function split(lines: string[], limits: { maxRequests: number; maxBytes: number }) {
  const folder = scratchDir();
  const files: WrittenBatchFile<number>[] = [];
  let n = 0;
  const splitter = new BatchSplitter<number>({
    limits,
    folder,
    nameFile: () => `f${++n}.jsonl`,
    onFile: async (file) => {
      files.push(file);
    },
  });
  for (const [i, line] of lines.entries()) await splitter.add(line, i);
  await splitter.finish();
  return { folder, files };
}

test('the splitter cuts files at the request limit and at the byte limit; each file holds its lines, its sha256 its bytes', async () => {
  const lines = Array.from({ length: 7 }, (_, i) => batchInputLine(customIdOf(i, 0), request));
  const byCount = await split(lines, { maxRequests: 3, maxBytes: 1_000_000 });
  assert.deepEqual(
    byCount.files.map((f) => f.items),
    [[0, 1, 2], [3, 4, 5], [6]],
  );
  for (const file of byCount.files) {
    const bytes = readFileSync(file.path);
    assert.equal(file.bytes, bytes.length);
    assert.equal(file.sha256, createHash('sha256').update(bytes).digest('hex'));
    assert.equal(bytes.toString(), file.items.map((i) => lines[i]).join(''));
  }
  const lineBytes = Buffer.byteLength(lines[0]!);
  const byBytes = await split(lines, { maxRequests: 50_000, maxBytes: 2 * lineBytes + 5 });
  assert.deepEqual(
    byBytes.files.map((f) => f.items.length),
    [2, 2, 2, 1],
  );
  assert.ok(byBytes.files.every((f) => f.bytes <= 2 * lineBytes + 5));
  assert.deepEqual(readdirSync(byBytes.folder).sort(), ['f1.jsonl', 'f2.jsonl', 'f3.jsonl', 'f4.jsonl']);
  // Exactly at the limit still fits.
  const exact = await split(lines.slice(0, 4), { maxRequests: 50_000, maxBytes: 2 * lineBytes });
  assert.deepEqual(
    exact.files.map((f) => f.items.length),
    [2, 2],
  );
  await assert.rejects(split(lines, { maxRequests: 10, maxBytes: lineBytes - 1 }), /more than a batch file may hold/);
  assert.deepEqual((await split([], { maxRequests: 1, maxBytes: 10 })).files, []);
  assert.throws(
    () =>
      new BatchSplitter({
        limits: { maxRequests: 0, maxBytes: 1 },
        folder: '',
        nameFile: () => '',
        onFile: async () => {},
      }),
    /at least 1 request/,
  );
});
