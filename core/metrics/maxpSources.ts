// Where MaxP learns which ids are chunks of which document and which queries it applies to (MaxpRule): the
// corpus's declared `parent` (any corpus `import --corpus` reads: JSONL, CSV, TSV, Parquet, the HF-viewer copy,
// BEIR), a list of query ids, or the queries of some `type`s of a queries file. Bad records are ImportErrors and
// FormatErrors at their position.
import { FormatError } from '../formats/formatError.ts';
import { readLines } from '../formats/lineReader.ts';
import { readImport } from '../importers/registry.ts';
import { ImportError } from '../importers/types.ts';

/**
 * Chunk id → document id from a corpus's records; `mapping` is the corpus's role → field mapping (`parent: FIELD`
 * as the study file declares it; the default reads the field `parent`). A corpus where no record names a parent
 * is an error: MaxP over it would change nothing.
 */
export async function readChunkParents(
  file: string,
  mapping: Record<string, string> = {},
): Promise<Map<string, string>> {
  const parents = new Map<string, string>();
  for await (const record of readImport(file, { target: 'corpus', mapping })) {
    if (record.kind === 'document' && record.parent !== undefined) parents.set(record.docid, record.parent);
  }
  if (parents.size === 0) {
    throw new ImportError(
      { file, line: 1 },
      `records naming the document they were cut from in the field '${mapping.parent ?? 'parent'}'`,
      'none that does (name the field with --parent-field FIELD)',
    );
  }
  return parents;
}

/** Query ids, one a line (the first word; `#` comment lines and blank lines skipped). */
export async function readQueryIdList(file: string): Promise<Set<string>> {
  const ids = new Set<string>();
  await readLines(file, (bytes, start, end) => {
    const text = Buffer.from(bytes.subarray(start, end)).toString('utf8').trim();
    if (text === '' || text.startsWith('#')) return;
    ids.add(text.split(/\s+/, 1)[0]!);
  });
  if (ids.size === 0) throw new FormatError(file, 1, 1, 'expected query ids, one a line; the file has none');
  return ids;
}

/** The ids of the queries of a queries file (any format `import --queries` reads) whose `type` is one of `types`. */
export async function readQueriesOfTypes(
  file: string,
  types: readonly string[],
  mapping: Record<string, string> = {},
): Promise<Set<string>> {
  const ids = new Set<string>();
  const seen = new Set<string>();
  for await (const record of readImport(file, { target: 'queries', mapping })) {
    if (record.kind !== 'query' || record.type === undefined) continue;
    seen.add(record.type);
    if (types.includes(record.type)) ids.add(record.qid);
  }
  const missing = types.filter((t) => !seen.has(t));
  if (missing.length > 0) {
    throw new ImportError(
      { file, line: 1 },
      `queries of type ${missing.map((t) => `'${t}'`).join(', ')} (--maxp-type)`,
      seen.size === 0
        ? `no query with a type (the field '${mapping.type ?? 'type'}')`
        : `the types ${[...seen].map((t) => `'${t}'`).join(', ')}`,
    );
  }
  return ids;
}
