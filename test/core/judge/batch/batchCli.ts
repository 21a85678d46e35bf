// Shared by the batch CLI tests (batchKills.test.ts, batchOutputs.test.ts), besides test/cli/judgeCli.ts (the study,
// the environment) and test/helpers.ts (the CLI as a real process: bin/qrels-studio.cjs runs dist/cli.cjs in the
// same process, so a SIGKILL reaches the judge itself): what the record says of the judge's calls and batches.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { batchKeyOfInputFile } from '../../../../core/judge/batch/batchApi.ts';
import { studyDatabasePath } from '../../../../core/store/studyDatabase.ts';
import type { CliStore } from '../../../cli/cliStore.ts';

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

/** The batch input files the CLI keeps for the study (in dirname(its database)/batches), by name. */
export function inputFilesKept(root: string): string[] {
  const folder = join(dirname(studyDatabasePath(join(root, 'wqt.assess'))), 'batches');
  try {
    return readdirSync(folder).filter((name) => batchKeyOfInputFile(name) !== undefined);
  } catch {
    return [];
  }
}
