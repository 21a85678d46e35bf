// Faults with real processes on real SQLite files: a writer killed with SIGKILL at random points during a burst of
// judgments or a large import leaves a database whose integrity check is `ok`, with every judgment it reported
// committed, and an import either whole or absent; two processes writing at once lose nothing.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { locateNativeBinding, openDatabase } from '../../../../core/store/sqliteDatabase.ts';
import { nativeDir, scratchDir, seededRandom } from '../../../helpers.ts';

const nativeBinding = locateNativeBinding(nativeDir);
const worker = join(import.meta.dirname, 'storeWorker.ts');

interface Worker {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | string | null>;
  ready: Promise<void>;
}

function startWorker(...args: string[]): Worker {
  const child = spawn(process.execPath, [worker, ...args], {
    env: { ...process.env, QRELS_STUDIO_NATIVE_BINDING: nativeBinding },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stderr = '';
  let onReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    onReady = resolve;
  });
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    if (output.includes('ready\n')) onReady();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => {
      if (code !== 0 && signal === null) console.error(stderr);
      onReady();
      resolve(signal ?? code);
    }),
  );
  return { child, output: () => output, exited, ready };
}

function check(file: string): { integrity: unknown; judgments: Set<number>; documents: number } {
  const db = openDatabase(file, { nativeBinding });
  try {
    return {
      integrity: db.pragma('integrity_check', { simple: true }),
      judgments: new Set(db.prepare('SELECT id FROM judgment').pluck().all() as number[]),
      documents: db.prepare('SELECT count(*) FROM document').pluck().get() as number,
    };
  } finally {
    db.close();
  }
}

test('SIGKILL during a burst of judgments, 12 times: integrity ok, every reported commit is there', async () => {
  const next = seededRandom(20261122);
  const file = join(scratchDir(), 'crash.sqlite');
  let committedTotal = 0;
  for (let round = 0; round < 12; round++) {
    const w = startWorker(file, 'judgments', `a${round}`, '100000');
    await w.ready;
    await new Promise((resolve) => setTimeout(resolve, 20 + next() * 200));
    w.child.kill('SIGKILL');
    assert.equal(await w.exited, 'SIGKILL');
    const reported = [...w.output().matchAll(/^committed \S+ \d+ (\d+)$/gm)].map((m) => Number(m[1]));
    const state = check(file);
    assert.equal(state.integrity, 'ok');
    for (const id of reported) assert.ok(state.judgments.has(id), `judgment ${id} was reported committed`);
    committedTotal += reported.length;
  }
  assert.ok(committedTotal > 0, 'the workers committed something before they were killed');
});

test('SIGKILL during a large import, 8 times: integrity ok, and the import is all there or not at all', async (t) => {
  const next = seededRandom(7);
  const dir = scratchDir();
  const corpus = join(dir, 'c.jsonl');
  const documents = 60_000;
  let text = '';
  for (let i = 0; i < documents; i++) text += `${JSON.stringify({ _id: `d${i}`, text: `document ${i} `.repeat(8) })}\n`;
  writeFileSync(corpus, text);
  let whole = 0;
  for (let round = 0; round < 8; round++) {
    const file = join(dir, `import-${round}.sqlite`);
    const w = startWorker(file, 'import', corpus);
    await w.ready;
    await new Promise((resolve) => setTimeout(resolve, next() * 700));
    w.child.kill('SIGKILL');
    await w.exited;
    const state = check(file);
    assert.equal(state.integrity, 'ok');
    assert.ok(state.documents === 0 || state.documents === documents, `${state.documents} documents: half an import`);
    if (w.output().includes('imported ')) assert.equal(state.documents, documents, 'a reported import is there');
    if (state.documents === documents) whole++;
  }
  t.diagnostic(`${whole} of 8 imports finished before the kill`);
});

test('two processes writing judgments to one study at once lose nothing', async () => {
  const file = join(scratchDir(), 'two.sqlite');
  // Create the database first, so the two do not race to migrate it (that race is covered by IMMEDIATE migrations).
  const first = startWorker(file, 'judgments', 'setup', '1');
  await first.exited;
  const a = startWorker(file, 'judgments', 'alice', '400');
  const b = startWorker(file, 'judgments', 'bob', '400');
  assert.deepEqual(await Promise.all([a.exited, b.exited]), [0, 0]);
  const state = check(file);
  assert.equal(state.integrity, 'ok');
  assert.equal(state.judgments.size, 801);
  for (const w of [a, b]) {
    const reported = [...w.output().matchAll(/^committed \S+ \d+ (\d+)$/gm)].map((m) => Number(m[1]));
    assert.equal(reported.length, 400);
    for (const id of reported) assert.ok(state.judgments.has(id));
  }
});

test('an import in one process while another labels: both finish, nothing is lost', async () => {
  const dir = scratchDir();
  const file = join(dir, 'both.sqlite');
  const corpus = join(dir, 'c.jsonl');
  let text = '';
  for (let i = 0; i < 30_000; i++) text += `${JSON.stringify({ _id: `d${i}`, text: `document ${i}` })}\n`;
  writeFileSync(corpus, text);
  await startWorker(file, 'judgments', 'setup', '1').exited;
  const importing = startWorker(file, 'import', corpus);
  const labelling = startWorker(file, 'judgments', 'carol', '300');
  assert.deepEqual(await Promise.all([importing.exited, labelling.exited]), [0, 0]);
  const state = check(file);
  assert.equal(state.integrity, 'ok');
  assert.equal(state.documents, 30_000);
  assert.equal(state.judgments.size, 301);
});
