// What each linted file type looks like, as data: its columns, how fields are separated, what a comment is, and
// which reader's behaviour the messages describe. The session and the rules read these instead of branching on
// type names.
import type { LintFileType } from './types.ts';

export interface FileFormat {
  type: LintFileType;
  /** Name for messages, e.g. "TREC qrels". */
  name: string;
  /** Column names, in order; a line needs at least this many fields. */
  columns: readonly string[];
  separator: 'whitespace' | 'tab';
  /**
   * How comment lines are recognised: trec_eval skips qrels lines whose first byte is `#`, run lines whose first
   * non-blank byte is `#`; a BEIR TSV has no comments (the csv reader returns them as rows).
   */
  comments: 'first-byte' | 'first-non-blank' | 'none';
  /** Whether fields past the last column are rejected (trec_eval qrels) or ignored by the reader. */
  extraColumns: 'error' | 'ignored';
  /** Whether an empty line is rejected by the reader (message given) or skipped (undefined). */
  blankLineProblem?: string;
  /** Line 1 is a header the reader always drops (BEIR). */
  header: boolean;
  /** The program whose behaviour messages describe. */
  reader: string;
  docidField: number;
  /** The integer label column (qrels), or -1. */
  labelField: number;
  /** The rank, score and tag columns (runs), or -1. */
  rankField: number;
  scoreField: number;
  tagField: number;
}

export const fileFormats: Readonly<Record<LintFileType, FileFormat>> = {
  qrels: {
    type: 'qrels',
    name: 'TREC qrels',
    columns: ['qid', 'iter', 'docid', 'rel'],
    separator: 'whitespace',
    comments: 'first-byte',
    extraColumns: 'error',
    blankLineProblem: "empty line: trec_eval stops at it with 'Malformed line'",
    header: false,
    reader: 'trec_eval',
    docidField: 2,
    labelField: 3,
    rankField: -1,
    scoreField: -1,
    tagField: -1,
  },
  run: {
    type: 'run',
    name: 'TREC run',
    columns: ['qid', 'Q0', 'docid', 'rank', 'score', 'tag'],
    separator: 'whitespace',
    comments: 'first-non-blank',
    extraColumns: 'ignored',
    header: false,
    reader: 'trec_eval',
    docidField: 2,
    labelField: -1,
    rankField: 3,
    scoreField: 4,
    tagField: 5,
  },
  'beir-qrels': {
    type: 'beir-qrels',
    name: 'BEIR qrels TSV',
    columns: ['query-id', 'corpus-id', 'score'],
    separator: 'tab',
    comments: 'none',
    extraColumns: 'ignored',
    blankLineProblem: 'empty line: the BEIR loader fails on it (a row with no fields)',
    header: true,
    reader: 'the BEIR loader',
    docidField: 1,
    labelField: 2,
    rankField: -1,
    scoreField: -1,
    tagField: -1,
  },
  // ndeval's judgments (core/formats/diversityQrels.ts): told by --type or the editor language, never by content —
  // a sorted file opens with hundreds of lines of one subtopic, which look exactly like TREC qrels.
  'diversity-qrels': {
    type: 'diversity-qrels',
    name: 'diversity qrels',
    columns: ['topic', 'subtopic', 'docno', 'grade'],
    separator: 'whitespace',
    comments: 'first-byte',
    extraColumns: 'error',
    header: false,
    reader: 'ndeval',
    docidField: 2,
    labelField: 3,
    rankField: -1,
    scoreField: -1,
    tagField: -1,
  },
};

/** "4 columns (qid iter docid rel)". */
export function describeColumns(format: FileFormat): string {
  const separated = format.separator === 'tab' ? 'tab-separated ' : '';
  return `${format.columns.length} ${separated}columns (${format.columns.join(' ')})`;
}
