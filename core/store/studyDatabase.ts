// What the study record's callers share whatever the backend: where a study file's SQLite database lives, the errors
// the record throws (a StoreError is the user's to fix and is printed as is), and the plain data that imports,
// pools, syncs and judgments take and report. The SQLite adapter's own record object is core/store/sqlite/
// studyDatabase.ts.
import { basename, dirname, join } from 'node:path';
import type { LabelKind } from '../dsl/model.ts';

/** Where a study file's database lives: `<folder>/.qrels-studio/<name>.sqlite`. */
export function studyDatabasePath(studyFile: string): string {
  return join(dirname(studyFile), '.qrels-studio', `${basename(studyFile).replace(/\.assess$/, '')}.sqlite`);
}

/** A problem with what is being stored, positioned where it can be: printed as is, never as a stack trace. */
export class StoreError extends Error {
  override name = 'StoreError';
}

/** An import stopped through its AbortSignal: its staging is dropped and the database is as it was. */
export class ImportCancelledError extends Error {
  override name = 'ImportCancelledError';
  constructor() {
    super('import cancelled: nothing was written');
  }
}

export type JudgmentSource = 'manual' | 'suggestion' | 'adjudicated' | 'imported';

export interface NewJudgment {
  study: string;
  qid: string;
  docid: string;
  annotator: string;
  label: number;
  source: JudgmentSource;
  rationale?: string;
  /** The label the annotator was shown before deciding (an LLM suggestion), if any. */
  shownLabel?: number;
  /** Default: now. */
  createdAt?: Date;
}

export interface ImportOrigin {
  /** The file as the user named it (positions and the import log use it). */
  file: string;
  target: string;
  format: string;
  /** Who made the judgments of a file that does not say (a TREC qrels file). */
  annotator?: string;
  /** What kind of label source the file's annotators are (`kind gold`), when declared: it replaces theirs. */
  kind?: LabelKind;
}

export interface RowCounts {
  /** Rows new to the study. */
  added: number;
  /** Rows whose content changed (a query's or document's text); judgments are never changed, only added. */
  updated: number;
  /** Records already in the study as they are: importing the same file twice adds nothing the second time. */
  unchanged: number;
}

export interface ImportReport {
  files: (ImportOrigin & { records: number })[];
  queries: RowCounts;
  documents: RowCounts;
  judgments: RowCounts;
  pools: PoolReport[];
}

export interface PoolInput {
  run: { path: string; tag: string; depth: number };
  /** Query id → its top documents in trec_eval's order (core/pooling/runRanking.ts). */
  queries: ReadonlyMap<string, readonly { docid: string; rank: number }[]>;
}

export interface PoolReport {
  run: string;
  depth: number;
  /** Queries the run ranks documents for. */
  queries: number;
  /** (query, document) pairs in the run's top `depth`. */
  pooled: number;
  /** Pairs new to the study. */
  added: number;
  /** The study's pairs after pooling. */
  pairs: number;
}

export interface SyncReport {
  studies: string[];
  /** Scale values added per study. */
  addedScaleValues: Record<string, number[]>;
}

/**
 * What a study accepts as a label's answers (the Label view's rules, LabelSession.checkAnswers): how many
 * conditions a query has under its `conditions from`, and its aspects — a graded one's levels, undefined for yes/no.
 */
export interface AnswerRules {
  conditionCount(query: {
    qid: string;
    text: string;
    instruction: string | null;
    type: string | null;
    metadata: string | null;
  }): number;
  aspects: ReadonlyMap<string, readonly number[] | undefined>;
}
