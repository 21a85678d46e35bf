// Reader of diversity qrels (`topic subtopic docno grade`), the judgments of TREC's diversity tasks that ndeval
// reads: one line per (topic, subtopic, document). Unlike TREC qrels the second column is not an ignored
// iteration but the subtopic (intent) the grade is for, so a document judged for four subtopics has four lines.
// Every malformed line is a positioned FormatError (file:line:col, what was expected, what was found).
import { readFileSync } from 'node:fs';
import { FormatError } from './formatError.ts';

export interface DiversityJudgment {
  /** The topic as written (ndeval needs a natural number: checked where ndeval's rules apply). */
  topic: string;
  /** The subtopic number, ≥ 0. */
  subtopic: number;
  docno: string;
  /** An integer; ndeval counts a grade > 0 as relevant to the subtopic. */
  grade: number;
  /** 1-based line of the judgment, for messages about it. */
  line: number;
  /** 1-based column of the topic field. */
  topicColumn: number;
}

export interface DiversityQrels {
  file: string;
  judgments: DiversityJudgment[];
}

/** One whitespace-separated field of a line with its 1-based column. */
export interface LineField {
  text: string;
  column: number;
}

/**
 * Fields are separated by C's isspace (space, \t, \v, \f, \r), as ndeval splits them — not by JavaScript's \s,
 * which on latin1 text would split a UTF-8 docno at its 0x85 or 0xA0 bytes.
 */
export function lineFields(line: string): LineField[] {
  const fields: LineField[] = [];
  for (const match of line.matchAll(/[^ \t\n\v\f\r]+/g)) fields.push({ text: match[0], column: match.index + 1 });
  return fields;
}

/** The line's length without its trailing C whitespace. */
export function trimmedLength(line: string): number {
  // A loop, not /\s+$/: that regex is quadratic on a long run of blanks followed by text.
  let end = line.length;
  while (end > 0 && ' \t\n\v\f\r'.includes(line[end - 1]!)) end--;
  return end;
}

/** What is wrong with one line of a diversity qrels file, with the column to point at, or undefined. */
export interface DiversityLineProblem {
  column: number;
  message: string;
}

const columnNames = ['topic', 'subtopic', 'docno', 'grade'] as const;

function describeFound(text: string): string {
  return text.length > 40 ? `'${text.slice(0, 40)}…'` : `'${text}'`;
}

/** Checks one data line (neither blank nor a comment); the judgment it holds, or the problem. */
export function parseDiversityLine(
  text: string,
  line: number,
): { judgment: DiversityJudgment; problem?: undefined } | { judgment?: undefined; problem: DiversityLineProblem } {
  const fields = lineFields(text);
  if (fields.length < 4) {
    // Three fields: a TREC qrels line with its iteration dropped, or a line without its subtopic. When the
    // second field is not a number, the subtopic is what is missing; otherwise the last column is.
    const subtopicMissing = fields.length === 3 && !/^\d+$/.test(fields[1]!.text);
    const missing = subtopicMissing ? 'subtopic (2nd column)' : columnNames[fields.length]!;
    return {
      problem: {
        column: trimmedLength(text) + 1,
        message: `expected 4 columns (topic subtopic docno grade), found ${fields.length}: the ${missing} is missing`,
      },
    };
  }
  if (fields.length > 4) {
    return {
      problem: {
        column: fields[4]!.column,
        message: `expected 4 columns (topic subtopic docno grade), found ${fields.length}`,
      },
    };
  }
  const [topic, subtopic, docno, grade] = fields as [LineField, LineField, LineField, LineField];
  if (!/^\d+$/.test(subtopic.text) || !Number.isSafeInteger(Number(subtopic.text))) {
    return {
      problem: {
        column: subtopic.column,
        message: `expected a subtopic number (an integer ≥ 0), found ${describeFound(subtopic.text)}`,
      },
    };
  }
  if (!/^[-+]?\d+$/.test(grade.text) || !Number.isSafeInteger(Number(grade.text))) {
    return {
      problem: {
        column: grade.column,
        message: `expected an integer grade, found ${describeFound(grade.text)}`,
      },
    };
  }
  return {
    judgment: {
      topic: topic.text,
      subtopic: Number(subtopic.text),
      docno: docno.text,
      grade: Number(grade.text),
      line,
      topicColumn: topic.column,
    },
  };
}

/** Blank lines and `#` comments carry no judgment (ndeval itself rejects both; we skip them as trec_eval does). */
export function isDiversityDataLine(text: string): boolean {
  return !/^[ \t\n\v\f\r]*(#|$)/.test(text);
}

/** Parses a whole file's text (latin1: one character per byte, so docnos compare as bytes, as in C). */
export function parseDiversityQrels(text: string, file: string): DiversityQrels {
  const judgments: DiversityJudgment[] = [];
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  for (const [index, raw] of lines.entries()) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (!isDiversityDataLine(line)) continue;
    const parsed = parseDiversityLine(line, index + 1);
    if (parsed.problem) throw new FormatError(file, index + 1, parsed.problem.column, parsed.problem.message);
    judgments.push(parsed.judgment);
  }
  return { file, judgments };
}

export function readDiversityQrels(file: string): DiversityQrels {
  return parseDiversityQrels(readFileSync(file, 'latin1'), file);
}
