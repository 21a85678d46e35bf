// An OpenAI-compatible chat endpoint in a process of its own, for the judge benchmark (benchJudge.ts): the server's
// work runs on the other core instead of sharing the judge's thread, as a real endpoint would. With two cores the
// server's own CPU matters, so it is lean: it reads each request's JSON, answers `POST /v1/chat/completions` with a
// completion after `latency` ms (the label from the request's seed, so votes differ), keeps nothing of what it was
// sent — the test server (test/core/judge/openAiServer.ts) records every body, which over 300,000 calls is hundreds
// of megabytes and the GC time they cost — and counts requests and the CPU time it used.
// Prints one JSON line {"baseURL", "stats"} on stdout; GET <stats> answers {"requests", "connections", "cpuMs"}; SIGTERM stops it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { completion, sendJson } from '../test/core/judge/openAiServer.ts';

const latencyMs = Number(process.argv[2] ?? 100);
/** A fixed port when given (a run that must find another run's cache: the endpoint is part of the cache key). */
const listenPort = Number(process.argv[3] ?? 0);
let requests = 0;
/** TCP connections opened: about the concurrency when the judge's client keeps them alive. */
let connections = 0;

function answer(request: IncomingMessage, response: ServerResponse): void {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    requests++;
    let body: { model?: string; seed?: number; messages?: { content?: string }[] } = {};
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
    } catch {
      // Answered anyway: the judge's reading of the answer is what is measured, not the server's.
    }
    const label = Math.abs(Number(body.seed ?? requests)) % 3;
    const content = JSON.stringify({ rationale: 'The passage answers part of the query.', label });
    const promptWords = Math.ceil((body.messages?.[0]?.content?.length ?? 0) / 5);
    setTimeout(() => {
      if (response.destroyed) return;
      sendJson(
        response,
        200,
        completion(body.model ?? '', content, { prompt_tokens: promptWords, completion_tokens: 12 }),
      );
    }, latencyMs);
  });
}

const server = createServer((request, response) => {
  if (request.method === 'POST' && request.url === '/v1/chat/completions') answer(request, response);
  else if (request.method === 'GET' && request.url === '/stats') {
    const { user, system } = process.cpuUsage();
    sendJson(response, 200, { requests, connections, cpuMs: (user + system) / 1000 });
  } else sendJson(response, 404, { error: { message: `no route ${request.method} ${request.url}` } });
});
server.on('connection', () => connections++);
// The judge keeps its connections open between calls.
server.keepAliveTimeout = 60_000;
await new Promise<void>((resolve) => server.listen(listenPort, '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;
const origin = `http://127.0.0.1:${port}`;
process.stdout.write(`${JSON.stringify({ baseURL: `${origin}/v1`, stats: `${origin}/stats` })}\n`);
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
