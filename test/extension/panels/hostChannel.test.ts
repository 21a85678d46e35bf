import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RuntimeReport } from '../../../core/runtime/runtimeReport.ts';
import { HostChannel } from '../../../extension/panels/hostChannel.ts';
import type { HostToWebviewMessage } from '../../../webview/protocol.ts';

const report: RuntimeReport = {
  productVersion: '0.1.0',
  host: 'test',
  node: '24.21.0',
  napi: '10',
  abi: '137',
  platform: 'linux',
  arch: 'x64',
  sqliteVersion: '3.50.4',
  journalMode: 'wal',
  walReadBack: true,
  nativeBinding: '/x/better_sqlite3-linux-x64.node',
};

function channel(check: () => RuntimeReport = () => report) {
  const posted: HostToWebviewMessage[] = [];
  const protocolErrors: string[] = [];
  let readies = 0;
  const host = new HostChannel({
    post: (message) => posted.push(message),
    handlers: { 'runtime/check': () => check() },
    onReady: () => readies++,
    onProtocolError: (description) => protocolErrors.push(description),
  });
  return { host, posted, protocolErrors, readies: () => readies };
}

test('events wait for ready and then go out in order, before onReady runs', async () => {
  const { host, posted, readies } = channel();
  host.postEvent('runtime/report', { result: { ok: true, value: report } });
  host.postEvent('runtime/report', { result: { ok: false, error: { message: 'second' } } });
  assert.deepEqual(posted, []);
  assert.equal(host.isReady, false);
  await host.receive({ kind: 'ready' });
  assert.equal(host.isReady, true);
  assert.equal(readies(), 1);
  assert.deepEqual(posted, [
    { kind: 'runtime/report', data: { result: { ok: true, value: report } } },
    { kind: 'runtime/report', data: { result: { ok: false, error: { message: 'second' } } } },
  ]);
  host.postEvent('runtime/report', { result: { ok: true, value: report } });
  assert.equal(posted.length, 3, 'after ready, events go out at once');
});

test('after reset (webview hidden) events wait for the next ready, and onReady runs again', async () => {
  const { host, posted, readies } = channel();
  await host.receive({ kind: 'ready' });
  host.reset();
  host.postEvent('runtime/report', { result: { ok: true, value: report } });
  assert.equal(posted.length, 0);
  await host.receive({ kind: 'ready' });
  assert.equal(posted.length, 1);
  assert.equal(readies(), 2);
});

test('a request gets one reply with its id and the handler value', async () => {
  const { host, posted } = channel();
  await host.receive({ kind: 'runtime/check', id: 7, params: {} });
  assert.deepEqual(posted, [{ kind: 'reply', id: 7, ok: true, value: report }]);
});

test('a handler that throws is answered with the error as a value', async () => {
  const { host, posted } = channel(() => {
    throw new Error('SQLite binary not found');
  });
  await host.receive({ kind: 'runtime/check', id: 8, params: {} });
  assert.deepEqual(posted, [{ kind: 'reply', id: 8, ok: false, error: { message: 'SQLite binary not found' } }]);
});

test('a request kind the panel does not serve is answered with an error, not dropped', async () => {
  const { host, posted } = channel();
  await host.receive({ kind: 'label/next', id: 9, params: {} });
  await host.receive({ kind: 'toString', id: 10, params: {} });
  assert.deepEqual(posted, [
    { kind: 'reply', id: 9, ok: false, error: { message: "this panel does not handle 'label/next'" } },
    { kind: 'reply', id: 10, ok: false, error: { message: "this panel does not handle 'toString'" } },
  ]);
});

test('messages outside the protocol get no reply and are reported', async () => {
  const { host, posted, protocolErrors } = channel();
  for (const junk of [null, 'ready', { kind: 'runtime/check' }, { kind: 'runtime/check', id: 1.5, params: {} }, {}]) {
    await host.receive(junk);
  }
  assert.deepEqual(posted, []);
  assert.equal(protocolErrors.length, 5);
  assert.equal(host.isReady, false);
});
