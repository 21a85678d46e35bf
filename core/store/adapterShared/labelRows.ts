// What both adapters of the labels port share, backend-independent: a document row as either driver returns it,
// mapped to the port's DocumentRecord, and a plain judgment's values for the judgment INSERT. The SQL stays in each
// adapter (core/store/sqlite/sqliteLabels.ts and studyDatabase.ts, core/store/postgres/postgresLabels.ts).
import type { DocumentRecord } from '../port/labelsPort.ts';
import type { NewJudgment } from '../studyDatabase.ts';

export interface DocumentRow {
  id: number;
  docid: string;
  title: string | null;
  body: string;
  format: DocumentRecord['format'];
  parent_docid: string | null;
  metadata: string | null;
}

/** A document as the Label view gets it; `siblings` (the parent's chunks) only for a chunk. */
export function documentRecord(row: Omit<DocumentRow, 'id'>, siblings: string[] | undefined): DocumentRecord {
  return {
    docid: row.docid,
    title: row.title,
    body: row.body,
    format: row.format,
    parentDocid: row.parent_docid,
    metadata: row.metadata,
    ...(siblings !== undefined && { siblings }),
  };
}

/** The values of `INSERT INTO judgment (pair_id, annotator_id, label, created_at, source, rationale, shown_label)`. */
export function plainJudgmentValues(
  pairId: number,
  annotatorId: number,
  judgment: NewJudgment,
  createdAt: string,
): [number, number, number, string, NewJudgment['source'], string | null, number | null] {
  return [
    pairId,
    annotatorId,
    judgment.label,
    createdAt,
    judgment.source,
    judgment.rationale ?? null,
    judgment.shownLabel ?? null,
  ];
}
