// Shared by the importer tests: files in a scratch directory, records collected, the error a read ends with.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ImportError, type ImportedRecord } from '../../../core/importers/types.ts';
import { scratchDir } from '../../helpers.ts';

/** Writes `content` to a new scratch directory under `name`; returns the path. */
export function dataFile(name: string, content: string | Uint8Array): string {
  const path = join(scratchDir('qrels-studio-import-'), name);
  writeFileSync(path, content);
  return path;
}

export async function collect(records: AsyncIterable<ImportedRecord>): Promise<ImportedRecord[]> {
  const all: ImportedRecord[] = [];
  for await (const record of records) all.push(record);
  return all;
}

/** The ImportError reading all records ends with (fails when it ends otherwise). */
export async function importError(records: AsyncIterable<ImportedRecord>): Promise<ImportError> {
  try {
    await collect(records);
  } catch (error) {
    if (error instanceof ImportError) return error;
    throw error;
  }
  assert.fail('expected an ImportError');
}
