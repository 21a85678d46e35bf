// Getting a recorded batch created at the API, safely across kills. A batch is recorded (with its requests and its
// input file's sha256) before anything is uploaded; then each id is recorded the moment the API gives it. A run that
// finds a batch recorded but not created picks it up where the kill left it:
// - no file id recorded: the file may have been uploaded all the same — files.list by its name (which carries our
//   batch key) — else it is uploaded from the local copy (its sha256 checked), else, with no copy left, the batch is
//   forgotten: nothing of it was ever asked, its requests go into a new batch;
// - a file id but no batch id: the batch may have been created all the same — batches.list by the metadata naming our
//   key — else it is created. A batch is never created twice for the same requests.

import { createHash } from 'node:crypto';
import { createReadStream, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { JudgeBatchRecord } from '../../store/port/judgeBatchPort.ts';
import { inputFileName } from './batchApi.ts';
import type { BatchRun } from './batchRun.ts';

export type LaunchOutcome =
  | { launched: true; batchId: string; found: 'file' | 'batch' | 'none' }
  | { launched: false; reason: string };

async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Creates recorded batch `batch` at the API (see above); its local input file is deleted once it is created. `fresh`:
 * recorded by this very run, just now — nothing of it can be at the API yet, so nothing is looked up.
 */
export async function launchBatch(run: BatchRun, batch: JudgeBatchRecord, fresh = false): Promise<LaunchOutcome> {
  const { store, options } = run;
  const api = options.api;
  const filename = inputFileName(batch.batchKey);
  const path = join(options.folder, filename);
  let found: 'file' | 'batch' | 'none' = 'none';
  let fileId = batch.inputFileId;
  if (fileId === null) {
    const uploaded = fresh ? undefined : await api.findFile(filename, batch.inputBytes);
    if (uploaded !== undefined) {
      fileId = uploaded;
      found = 'file';
    } else {
      if (!existsSync(path) || (await fileSha256(path)) !== batch.inputSha256) {
        await store.judgeBatches.forgetBatch(batch.id);
        rmSync(path, { force: true }); // a changed copy is no batch's input any more
        return {
          launched: false,
          reason: `its input file ${path} is gone or changed and was never uploaded: forgotten, its requests are asked again`,
        };
      }
      fileId = await api.upload(path, filename);
    }
    await store.judgeBatches.setInputFile(batch.id, fileId);
  }
  // Only a batch recorded before this run can have been created without its id recorded.
  const since = Math.floor(Date.parse(batch.createdAt) / 1000) - 3600;
  let created =
    !fresh && (batch.inputFileId !== null || found === 'file') ? await api.findBatch(batch.batchKey, since) : undefined;
  if (created !== undefined) found = 'batch';
  created ??= await api.create(fileId, batch.batchKey);
  await store.judgeBatches.setBatchId(batch.id, created.id);
  // The API holds the input now: no run needs the copy (sweepInputFiles removes it if a kill comes first).
  rmSync(path, { force: true });
  await store.judgeBatches.updateBatch(batch.id, {
    status: created.status,
    ...(created.counts && { counts: created.counts }),
  });
  return { launched: true, batchId: created.id, found };
}
