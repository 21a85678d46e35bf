// The checks an import makes of its staged records (and a sync of a study's scale), and their messages, shared by
// both adapters (core/store/sqlite/studyDatabase.ts; core/store/postgres/imports/pgStaging.ts, postgresStudies.ts):
// the same rules, the same messages, whichever backend holds the record. Only backend-independent logic lives here; SQL stays in the adapters.
import type { JudgmentRecord, SourcePosition } from '../importers/types.ts';
import { type AnswerRules, type ImportOrigin, type ImportReport, StoreError } from './studyDatabase.ts';

/** A record's position as import messages name it: `file:line` or `file:line:column`. */
export function describe(at: SourcePosition): string {
  return `${at.file}:${at.line}${at.column !== undefined ? `:${at.column}` : ''}`;
}

/**
 * The staged values of judgment record `record` of the file at place `seq` of the batch (`file` its source), in the
 * order of the staging table's columns: its annotator and source as judgmentOrigin checks them, its answers as JSON
 * with where each was read; what the record leaves out is null.
 */
export function stagedJudgment(
  record: JudgmentRecord,
  fileAnnotator: string | undefined,
  file: string,
  seq: number,
): (string | number | null)[] {
  const { annotator, source } = judgmentOrigin(record, fileAnnotator);
  return [
    record.qid,
    record.docid,
    annotator,
    record.label,
    record.createdAt ?? null,
    source,
    record.rationale ?? null,
    record.shownLabel ?? null,
    file,
    seq,
    record.at.line,
    describe(record.at),
    record.conditions ? JSON.stringify(record.conditions.values) : null,
    record.conditions ? describe(record.conditions.at) : null,
    record.aspects ? JSON.stringify(record.aspects.values) : null,
    record.aspects ? describe(record.aspects.at) : null,
  ];
}

/** The judgment sources a record may name (the schema's CHECK). */
export const judgmentSources = new Set(['manual', 'suggestion', 'adjudicated', 'imported']);

/**
 * A judgment record's annotator (its own, else its file's) and source (its own, else 'imported'), refused with a
 * positioned message when there is no annotator or the source is not one the schema accepts.
 */
export function judgmentOrigin(
  record: JudgmentRecord,
  fileAnnotator: string | undefined,
): { annotator: string; source: string } {
  const annotator = record.annotator ?? fileAnnotator;
  if (annotator === undefined) {
    throw new StoreError(
      `${describe(record.at)}: expected an annotator for these judgments (--annotator NAME), found none`,
    );
  }
  const source = record.source ?? 'imported';
  if (!judgmentSources.has(source)) {
    throw new StoreError(
      `${describe(record.at)}: expected a source of ${[...judgmentSources].join(', ')}, found '${source}'`,
    );
  }
  return { annotator, source };
}

/** A staged judgment's answers, with where each was read, and its query as stored (undefined: not in the study). */
export interface StagedAnswers {
  qid: string;
  query:
    | { qid: string; text: string; instruction: string | null; type: string | null; metadata: string | null }
    | undefined;
  conditions: boolean[] | undefined;
  conditionsAt: string;
  aspects: Record<string, boolean | number> | undefined;
  aspectsAt: string;
}

/** Refuses answers the study does not accept (without `rules`, a study with no conditions and no aspects). */
export function checkAnswers(row: StagedAnswers, study: string, rules: AnswerRules | undefined): void {
  const aspects = rules?.aspects ?? new Map<string, readonly number[] | undefined>();
  for (const [name, answer] of Object.entries(row.aspects ?? {})) {
    if (!aspects.has(name)) {
      const declared = [...aspects.keys()].join(', ') || 'none';
      throw new StoreError(`${row.aspectsAt}: expected an aspect of study '${study}' (${declared}), found '${name}'`);
    }
    const levels = aspects.get(name);
    if (levels) {
      if (typeof answer !== 'number' || !levels.includes(answer)) {
        throw new StoreError(
          `${row.aspectsAt}: expected aspect '${name}' to be one of its levels (${levels.join(', ')}), found ${answer}`,
        );
      }
    } else if (typeof answer !== 'boolean') {
      throw new StoreError(`${row.aspectsAt}: expected aspect '${name}' to be true or false, found ${answer}`);
    }
  }
  const conditions = row.conditions ?? [];
  if (conditions.length === 0) return;
  const count = row.query && rules ? rules.conditionCount(row.query) : 0;
  if (conditions.length !== count) {
    throw new StoreError(
      `${row.conditionsAt}: expected ${count} condition answer${count === 1 ? '' : 's'} for query '${row.qid}', ` +
        `found ${conditions.length}`,
    );
  }
}

/**
 * Refuses to remove scale value `value` of study `study` while judgments use it: `users` are the first of them (up
 * to six, as the adapter reads them); five are named, a sixth shows there are more.
 */
export function refuseScaleRemoval(
  study: string,
  value: number,
  users: readonly { qid: string; docid: string; annotator: string }[],
): void {
  if (users.length === 0) return;
  const named = users
    .slice(0, 5)
    .map((u) => `${u.qid}/${u.docid} by ${u.annotator}`)
    .join(', ');
  throw new StoreError(
    `study '${study}': scale value ${value} cannot be removed, judgments use it (${named}` +
      `${users.length > 5 ? ', …' : ''}); relabel them or keep the value`,
  );
}

/** A document staged a second time, as the staging's query of second places reads it. */
export interface SecondDocument {
  docid: string;
  at: string;
  first: string;
}

/** A judgment staged a second time, as the staging's query of second places reads it. */
export interface SecondJudgment {
  qid: string;
  docid: string;
  annotator: string;
  created_at: string | null;
  at: string;
  first: string;
}

/** A document id staged a second time (`at`), its first place `first`: the error the import rejects with. */
export function repeatedDocument(again: SecondDocument): StoreError {
  return new StoreError(
    `${again.at}: expected a new document id, found '${again.docid}' again (first at ${again.first})`,
  );
}

/** A judgment (pair, annotator and time) staged a second time (`at`), its first place `first`: the import's error. */
export function repeatedJudgment(again: SecondJudgment): StoreError {
  const when = again.created_at === null ? '' : ` at ${again.created_at}`;
  return new StoreError(
    `${again.at}: expected one judgment of document '${again.docid}' for query '${again.qid}' by ` +
      `${again.annotator}${when}, found a second (first at ${again.first})`,
  );
}

/** An import's report before its rows are counted: its files, nothing added, updated or pooled yet. */
export function emptyImportReport(files: (ImportOrigin & { records: number })[]): ImportReport {
  return {
    files,
    queries: { added: 0, updated: 0, unchanged: 0 },
    documents: { added: 0, updated: 0, unchanged: 0 },
    judgments: { added: 0, updated: 0, unchanged: 0 },
    pools: [],
  };
}
