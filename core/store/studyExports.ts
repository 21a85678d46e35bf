// What leaves a task database as files: a qrels file from one label source, every judgment with its provenance as
// JSONL (history included), and the long-format label file (`query_id,doc_id,annotator,label,…`: each annotator's
// current label of each pair, adjudications included with source `adjudicated`, LLM judges' suggestions with source
// `suggestion`) that `import --labels` merges and `agree` reads — one row per pair and annotator, as agreement needs
// (`agree` leaves the adjudicated rows out).
// Written to a temporary file next to the target and renamed into place, so a reader never sees half a file and a
// failed export leaves the old one.

import { once } from 'node:events';
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { judgeSuggestionsWithoutJudgment } from '../agreement/studyLabels.ts';
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
] as const;

interface JudgmentRow {
  qid: string;
  docid: string;
  annotator: string;
  label: number;
  created_at: string;
  source: string;
  rationale: string | null;
  shown_label: number | null;
  current: number;
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
      `SELECT p.qid, p.docid, a.name AS annotator, j.label, j.created_at, j.source, j.rationale, j.shown_label,
         EXISTS (SELECT 1 FROM current_judgment AS c WHERE c.id = j.id) AS current
       FROM judgment AS j
       JOIN pair AS p ON p.id = j.pair_id JOIN annotator AS a ON a.id = j.annotator_id
       WHERE p.study_id = ? AND NOT EXISTS (SELECT 1 FROM judgment_retraction AS r WHERE r.judgment_id = j.id)
       ORDER BY p.qid, p.docid, a.name, j.created_at, j.id`,
    )
    .iterate(studyId) as IterableIterator<JudgmentRow>;
}

export function exportJudgmentsJsonl(db: SqliteDatabase, studyId: number, file: string): Promise<number> {
  return writeAtomically(
    file,
    (function* () {
      for (const j of judgments(db, studyId)) {
        yield `${JSON.stringify({
          query_id: j.qid,
          doc_id: j.docid,
          annotator: j.annotator,
          label: j.label,
          created_at: j.created_at,
          source: j.source,
          rationale: j.rationale,
          shown_label: j.shown_label,
          current: j.current === 1,
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
  const rows = db
    .prepare(
      `SELECT p.qid, p.docid, a.name, j.label, j.created_at, j.source, j.rationale, j.shown_label
       FROM current_judgment AS j JOIN pair AS p ON p.id = j.pair_id JOIN annotator AS a ON a.id = j.annotator_id
       WHERE p.study_id = @study
       UNION ALL
       SELECT p.qid, p.docid, a.name, sg.label, sg.created_at, 'suggestion', sg.rationale, NULL
       FROM (${judgeSuggestionsWithoutJudgment}) AS sg
       JOIN pair AS p ON p.id = sg.pair_id JOIN annotator AS a ON a.id = sg.annotator_id
       WHERE p.study_id = @study
       ORDER BY 1, 2, 3, 5`,
    )
    .raw();
  return writeAtomically(
    file,
    // The rows are read only once the file is open: an open iterator would hold the connection if it cannot be.
    (function* () {
      yield `${labelFileColumns.join(',')}\n`;
      for (const row of rows.iterate({ study: studyId }) as IterableIterator<(string | number | null)[]>) {
        yield `${row.map(csvField).join(',')}\n`;
      }
    })(),
  ).then((lines) => lines - 1);
}
