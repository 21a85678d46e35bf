// Parquet through hyparquet (pure JS; snappy built in, gzip/zstd/brotli/lz4 from hyparquet-compressors), read one
// row group at a time, so memory holds one row group, not the file. Columns through the mapping, as for JSONL
// (struct columns are objects: dotted fields reach into them); a position is the 1-based row number and the
// column. INT64 values become numbers when exact, else their decimal text; timestamps become ISO 8601 text.
import { closeSync, openSync, readSync } from 'node:fs';
import {
  type AsyncBuffer,
  asyncBufferFromFile,
  type FileMetaData,
  parquetMetadataAsync,
  parquetReadObjects,
  parquetSchema,
} from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { FileReadError } from '../formats/lineReader.ts';
import { RecordConverter } from './convert.ts';
import { shown } from './describe.ts';
import { ObjectFieldSource } from './fieldSources.ts';
import { ImportError, type ImportedRecord, type Importer, type ImportOptions } from './types.ts';

function isSystemError(error: unknown): boolean {
  return typeof (error as NodeJS.ErrnoException | undefined)?.code === 'string';
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The first bytes of the file (FileReadError when it cannot be read). */
function magicOf(path: string): Buffer {
  try {
    const fd = openSync(path, 'r');
    try {
      const buffer = Buffer.alloc(4);
      return buffer.subarray(0, readSync(fd, buffer, 0, 4, 0));
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw new FileReadError(path, error);
  }
}

/** A value as the metadata keeps it: JSON-like (no bigint, no Date). */
function plain(value: unknown): unknown {
  if (typeof value === 'bigint') {
    const number = Number(value);
    return Number.isSafeInteger(number) ? number : value.toString();
  }
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array)) {
    const object: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) object[key] = plain(item);
    return object;
  }
  return value;
}

async function* readParquet(path: string, options: ImportOptions): AsyncGenerator<ImportedRecord> {
  const file = options.name ?? path;
  const magic = magicOf(path);
  if (magic.toString('latin1') !== 'PAR1') {
    const gzip = magic[0] === 0x1f && magic[1] === 0x8b;
    throw new ImportError(
      { file, line: 1, column: 1 },
      "a Parquet file (its first bytes are 'PAR1')",
      gzip ? 'a gzip file (Parquet compresses its own pages: gunzip it first)' : shown(magic.toString('latin1')),
    );
  }
  let buffer: AsyncBuffer;
  let metadata: FileMetaData;
  try {
    buffer = await asyncBufferFromFile(path);
    metadata = await parquetMetadataAsync(buffer);
  } catch (error) {
    if (isSystemError(error)) throw new FileReadError(path, error);
    throw new ImportError({ file, line: 1 }, 'a readable Parquet footer', reason(error));
  }
  const names = parquetSchema(metadata).children.map((child) => child.element.name);
  const converter = new RecordConverter(options, file);
  converter.checkHeader(names, { file, line: 1 });
  let rowStart = 0;
  for (const group of metadata.row_groups) {
    const rowEnd = rowStart + Number(group.num_rows);
    let rows: Record<string, unknown>[];
    try {
      rows = await parquetReadObjects({ file: buffer, metadata, rowStart, rowEnd, compressors });
    } catch (error) {
      if (isSystemError(error)) throw new FileReadError(path, error);
      throw new ImportError(
        { file, line: rowStart + 1 },
        `readable Parquet data in rows ${rowStart + 1}–${rowEnd}`,
        reason(error),
      );
    }
    for (let i = 0; i < rows.length; i++) {
      const row = plain(rows[i]) as Record<string, unknown>;
      yield converter.convert(new ObjectFieldSource(file, rowStart + i + 1, row));
    }
    rowStart = rowEnd;
  }
}

export const parquetImporter: Importer = {
  id: 'parquet',
  description: 'Apache Parquet (pure-JS reader), columns through the mapping',
  targets: ['queries', 'corpus', 'qrels', 'labels'],
  detects: (name, firstLines) => /\.parquet$/i.test(name) || (firstLines[0]?.startsWith('PAR1') ?? false),
  read: readParquet,
};
