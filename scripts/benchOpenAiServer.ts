// The OpenAI-compatible test server (test/core/judge/openAiServer.ts) in a process of its own, for the judge
// benchmark: the server's work then runs on the other core instead of sharing the judge's thread, as a real endpoint
// would. Prints one JSON line {"baseURL", "stats"} on stdout; GET <stats> answers {"requests": N}; SIGTERM stops it.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startOpenAiServer } from '../test/core/judge/openAiServer.ts';

const latencyMs = Number(process.argv[2] ?? 100);
const server = await startOpenAiServer({
  respond: ({ index }) => ({
    content: JSON.stringify({ rationale: 'The passage answers part of the query.', label: index % 3 }),
    latencyMs,
  }),
});
const stats = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ requests: server.requests() }));
});
await new Promise<void>((resolve) => stats.listen(0, '127.0.0.1', resolve));
const { port } = stats.address() as AddressInfo;
process.stdout.write(`${JSON.stringify({ baseURL: server.baseURL, stats: `http://127.0.0.1:${port}/` })}\n`);
process.on('SIGTERM', () => {
  stats.close();
  void server.close().then(() => process.exit(0));
});
