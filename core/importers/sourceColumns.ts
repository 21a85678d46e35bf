// The field names of the data files only an importer can read — a Parquet file's columns, a Hugging Face
// dataset-viewer copy's columns — so that a study file naming one is checked like a JSONL or CSV file
// (core/dsl/studyHost.ts asks here). Undefined for any other file: core/data/fieldNames.ts reads those.
import { asyncBufferFromFile, parquetMetadataAsync, parquetSchema } from 'hyparquet';
import { viewerCopyColumns } from './hfViewer.ts';
import { readHead } from './lineSource.ts';

type Columns = { fields: string[] } | { problem: string } | undefined;

/** A Parquet file's column names (told by its magic bytes), or undefined when it is no Parquet file. */
export async function readParquetColumns(path: string): Promise<Columns> {
  try {
    if ((await readHead(path, 1)).magic.subarray(0, 4).toString('latin1') !== 'PAR1') return undefined;
  } catch {
    return undefined;
  }
  try {
    const metadata = await parquetMetadataAsync(await asyncBufferFromFile(path));
    return { fields: parquetSchema(metadata).children.map((child) => child.element.name) };
  } catch (error) {
    return { problem: `cannot read the Parquet schema: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** A viewer copy's column names (its name/type header lines), or undefined when it does not start like one. */
export async function readViewerCopyColumns(path: string): Promise<Columns> {
  try {
    const columns = viewerCopyColumns((await readHead(path)).lines);
    return columns && { fields: columns };
  } catch {
    return undefined;
  }
}
