// Qrels at another unit than the one labelled, through the corpus's declared `parent` (the document a chunk was cut
// from): chunk labels rolled up to their documents (`export qrels … per document`, `export --per document`), or
// document labels given to every chunk of the document (`export --per chunk`: CRUMB's "all chunks of a relevant
// document are relevant"). A chunk nobody labelled counts for nothing — it is neither 0 nor relevant — so a document
// whose chunks are all unlabelled has no line.
import type { PairLabel } from './labelSources.ts';
import { StoreError } from './studyDatabase.ts';
import type { StudyStore } from './studyStore.ts';

/** How a document's label is made from its chunks' labels: the best one, or 1 when any chunk is relevant (≥ 1). */
export type ChunkRollup = 'max' | 'any';
export const chunkRollups: readonly ChunkRollup[] = ['max', 'any'];

/** The unit of a qrels line: the labelled pair as it is, its document, or each chunk of its document. */
export type QrelsUnit = { per: 'pair' } | { per: 'document'; rollup: ChunkRollup } | { per: 'chunk' };

/** Orders as SQLite's BINARY collation does (UTF-8 bytes), as the label sources order their labels. */
function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

function byPair(a: PairLabel, b: PairLabel): number {
  return compareBytes(a.qid, b.qid) || compareBytes(a.docid, b.docid);
}

/**
 * Each chunk's label counted for its document (a label on an id that is not a chunk counts for that id itself):
 * per query and document, the highest label (`max`), or 1 if one of them is at least 1 and else 0 (`any`).
 */
export function rollUpToDocuments(labels: PairLabel[], parents: Map<string, string>, rule: ChunkRollup): PairLabel[] {
  const documents = new Map<string, PairLabel>();
  for (const { qid, docid, label } of labels) {
    const document = parents.get(docid) ?? docid;
    const value = rule === 'any' ? (label >= 1 ? 1 : 0) : label;
    const key = `${qid}\u0000${document}`;
    const seen = documents.get(key);
    if (seen === undefined) documents.set(key, { qid, docid: document, label: value });
    else seen.label = Math.max(seen.label, value);
  }
  return [...documents.values()].sort(byPair);
}

/**
 * Each document's label given to every chunk of it; a chunk with a label of its own (from the same source) keeps
 * that one, the more specific judgment. A label on an id with no chunks (a chunk, or an unchunked document) stays.
 */
export function spreadToChunks(labels: PairLabel[], parents: Map<string, string>): PairLabel[] {
  const chunksOf = new Map<string, string[]>();
  for (const [chunk, document] of parents) {
    const chunks = chunksOf.get(document);
    if (chunks) chunks.push(chunk);
    else chunksOf.set(document, [chunk]);
  }
  const labelled = new Set(labels.map((l) => `${l.qid}\u0000${l.docid}`));
  const spread: PairLabel[] = [];
  for (const { qid, docid, label } of labels) {
    const chunks = chunksOf.get(docid);
    if (chunks === undefined) {
      spread.push({ qid, docid, label });
      continue;
    }
    for (const chunk of chunks) {
      if (!labelled.has(`${qid}\u0000${chunk}`)) spread.push({ qid, docid: chunk, label });
    }
  }
  return spread.sort(byPair);
}

/** `labels` at the unit asked for; per document or per chunk needs a corpus whose records name their `parent`. */
export async function labelsPer(
  store: StudyStore,
  studyId: number,
  labels: PairLabel[],
  unit: QrelsUnit,
): Promise<PairLabel[]> {
  if (unit.per === 'pair') return labels;
  // Chunk id → the id of its document, for every document of the study's corpus that declares a parent.
  const parents = new Map(await store.agreement.chunkParents(studyId));
  if (parents.size === 0) {
    throw new StoreError(
      `qrels per ${unit.per} need chunks: no document of the study's corpus names a parent ` +
        '(map the corpus field that holds it as `parent: FIELD` and import again)',
    );
  }
  return unit.per === 'document' ? rollUpToDocuments(labels, parents, unit.rollup) : spreadToChunks(labels, parents);
}
