// What leaves a task database as files: a qrels file from one label source, every judgment with its provenance as
// JSONL (history included), and the long-format label file (`query_id,doc_id,annotator,label,…`: each annotator's
// current label of each pair, adjudications included with source `adjudicated`, LLM judges' suggestions with source
// `suggestion`) that `import --labels` merges and `agree` reads — one row per pair and annotator, as agreement needs
// (`agree` leaves the adjudicated rows out), and the answers behind those labels (exportAnswers: a person's condition
// ticks and aspect answers, a judge's per-condition verdicts), so a paper's condition vectors can be published.
// Written to a temporary file next to the target and renamed into place, so a reader never sees half a file and a
// failed export leaves the old one.

import { once } from 'node:events';
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { judgeSuggestionsWithoutJudgment } from '../agreement/studyLabels.ts';
import { labelKindSql } from './labelKind.ts';
import { findLabelSource } from './labelSources.ts';
import { labelsPer, type QrelsUnit } from './qrelsUnits.ts';
import type { SqliteDatabase } from './sqliteDatabase.ts';
import { StoreError } from './studyDatabase.ts';

/** The columns of a label file, in order (a header line names them). */
export const labelFileColumns = [
  'query_id',
  'doc_id',
  'annotator',
  'label',
  'created_at',
  'source',
  'rationale',
  'shown_label',
  'kind',
] as const;

interface JudgmentRow {
  qid: string;
  docid: string;
  annotator: string;
  /** Who made the label (core/store/labelKind.ts): person, crowd, gold, llm or judge. */
  kind: string;
  label: number;
  created_at: string;
  source: string;
  rationale: string | null;
  shown_label: number | null;
  current: number;
  id: number;
}

/** Writes `lines` (each with its '\n') to `file` through a temporary file renamed into place. */
export async function writeAtomically(file: string, lines: Iterable<string>): Promise<number> {
  const temporary = `${file}.partial-${process.pid}`;
  const out = createWriteStream(temporary);
  let count = 0;
  // A folder that does not exist, or one we may not write to, shows when the stream opens.
  const failed = new Promise<never>((_, reject) =>
    out.once('error', (error: NodeJS.ErrnoException) => {
      const reason =
        error.code === 'ENOENT' ? 'no such folder' : error.code === 'EACCES' ? 'permission denied' : error.message;
      reject(new StoreError(`cannot write ${file}: ${reason}`));
    }),
  );
  failed.catch(() => {});
  try {
    await Promise.race([once(out, 'open'), failed]);
    let chunk = '';
    for (const line of lines) {
      chunk += line;
      count++;
      if (chunk.length >= 1 << 16) {
        if (!out.write(chunk)) await once(out, 'drain');
        chunk = '';
      }
    }
    out.end(chunk);
    await Promise.race([once(out, 'finish'), failed]);
    renameSync(temporary, file);
    return count;
  } catch (error) {
    out.destroy();
    rmSync(temporary, { force: true });
    throw error;
  }
}

/**
 * `qid 0 docid label` lines from the label source `from` (annotator:NAME, majority, …), per labelled pair or, through
 * the corpus's `parent`, per document or per chunk (qrelsUnits.ts); returns the line count.
 */
export function exportQrels(
  db: SqliteDatabase,
  studyId: number,
  from: string,
  file: string,
  unit: QrelsUnit = { per: 'pair' },
): Promise<number> {
  const { source, argument } = findLabelSource(from);
  const labels = labelsPer(db, studyId, source.labels(db, studyId, argument), unit);
  // The qrels format splits on whitespace and skips lines starting with '#': an id it cannot hold is an error
  // (export --labels keeps any id).
  for (const l of labels) {
    for (const [what, id] of [
      ['query', l.qid],
      ['document', l.docid],
    ] as const) {
      if (id === '' || /\s/.test(id) || (what === 'query' && id.startsWith('#'))) {
        throw new StoreError(
          `cannot write ${file}: ${what} id '${id}' (pair ${l.qid} / ${l.docid}) ` +
            `${id.startsWith('#') ? "starts with '#'" : 'is empty or holds whitespace'}, which a qrels file cannot ` +
            'hold; export --labels keeps any id',
        );
      }
    }
  }
  return writeAtomically(
    file,
    (function* () {
      for (const l of labels) yield `${l.qid} 0 ${l.docid} ${l.label}\n`;
    })(),
  );
}

/** Every judgment of the study but the retracted (undone) ones: an undone label does not leave the database. */
function judgments(db: SqliteDatabase, studyId: number): IterableIterator<JudgmentRow> {
  return db
    .prepare(
      `SELECT j.id, p.qid, p.docid, a.name AS annotator, ${labelKindSql()} AS kind, j.label, j.created_at, j.source,
         j.rationale, j.shown_label, EXISTS (SELECT 1 FROM current_judgment AS c WHERE c.id = j.id) AS current
       FROM judgment AS j
       JOIN pair AS p ON p.id = j.pair_id JOIN annotator AS a ON a.id = j.annotator_id
       WHERE p.study_id = ? AND NOT EXISTS (SELECT 1 FROM judgment_retraction AS r WHERE r.judgment_id = j.id)
       ORDER BY p.qid, p.docid, a.name, j.created_at, j.id`,
    )
    .iterate(studyId) as IterableIterator<JudgmentRow>;
}

/**
 * Every judgment, history included, with its provenance; with `answers` (the study's graded aspects), each with the
 * condition ticks and aspect answers it was stored with (`conditions`, `aspects`, as in exportAnswers).
 */
export function exportJudgmentsJsonl(
  db: SqliteDatabase,
  studyId: number,
  file: string,
  answers?: ReadonlySet<string>,
): Promise<number> {
  const answersOf = answers && answersReader(db, answers);
  return writeAtomically(
    file,
    (function* () {
      for (const j of judgments(db, studyId)) {
        yield `${JSON.stringify({
          query_id: j.qid,
          doc_id: j.docid,
          annotator: j.annotator,
          kind: j.kind,
          label: j.label,
          created_at: j.created_at,
          source: j.source,
          rationale: j.rationale,
          shown_label: j.shown_label,
          current: j.current === 1,
          ...answersOf?.(j.id, null),
        })}\n`;
      }
    })(),
  );
}

/** A CSV field, quoted when it must be (RFC 4180). */
function csvField(value: string | number | null): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * Each annotator's current label of each pair as a row of the long-format label file (header first), and each LLM
 * judge's latest parsed suggestion of a pair it has no judgment of (source `suggestion`, its rationale kept): the
 * labels `agree STUDY` reads, so `agree` on the file gives the same numbers.
 */
export function exportLabels(db: SqliteDatabase, studyId: number, file: string): Promise<number> {
  return writeLabelFile(db, studyId, file);
}

/** A current label's cells in the label file's columns. */
function labelFileCells(row: CurrentLabelRow): (string | number | null)[] {
  const fields: Record<(typeof labelFileColumns)[number], string | number | null> = {
    query_id: row.qid,
    doc_id: row.docid,
    annotator: row.annotator,
    label: row.label,
    created_at: row.created_at,
    source: row.source,
    rationale: row.rationale,
    shown_label: row.shown_label,
    kind: row.kind,
  };
  return labelFileColumns.map((column) => fields[column]);
}

/** The label file; with `answersOf`, two more columns holding each label's answers as JSON text. */
function writeLabelFile(
  db: SqliteDatabase,
  studyId: number,
  file: string,
  answersOf?: (judgmentId: number | null, callId: number | null) => LabelAnswers,
): Promise<number> {
  const columns = answersOf ? [...labelFileColumns, 'conditions', 'aspects'] : labelFileColumns;
  return writeAtomically(
    file,
    // The rows are read only once the file is open: an open iterator would hold the connection if it cannot be.
    (function* () {
      yield `${columns.join(',')}\n`;
      for (const row of currentLabels(db, studyId)) {
        const cells = labelFileCells(row);
        if (answersOf) {
          const { conditions, aspects } = answersOf(row.judgment_id, row.call_id);
          cells.push(JSON.stringify(conditions), JSON.stringify(aspects));
        }
        yield `${cells.map(csvField).join(',')}\n`;
      }
    })(),
  ).then((lines) => lines - 1);
}

/** The answers a label was derived from: one true/false per condition of the query (1..n), and the study's aspects. */
export interface LabelAnswers {
  conditions: boolean[];
  /** A yes/no aspect's answer is true/false, a graded aspect's (`levels 0 1 2`) its level. */
  aspects: Record<string, boolean | number>;
}

/**
 * Reads the answers behind a label: a judgment's condition and aspect rows (what the Label view stored), or the
 * per-condition verdicts of the judge's call a suggestion shows (a vote for the suggested label, so its conditions
 * derive that label). `gradedAspects`: the study's aspects with levels, whose answers are numbers.
 */
function answersReader(db: SqliteDatabase, gradedAspects: ReadonlySet<string>) {
  const conditions = db.prepare(
    'SELECT condition, satisfied FROM condition_judgment WHERE judgment_id = ? ORDER BY condition',
  );
  const aspects = db.prepare('SELECT aspect, answer FROM aspect_judgment WHERE judgment_id = ? ORDER BY aspect');
  const judged = db.prepare('SELECT parsed_conditions FROM llm_call WHERE id = ?').pluck();
  return (judgmentId: number | null, callId: number | null): LabelAnswers => {
    const answers: LabelAnswers = { conditions: [], aspects: {} };
    if (judgmentId !== null) {
      for (const row of conditions.all(judgmentId) as { condition: number; satisfied: number }[]) {
        answers.conditions[row.condition - 1] = row.satisfied === 1;
      }
      // A condition left without a row (none today: the Label view stores every one) reads as not satisfied.
      for (let i = 0; i < answers.conditions.length; i++) answers.conditions[i] ??= false;
      for (const row of aspects.all(judgmentId) as { aspect: string; answer: number }[]) {
        answers.aspects[row.aspect] = gradedAspects.has(row.aspect) ? row.answer : row.answer === 1;
      }
    } else if (callId !== null) {
      const parsed = judged.get(callId) as string | null | undefined;
      if (parsed) answers.conditions = JSON.parse(parsed) as boolean[];
    }
    return answers;
  };
}

/**
 * The label file (exportLabels' rows, columns and order) with two more columns, `conditions` and `aspects`: each
 * label's answers as JSON text (`[true,false,true]`, `{"topical":true,"coverage":2}`), as in exportAnswers.
 */
export function exportLabelsWithAnswers(
  db: SqliteDatabase,
  studyId: number,
  file: string,
  gradedAspects: ReadonlySet<string>,
): Promise<number> {
  return writeLabelFile(db, studyId, file, answersReader(db, gradedAspects));
}

interface CurrentLabelRow {
  qid: string;
  docid: string;
  annotator: string;
  kind: string;
  label: number;
  created_at: string;
  source: string;
  rationale: string | null;
  shown_label: number | null;
  judgment_id: number | null;
  call_id: number | null;
}

/**
 * The current labels: each annotator's current judgment of each pair, and each LLM judge's latest parsed suggestion
 * of a pair it has no judgment of (source `suggestion`) — the rows of the label file, in its order.
 */
function currentLabels(db: SqliteDatabase, studyId: number): IterableIterator<CurrentLabelRow> {
  return db
    .prepare(
      `SELECT p.qid, p.docid, a.name AS annotator, ${labelKindSql()} AS kind, j.label, j.created_at, j.source, j.rationale,
         j.shown_label, j.id AS judgment_id, NULL AS call_id
       FROM current_judgment AS j JOIN pair AS p ON p.id = j.pair_id JOIN annotator AS a ON a.id = j.annotator_id
       WHERE p.study_id = @study
       UNION ALL
       SELECT p.qid, p.docid, a.name, ${labelKindSql()}, sg.label, sg.created_at, 'suggestion', sg.rationale, NULL, NULL,
         sg.llm_call_id
       FROM (${judgeSuggestionsWithoutJudgment}) AS sg
       JOIN pair AS p ON p.id = sg.pair_id JOIN annotator AS a ON a.id = sg.annotator_id
       WHERE p.study_id = @study
       ORDER BY 1, 2, 3, 6`,
    )
    .iterate({ study: studyId }) as IterableIterator<CurrentLabelRow>;
}

/**
 * Every current label with the answers behind it, one JSON object a line (the label file's rows, in its order):
 * `{"query_id", "doc_id", "annotator", "kind", "label", "source", "created_at", "conditions": [true, false, …],
 * "aspects": {"NAME": true | level}}` — `conditions` empty when the label had none (a label given without ticks,
 * a judge asked for a label), `aspects` empty likewise; a judge answers no aspects.
 */
export function exportAnswers(
  db: SqliteDatabase,
  studyId: number,
  file: string,
  gradedAspects: ReadonlySet<string>,
): Promise<number> {
  const answersOf = answersReader(db, gradedAspects);
  return writeAtomically(
    file,
    (function* () {
      for (const row of currentLabels(db, studyId)) {
        yield `${JSON.stringify({
          query_id: row.qid,
          doc_id: row.docid,
          annotator: row.annotator,
          kind: row.kind,
          label: row.label,
          source: row.source,
          created_at: row.created_at,
          ...answersOf(row.judgment_id, row.call_id),
        })}\n`;
      }
    })(),
  );
}
