// The local copies of batch input files (<study folder>/.qrels-studio/batches): each is kept only while its batch
// may still need to be uploaded from it, i.e. while its batch is recorded but not yet created at the API ('prepared',
// no batch id). Once the batch id is on record the API holds the input, and a re-run — which finds a batch by its
// recorded id or by the key in its metadata — never reads the copy again. launchBatch deletes the copy as soon as it
// records the id; this sweep removes what a kill between the two (or a forgotten batch, or a file written just
// before a kill and never recorded) left, at the start of each submit, status and cancel run.
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { batchKeyOfInputFile } from './batchApi.ts';
import type { BatchRun } from './batchRun.ts';

/**
 * A file no batch of the study records is another run's while it is being written (recorded the moment it is
 * closed): it is removed only once nothing has written to it for this long.
 */
export const unrecordedInputFileAge = 60 * 60 * 1000;

/** Removes the input files in the run's folder that no batch can need any more (see above); returns their names. */
export async function sweepInputFiles(run: BatchRun): Promise<string[]> {
  let names: string[];
  try {
    names = readdirSync(run.options.folder);
  } catch {
    return []; // no folder yet: nothing was ever written
  }
  const keyed = names.flatMap((name) => {
    const key = batchKeyOfInputFile(name);
    return key === undefined ? [] : [{ name, key }];
  });
  if (keyed.length === 0) return [];
  const batches = new Map((await run.store.judgeBatches.batches(run.studyId)).map((b) => [b.batchKey, b]));
  const removed: string[] = [];
  for (const { name, key } of keyed) {
    const path = join(run.options.folder, name);
    const batch = batches.get(key);
    if (batch === undefined) {
      const modified = statSync(path, { throwIfNoEntry: false })?.mtimeMs;
      if (modified === undefined || Date.now() - modified < unrecordedInputFileAge) continue;
    } else if (batch.batchId === null && batch.recordedAt === null) continue; // may still be uploaded from it
    rmSync(path, { force: true });
    removed.push(name);
  }
  return removed;
}
