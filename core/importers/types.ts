// What an importer reads out of a data file: queries, documents and judgments, each with the place it came from,
// and the one error every malformed record becomes. The task database (core/store) consumes these records in
// batches; the `qrels-studio import` command picks the importer through registry.ts.

/** How a document's body is rendered. */
export type DocumentFormat = 'plain' | 'markdown' | 'html' | 'table-json' | 'code';

/**
 * Where something is in a source file: 1-based line and character column (code points). For Parquet, `line` is
 * the 1-based row number. `field` names the field or column when the position is one field's value.
 */
export interface SourcePosition {
  file: string;
  line: number;
  column?: number;
  field?: string;
}

export interface QueryRecord {
  kind: 'query';
  qid: string;
  text: string;
  instruction?: string;
  parent?: string;
  type?: string;
  split?: string;
  /** The ids of the query's relevant documents, when the file lists them (`gold` mapped: TARGET's tables). */
  gold?: string[];
  /** The record's fields no role took, as read (JSON values; strings for CSV/TSV). */
  metadata: Record<string, unknown>;
  at: SourcePosition;
}

export interface DocumentRecord {
  kind: 'document';
  docid: string;
  body: string;
  title?: string;
  format: DocumentFormat;
  parent?: string;
  metadata: Record<string, unknown>;
  at: SourcePosition;
}

export interface JudgmentRecord {
  kind: 'judgment';
  qid: string;
  docid: string;
  label: number;
  annotator?: string;
  createdAt?: string;
  source?: string;
  rationale?: string;
  /** The label the annotator was shown before deciding (a suggestion), when the file says. */
  shownLabel?: number;
  /**
   * The answers the label was derived from, when a label file has them (`export --answers`, `--with-answers`): one
   * true/false per condition of the query, and aspect answers (true/false, or a graded aspect's level), each with
   * where it was read; the study checks them on import.
   */
  conditions?: { values: boolean[]; at: SourcePosition };
  aspects?: { values: Record<string, boolean | number>; at: SourcePosition };
  at: SourcePosition;
}

export type ImportedRecord = QueryRecord | DocumentRecord | JudgmentRecord;

/** What a file is imported as: `--queries`, `--corpus`, `--qrels`, `--labels`. */
export type ImportTarget = 'queries' | 'corpus' | 'qrels' | 'labels';

export interface ImportOptions {
  target: ImportTarget;
  /**
   * role → field: id, text (queries) / body (corpus), title, instruction, parent, format, type, split; for
   * judgments: query_id, doc_id, label, annotator, created_at, source, rationale. A field may be a dotted path
   * into nested JSON objects (`metadata.lang`). Roles left out are read from their default fields (README.md).
   */
  mapping?: Record<string, string>;
  /** The importer id to use instead of detecting it (`--format`): 'jsonl', 'csv', 'tsv', 'beir', 'trec-topics',
   * 'trec-qrels', 'labels', 'parquet', 'hf-viewer'. */
  format?: string;
  /** corpus: the document format when the mapping does not say (study file `format: markdown`). */
  documentFormat?: DocumentFormat;
  /** Name used in positions (default: the path). */
  name?: string;
  /**
   * The caller checks that ids and judgments are unique itself — the task database stages records under unique
   * keys, across all the files of an import — so the importer keeps no set of what it has seen (a million ids cost
   * about 60 MB and a second per million records).
   */
  idsCheckedByCaller?: boolean;
  /**
   * labels: who made the judgments whose record names no annotator (`import --labels FILE --annotator NAME`); a
   * record's own `annotator` wins. Without it, a label file's every record names its annotator.
   */
  annotator?: string;
}

function describePosition(at: SourcePosition): string {
  return at.column === undefined ? `${at.file}:${at.line}` : `${at.file}:${at.line}:${at.column}`;
}

/**
 * A malformed record, or a file no importer can read: where, what was expected there and what was found.
 * `related` is a second place the problem involves (the first occurrence of a duplicate id).
 * Message: "FILE:LINE:COL: expected X, found Y" (no column when there is none: a Parquet row, a whole file).
 */
export class ImportError extends Error {
  readonly at: SourcePosition;
  readonly expected: string;
  readonly found: string;
  readonly related?: SourcePosition;

  constructor(at: SourcePosition, expected: string, found: string, related?: SourcePosition) {
    super(`${describePosition(at)}: expected ${expected}, found ${found}`);
    this.name = 'ImportError';
    this.at = at;
    this.expected = expected;
    this.found = found;
    if (related !== undefined) this.related = related;
  }
}

export interface Importer {
  id: string;
  description: string;
  targets: readonly ImportTarget[];
  /** True when this importer reads the file, by its name (without `.gz`) and first lines. */
  detects(name: string, firstLines: readonly string[]): boolean;
  /** The file's records in file order, yielded as they are read. Rejects with ImportError on the first
   * malformed record, with FileReadError (core/formats/lineReader.ts) when the file cannot be read. */
  read(path: string, options: ImportOptions): AsyncIterable<ImportedRecord>;
}
