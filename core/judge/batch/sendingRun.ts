// One sending run per judge at a time on this machine. A vote is kept from being asked twice once it is on record
// (answered) or held by a recorded batch — a vote an online run has in flight is neither yet, so a batch submitted
// meanwhile (or a second online run) could ask it again and it would be paid twice. A run that sends votes (online,
// or a batch submit) therefore takes a marker file beside the batch input files (<study folder>/.qrels-studio/
// batches), created exclusively and naming its process; another run of the same judge that finds a live one is
// refused, nothing sent. A marker left by a killed run names a process that is gone: it is taken over. Runs on other
// machines (a shared PostgreSQL study) write their own folders and are not seen — the README says so.
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { JudgeSetupError } from '../judgeSetup.ts';

/** A sending run of the same judge is under way on this machine: nothing was sent. */
export class SendingRunOverlap extends JudgeSetupError {
  override name = 'SendingRunOverlap';
}

export type SendingRunKind = 'online' | 'batch';

interface Marker {
  pid: number;
  host: string;
  kind: SendingRunKind;
  judge: string;
  startedAt: string;
}

const kindText: Record<SendingRunKind, string> = { online: 'an online run', batch: 'a batch submit' };

/** The marker's path for `judge` (an annotator name may hold any character: hashed). */
export function sendingRunMarkerPath(folder: string, judge: string): string {
  return join(folder, `sending-${createHash('sha256').update(judge).digest('hex').slice(0, 16)}.json`);
}

/** Whether process `pid` of this machine still runs. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readMarker(path: string): Marker | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Marker;
  } catch {
    return undefined; // gone meanwhile, or cut short by a kill while it was written
  }
}

/**
 * Takes the judge's marker for a run of `kind`; returns what gives it back. A SendingRunOverlap (nothing taken)
 * when a live run of this machine holds it.
 */
export function takeSendingRun(folder: string, judge: string, kind: SendingRunKind): () => void {
  mkdirSync(folder, { recursive: true });
  const path = sendingRunMarkerPath(folder, judge);
  const mine: Marker = { pid: process.pid, host: hostname(), kind, judge, startedAt: new Date().toISOString() };
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, JSON.stringify(mine));
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const held = readMarker(path);
    if (held === undefined ? attempt >= 2 : held.host !== mine.host || alive(held.pid)) {
      throw new SendingRunOverlap(
        `${held ? kindText[held.kind] : 'another run'} of judge ${judge} is under way` +
          (held
            ? ` (process ${held.pid}${held.host !== mine.host ? ` on ${held.host}` : ''}, since ${held.startedAt})`
            : '') +
          `: wait for it to end, or stop it, before ${kindText[kind]} — the votes it has in flight are not on record ` +
          `yet, so they would be asked, and paid for, twice. If no such run is going on, delete ${path}`,
      );
    }
    // Left by a run that is gone (killed): taken over — unless another run took it over meanwhile.
    if (held === undefined || readMarker(path)?.startedAt === held.startedAt) rmSync(path, { force: true });
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    // Only our own marker: one taken over after a kill is another run's.
    if (readMarker(path)?.pid === mine.pid && readMarker(path)?.startedAt === mine.startedAt)
      rmSync(path, { force: true });
  };
}
