// One sending run per judge on this machine (core/judge/batch/sendingRun.ts): the marker is taken exclusively and
// refuses a second run of the same judge while its process lives, naming it; released, it can be taken again; one left
// by a process that is gone (killed), or cut short, is taken over; a release never removes another run's marker;
// another judge has its own. (The CLI and VS Code runs that take it: test/cli/judgeOverlap.test.ts.)
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { test } from 'node:test';
import { SendingRunOverlap, sendingRunMarkerPath, takeSendingRun } from '../../../../core/judge/batch/sendingRun.ts';
import { scratchDir } from '../../../helpers.ts';

const judge = 'llm:judge-a@0123abcd';

/** A process id that no process has any more: a child that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

test('a live run of the judge refuses another, naming it; released, the marker can be taken again', () => {
  const folder = scratchDir();
  const release = takeSendingRun(folder, judge, 'online');
  assert.throws(
    () => takeSendingRun(folder, judge, 'batch'),
    (error: unknown) => {
      assert.ok(error instanceof SendingRunOverlap);
      assert.match(
        error.message,
        new RegExp(
          `^an online run of judge llm:judge-a@0123abcd is under way \\(process ${process.pid}, since .+\\): wait for ` +
            'it to end, or stop it, before a batch submit — .* paid for, twice. If no such run is going on, delete ',
        ),
      );
      return true;
    },
  );
  assert.throws(() => takeSendingRun(folder, judge, 'online'), SendingRunOverlap);
  // Another judge (another prompt) has a marker of its own.
  takeSendingRun(folder, 'llm:judge-a@ffff0000', 'batch')();
  release();
  assert.equal(existsSync(sendingRunMarkerPath(folder, judge)), false);
  const again = takeSendingRun(folder, judge, 'batch');
  assert.equal(JSON.parse(readFileSync(sendingRunMarkerPath(folder, judge), 'utf8')).kind, 'batch');
  again();
});

test("a killed run's marker is taken over, a cut-short one too; a release leaves another run's marker", () => {
  const folder = scratchDir();
  const path = sendingRunMarkerPath(folder, judge);
  const pid = deadPid();
  writeFileSync(path, JSON.stringify({ pid, host: hostname(), kind: 'online', judge, startedAt: 'x' }));
  const release = takeSendingRun(folder, judge, 'batch');
  assert.equal(JSON.parse(readFileSync(path, 'utf8')).pid, process.pid);
  // Another run took the marker over meanwhile (ours was deleted by hand): our release leaves it.
  const theirs = JSON.stringify({ pid: process.pid, host: 'h', kind: 'online', judge, startedAt: 'later' });
  writeFileSync(path, theirs);
  release();
  assert.equal(readFileSync(path, 'utf8'), theirs);
  // A marker cut short by a kill while it was written.
  writeFileSync(path, '{"pid": 12');
  takeSendingRun(folder, judge, 'online')();
  assert.equal(existsSync(path), false);
});
