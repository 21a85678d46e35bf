// When the server goes away (issue 21 item 6), at the store and session level, on a cluster of this file's own
// (never the run's shared one: the server is stopped as a crash would stop it, and started again):
// - a port method that cannot reach the server rejects with a StoreError saying so and that nothing was saved, and
//   the same store works again once the server is back — no reopening, no restart of the process;
// - an import whose server stops while it holds its connection rejects with that StoreError (the process survives
//   the connection's error event), and the record is as it was;
// - a burst of label commits through one LabelSession, the server stopped mid-burst and started again (or a server
//   process serving it SIGKILLed: a crash PostgreSQL recovers from by itself): the client
//   sends each unconfirmed commit again with the same commitId until it is confirmed; afterwards every label it was
//   told was stored is there once, no label is there twice, and the session carried on without being reopened.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, type TestContext, test } from 'node:test';
import type { ImportedRecord } from '../../../../core/importers/types.ts';
import { RecordUnreachableError } from '../../../../core/store/postgres/postgresContext.ts';
import { StoreError } from '../../../../core/store/studyDatabase.ts';
import { type Cluster, clusterVariable, startCluster } from '../../../pg/pgCluster.ts';
import { plainStudy } from '../../labelling/labellingStudy.ts';
import { kindStudy } from './labelsFixture.ts';

let cluster: Cluster;

before(async () => {
  cluster = await startCluster();
  process.on('exit', () => cluster.stop());
  // This process's test databases (testDatabase(), through kindStudy) are made in this file's own cluster.
  process.env[clusterVariable] = JSON.stringify({ host: cluster.host, port: cluster.port, user: cluster.user });
});

after(() => {
  cluster.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const unreachable = /could not be reached .*: nothing was saved|was lost while the change was being committed/;

test('while the server is down a port method says the record cannot be reached; once it is back the store works again', async () => {
  const s = await kindStudy('postgres', plainStudy(1, 2));
  try {
    assert.equal(await s.store.studies.studyId('s'), s.studyId);
    cluster.stopServer('immediate');
    try {
      const calls = [
        () => s.store.studies.studyId('s'),
        () => s.store.labels.labelProgress({ studyId: s.studyId, annotatorId: 1, assignedOnly: false }),
      ];
      for (const call of calls) {
        await assert.rejects(call(), (error: unknown) => {
          assert.ok(error instanceof StoreError, `a StoreError, not ${String(error)}`);
          assert.ok(error instanceof RecordUnreachableError);
          assert.match(error.message, /^postgres:test_\S+ could not be reached \(.+\): nothing was saved/);
          return true;
        });
      }
    } finally {
      cluster.startServer();
    }
    // The pool's connections died with the server: new ones are made, by the same store.
    assert.equal(await s.store.studies.studyId('s'), s.studyId);
    const session = await s.session('alice');
    const pair = (await session.pairAt(0, 1, false))!;
    await session.commit({ position: 0, pairId: pair.pairId, label: 1, queueVersion: 1 });
    assert.equal((await s.rows('SELECT id FROM judgment')).length, 1);
  } finally {
    await s.store.close();
  }
});

test('an import whose server stops mid-way rejects with a StoreError; the record is as it was', async () => {
  const s = await kindStudy('postgres', plainStudy(1, 2));
  try {
    const before = await s.rows('SELECT docid FROM document ORDER BY docid');
    async function* records(): AsyncIterable<ImportedRecord> {
      for (let i = 0; i < 20; i++) {
        // Halfway, the server stops while the import holds its connection (its staging made).
        if (i === 10) cluster.stopServer('immediate');
        yield {
          kind: 'document',
          docid: `new${i}`,
          body: 'text',
          format: 'plain',
          metadata: {},
          at: { file: 'f', line: i + 1 },
        };
        await sleep(5);
      }
    }
    try {
      await assert.rejects(
        s.store.imports.importRecords('s', records(), { file: 'f', target: 'x', format: 'x' }),
        (error: unknown) => error instanceof RecordUnreachableError && unreachable.test(error.message),
      );
    } finally {
      cluster.startServer();
    }
    assert.deepEqual(await s.rows('SELECT docid FROM document ORDER BY docid'), before);
    // The same store imports once the server is back.
    async function* one(): AsyncIterable<ImportedRecord> {
      yield {
        kind: 'document',
        docid: 'later',
        body: 'text',
        format: 'plain',
        metadata: {},
        at: { file: 'g', line: 1 },
      };
    }
    await s.store.imports.importRecords('s', one(), { file: 'g', target: 'x', format: 'x' });
    assert.equal((await s.rows("SELECT docid FROM document WHERE docid = 'later'")).length, 1);
  } finally {
    await s.store.close();
  }
});

/**
 * A burst of labels through one LabelSession; `interrupt` runs when the 31st commit is sent (without waiting for it):
 * the client sends each commit it got no confirmation for again with the same commitId until it is confirmed.
 * Afterwards every confirmed label is there once, nothing else, and the session (never reopened) counted each once.
 */
async function burst(
  t: TestContext,
  interrupt: (s: Awaited<ReturnType<typeof kindStudy>>) => Promise<void>,
  seen = true,
) {
  const queries = 3;
  const perQuery = 40;
  const s = await kindStudy('postgres', plainStudy(queries, perQuery));
  try {
    const session = await s.session('alice');
    const version = session.state().queue.version;
    const pairIds: number[] = [];
    for (let position = 0; position < queries * perQuery; position++) {
      pairIds.push((await session.pairAt(position, version, false))!.pairId);
    }
    const confirmed = new Map<string, number>();
    let refused = 0;
    const messages = new Set<string>();
    let savedUnread = 0;
    let outage: Promise<void> | undefined;
    for (const [position, pairId] of pairIds.entries()) {
      if (position === 30) outage = interrupt(s);
      const commitId = randomUUID();
      let saved = false;
      for (let attempt = 1; ; attempt++) {
        try {
          await session.commit({ position, pairId, label: position % 3, queueVersion: version, commitId });
          confirmed.set(commitId, pairId);
          break;
        } catch (error) {
          // What the Label view would show: cannot save. Nothing is moved on; the same commit is sent again.
          assert.ok(error instanceof StoreError, `a StoreError, not ${String(error)}`);
          if (error.message.startsWith('the label was saved')) {
            // Stored, but the pair could not be read back: the session is on the next pair.
            savedUnread++;
            saved = true;
            assert.equal(session.state().position, position + 1);
          } else {
            assert.match(error.message, unreachable);
            // Nothing saved (or not known): the session is where it was — on the next pair if an earlier attempt
            // of this commit was saved.
            assert.equal(
              session.state().position,
              saved ? position + 1 : position,
              'a refused commit does not move on',
            );
          }
          refused++;
          messages.add(error.message.replace(/\(.*\)/, '(…)'));
          assert.ok(attempt < 200, 'the session recovered');
          await sleep(50);
        }
      }
    }
    await outage;
    t.diagnostic(
      `${refused} commits refused while the server was away (${savedUnread} saved but not read back): ${[...messages].join(' | ')}`,
    );
    // (A crash recovered from between two commits may go unseen: only idle connections were lost.)
    if (seen) assert.ok(refused > 0, 'the outage was seen by the client');
    assert.equal(confirmed.size, pairIds.length);
    const stored = (await s.rows('SELECT client_id, pair_id, label FROM judgment ORDER BY id')) as {
      client_id: string;
      pair_id: number;
      label: number;
    }[];
    // Every confirmed label is there, each once, and there is nothing else.
    assert.equal(stored.length, pairIds.length, 'no label stored twice');
    assert.deepEqual(new Map(stored.map((row) => [row.client_id, row.pair_id])), confirmed);
    assert.deepEqual(
      stored.map((row) => row.label),
      pairIds.map((_, position) => position % 3),
    );
    // The same session, never reopened, counts each label once and is at the end of its queue.
    assert.deepEqual(session.state().progress, { assigned: pairIds.length, judged: pairIds.length });
    assert.equal(session.state().position, pairIds.length);
  } finally {
    await s.store.close();
  }
}

test('a burst of labels, the server stopped and started mid-burst: every confirmed label there once, the session carried on', (t) =>
  burst(t, async () => {
    // The server stops while commits are on their way (a few milliseconds into the next one), stays down a while,
    // and starts again; the client keeps labelling meanwhile.
    await sleep(3);
    cluster.stopServer('immediate');
    await sleep(1500);
    cluster.startServer();
  }));

test('a burst of labels, the server process serving them SIGKILLed: the server recovers by itself, every confirmed label there once', (t) =>
  burst(
    t,
    async (s) => {
      // A backend killed with SIGKILL is a crash: PostgreSQL ends every connection and recovers (crash recovery)
      // while the client keeps labelling.
      await sleep(3);
      const backends = (await s.rows(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'qrels-studio'",
      )) as { pid: number }[];
      assert.ok(backends.length > 0);
      for (const { pid } of backends) process.kill(pid, 'SIGKILL');
    },
    false,
  ));
