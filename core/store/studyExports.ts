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
import { findLabelSource } from './labelSources.ts';
import type { LabelFileRow, StoredAnswers } from './port/exportsPort.ts';
import { labelsPer, type QrelsUnit } from './qrelsUnits.ts';
import { StoreError } from './studyDatabase.ts';
import type { StudyStore } from './studyStore.ts';

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
export async function exportQrels(
  store: StudyStore,
  studyId: number,
  from: string,
  file: string,
  unit: QrelsUnit = { per: 'pair' },
): Promise<number> {
  const { source, argument } = findLabelSource(from);
  const labels = await labelsPer(store, studyId, await source.labels(store, studyId, argument), unit);
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

/**
 * Every judgment, history included, with its provenance; with `answers` (the study's graded aspects), each with the
 * condition ticks and aspect answers it was stored with (`conditions`, `aspects`, as in exportAnswers).
 */
export async function exportJudgmentsJsonl(
  store: StudyStore,
  studyId: number,
  file: string,
  answers?: ReadonlySet<string>,
): Promise<number> {
  const rows = await store.exports.judgmentHistory(studyId, { answers: answers !== undefined });
  return writeAtomically(
    file,
    (function* () {
      for (const j of rows) {
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
          current: j.current,
          ...(answers && answersOf(j.answers, answers)),
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
export async function exportLabels(store: StudyStore, studyId: number, file: string): Promise<number> {
  return writeLabelFile(await store.exports.labelFileRows(studyId), file);
}

/** A current label's cells in the label file's columns. */
function labelFileCells(row: LabelFileRow): (string | number | null)[] {
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

/** The label file; with `gradedAspects`, two more columns holding each label's answers as JSON text. */
function writeLabelFile(
  rows: readonly LabelFileRow[],
  file: string,
  gradedAspects?: ReadonlySet<string>,
): Promise<number> {
  const columns = gradedAspects ? [...labelFileColumns, 'conditions', 'aspects'] : labelFileColumns;
  return writeAtomically(
    file,
    (function* () {
      yield `${columns.join(',')}\n`;
      for (const row of rows) {
        const cells = labelFileCells(row);
        if (gradedAspects) {
          const { conditions, aspects } = answersOf(row.answers, gradedAspects);
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
 * The answers behind a label, from what the store holds: a judgment's condition and aspect rows (what the Label
 * view stored), or the per-condition verdicts of the judge's call a suggestion shows (a vote for the suggested
 * label, so its conditions derive that label). `gradedAspects`: the study's aspects with levels, whose answers are
 * numbers.
 */
function answersOf(stored: StoredAnswers | undefined, gradedAspects: ReadonlySet<string>): LabelAnswers {
  const answers: LabelAnswers = { conditions: [], aspects: {} };
  if (stored?.conditions !== undefined || stored?.aspects !== undefined) {
    for (const [condition, satisfied] of stored.conditions ?? []) answers.conditions[condition - 1] = satisfied === 1;
    // A condition left without a row (none today: the Label view stores every one) reads as not satisfied.
    for (let i = 0; i < answers.conditions.length; i++) answers.conditions[i] ??= false;
    for (const [aspect, answer] of stored.aspects ?? []) {
      answers.aspects[aspect] = gradedAspects.has(aspect) ? answer : answer === 1;
    }
  } else if (stored?.parsedConditions) {
    answers.conditions = JSON.parse(stored.parsedConditions) as boolean[];
  }
  return answers;
}

/**
 * The label file (exportLabels' rows, columns and order) with two more columns, `conditions` and `aspects`: each
 * label's answers as JSON text (`[true,false,true]`, `{"topical":true,"coverage":2}`), as in exportAnswers.
 */
export async function exportLabelsWithAnswers(
  store: StudyStore,
  studyId: number,
  file: string,
  gradedAspects: ReadonlySet<string>,
): Promise<number> {
  return writeLabelFile(await store.exports.labelFileRows(studyId, { answers: true }), file, gradedAspects);
}

/**
 * Every current label with the answers behind it, one JSON object a line (the label file's rows, in its order):
 * `{"query_id", "doc_id", "annotator", "kind", "label", "source", "created_at", "conditions": [true, false, …],
 * "aspects": {"NAME": true | level}}` — `conditions` empty when the label had none (a label given without ticks,
 * a judge asked for a label), `aspects` empty likewise; a judge answers no aspects.
 */
export async function exportAnswers(
  store: StudyStore,
  studyId: number,
  file: string,
  gradedAspects: ReadonlySet<string>,
): Promise<number> {
  const rows = await store.exports.labelFileRows(studyId, { answers: true });
  return writeAtomically(
    file,
    (function* () {
      for (const row of rows) {
        yield `${JSON.stringify({
          query_id: row.qid,
          doc_id: row.docid,
          annotator: row.annotator,
          kind: row.kind,
          label: row.label,
          source: row.source,
          created_at: row.created_at,
          ...answersOf(row.answers, gradedAspects),
        })}\n`;
      }
    })(),
  );
}
