// Shared by the batch CLI tests (batchKills.test.ts, batchOutputs.test.ts): a small study of either store kind,
// imported by the real CLI; the CLI started as a real process (bin/qrels-studio.cjs, which runs dist/cli.cjs in the
// same process, so a SIGKILL reaches the judge itself); and what the record says of the judge's calls and batches.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CliStore } from '../../../cli/cliStore.ts';
import { cliLauncher, scratchDir } from '../../../helpers.ts';
import type { ChatBody } from '../openAiServer.ts';

/** A study of `queries` × `perQuery` pairs (document n's text is "document number n") with `judge`, imported. */
export function batchWorkspace(store: CliStore, judge: string, queries = 3, perQuery = 4): string {
  const root = scratchDir();
  mkdirSync(join(root, 'data'));
  mkdirSync(join(root, 'runs'));
  store.writeStudy(
    join(root, 'wqt.assess'),
    `study "wqt" {
  queries "data/queries.jsonl" { id: qid  text: query }
  corpus  "data/corpus.jsonl"  { id: _id  body: text  title: title }
  pool    "runs/bm25.trec" depth ${perQuery}
  scale ordinal { 0 "No" key "0"  1 "Partly" key "1"  2 "Yes" key "2" }
  ${judge}
}
`,
  );
  const lines = (n: number, line: (i: number) => string) =>
    `${Array.from({ length: n }, (_, i) => line(i + 1)).join('\n')}\n`;
  writeFileSync(
    join(root, 'data', 'queries.jsonl'),
    lines(queries, (q) => JSON.stringify({ qid: `q${q}`, query: `query ${q}` })),
  );
  writeFileSync(
    join(root, 'data', 'corpus.jsonl'),
    lines(queries * perQuery, (d) => JSON.stringify({ _id: `d${d}`, title: `T${d}`, text: `document number ${d}` })),
  );
  writeFileSync(
    join(root, 'runs', 'bm25.trec'),
    lines(queries * perQuery, (i) => {
      const q = Math.ceil(i / perQuery);
      const rank = i - (q - 1) * perQuery;
      return `q${q} Q0 d${i} ${rank} ${100 - rank} bm25`;
    }),
  );
  const imported = store.cli(['import', 'wqt.assess'], { cwd: root });
  assert.equal(imported.status, 0, imported.stderr);
  return root;
}

/** The CLI's environment: the store's, a scratch approval folder, no key or endpoint from the outside. */
export function batchEnvironment(store: CliStore, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...store.env, QRELS_STUDIO_CONFIG_DIR: scratchDir(), ...extra };
  for (const name of ['OPENAI_API_KEY', 'OPENAI_BASE_URL']) if (!(name in extra)) delete env[name];
  return env;
}

export interface Finished {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Starts the CLI without blocking this process (the test server in it must keep answering). */
export function startCli(args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [cliLauncher, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    stdout += text;
  });
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  const finished = new Promise<Finished>((resolve) => {
    child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr }));
  });
  return { child, finished };
}

export const runCli = (args: string[], cwd: string, env: NodeJS.ProcessEnv) => startCli(args, cwd, env).finished;

/** Document n of a request (its prompt says "document number n"). */
export const documentOf = (body: ChatBody): number =>
  Number(/document number (\d+)/.exec((body.messages ?? []).map((m) => m.content).join('\n'))?.[1]);

export const labelAnswer = (label: number) => JSON.stringify({ rationale: 'because', label });

/** What the record holds of the study's judge calls and batches, read through the storage port. */
export async function recorded(store: CliStore, root: string) {
  const studyStore = await store.open(join(root, 'wqt.assess'));
  try {
    const studyId = await studyStore.studies.studyId('wqt');
    const calls = await studyStore.judge.calls(studyId);
    const batches = await studyStore.judgeBatches.batches(studyId);
    return { calls, batches };
  } finally {
    await studyStore.close();
  }
}

/** Every (pair, vote) has exactly one call in the record. */
export function assertEachVoteOnce(
  calls: readonly { pairId: number | null; voteIndex: number }[],
  expected: number,
  message = '',
): void {
  const votes = calls.map((c) => `${c.pairId}/${c.voteIndex}`);
  const repeated = votes.filter((v, i) => votes.indexOf(v) !== i);
  assert.deepEqual(repeated, [], `${message}: votes recorded more than once`);
  assert.equal(calls.length, expected, `${message}: calls recorded`);
}
