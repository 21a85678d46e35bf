// Reading qrels and a run as rbp_eval 0.2 reads them, which is not as trec_eval does: ids are lower-cased, every
// line must have exactly its fields (no comments, no blank lines), a grade must be a non-negative number, a run
// keeps a document retrieved twice, and a file's topics keep the order they first appear in.
import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { FormatError } from '../../formats/formatError.ts';
import { FileReadError } from '../../formats/lineReader.ts';
import type { RunDocument } from './rankBiasedPrecision.ts';

/** One topic's judgments: docid → raw grade (lower-cased docids). */
export type TopicJudgments = Map<string, number>;

export interface RbpQrels {
  topics: Map<string, TopicJudgments>;
  /** rbp_eval's automatic relevance: binary at 1 when no grade is written with a '.', else fractional. */
  allGradesIntegral: boolean;
  /** The largest raw grade (0 for an empty file). */
  maximumGrade: number;
}

export interface RbpRun {
  /** Topics in the order of their first line; each topic's documents in line order. */
  topics: Map<string, RunDocument[]>;
  /** What rbp_eval would warn about while reading (a NaN score, commas in a rank, a changing runid). */
  warnings: string[];
}

interface Field {
  text: string;
  /** 1-based column of its first character. */
  column: number;
}

/** C's isspace in the C locale (space, \t \n \v \f \r): rbp_eval splits fields on any run of these. */
function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13);
}

/** A line's fields and their columns, scanned by hand (a regex over a million lines costs seconds). */
function fieldsOf(line: string): Field[] {
  const fields: Field[] = [];
  const length = line.length;
  let i = 0;
  while (i < length) {
    while (i < length && isSpace(line.charCodeAt(i))) i++;
    if (i === length) break;
    const start = i;
    while (i < length && !isSpace(line.charCodeAt(i))) i++;
    fields.push({ text: line.slice(start, i), column: start + 1 });
  }
  return fields;
}

const upperCaseLetter = /[A-Z]/;

/** C's tolower in the C locale: only A–Z change (ids are read as bytes, latin1, and most have no capital). */
function lowerCased(id: string): string {
  return upperCaseLetter.test(id) ? id.replace(/[A-Z]+/g, (letters) => letters.toLowerCase()) : id;
}

/** A decimal number as strtod reads it whole (no hexadecimal, no inf or nan: none belongs in a qrels or a run). */
const decimalNumber = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Lines of a latin1 file, without their '\n'; a last line without one still counts (fgets reads it). A gzip file
 * (its magic number first) is read gunzipped, as the project's other readers do; rbp_eval itself reads no gzip.
 */
async function linesOf(file: string): Promise<string[]> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
    if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
  } catch (error) {
    throw new FileReadError(file, error);
  }
  const text = bytes.toString('latin1');
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function fieldCountError(
  file: string,
  lineNumber: number,
  line: string,
  fields: Field[],
  layout: string,
  expected: number,
): FormatError {
  const column = fields.length > expected ? fields[expected]!.column : line.length + 1;
  return new FormatError(
    file,
    lineNumber,
    column,
    fields.length > expected
      ? `expected ${expected} fields '${layout}', found ${fields.length}: unexpected text after the last field`
      : `expected ${expected} fields '${layout}', found ${fields.length}` +
          (fields.length === 0 ? ' (rbp_eval reads no blank or comment line)' : ''),
  );
}

/** The line (1-based) that first judges `docid` for `qid`: looked for only when a repeat is reported. */
function firstJudgmentLine(lines: readonly string[], qid: string, docid: string): number {
  const index = lines.findIndex((line) => {
    const fields = fieldsOf(line);
    return lowerCased(fields[0]!.text) === qid && lowerCased(fields[2]!.text) === docid;
  });
  return index + 1;
}

/**
 * `negativeGradesAsZero`: read a negative grade (TREC's −2 junk) as 0, judged not relevant — what the normal output
 * does, as if the qrels had been mapped first; rbp_eval itself (and `--as rbp_eval`) refuses them.
 */
export async function readRbpQrels(file: string, options: { negativeGradesAsZero?: boolean } = {}): Promise<RbpQrels> {
  const topics = new Map<string, TopicJudgments>();
  let allGradesIntegral = true;
  let maximumGrade = 0;
  const lines = await linesOf(file);
  for (const [index, line] of lines.entries()) {
    const lineNumber = index + 1;
    const fields = fieldsOf(line);
    if (fields.length !== 4) throw fieldCountError(file, lineNumber, line, fields, 'qid iter docid rel', 4);
    const [qidField, , docidField, gradeField] = fields as [Field, Field, Field, Field];
    let grade = decimalNumber.test(gradeField.text) ? Number(gradeField.text) : Number.NaN;
    if (grade < 0 && options.negativeGradesAsZero) grade = 0;
    if (!(grade >= 0)) {
      throw new FormatError(
        file,
        lineNumber,
        gradeField.column,
        `expected a relevance grade ≥ 0 (rbp_eval reads no negative grade: map them to 0 first), found '${gradeField.text}'`,
      );
    }
    if (grade > maximumGrade) maximumGrade = grade;
    if (gradeField.text.includes('.')) allGradesIntegral = false;
    const qid = lowerCased(qidField.text);
    const docid = lowerCased(docidField.text);
    let judgments = topics.get(qid);
    if (!judgments) {
      judgments = new Map();
      topics.set(qid, judgments);
    }
    if (judgments.has(docid)) {
      throw new FormatError(
        file,
        lineNumber,
        docidField.column,
        `expected each document judged once per topic, found '${docidField.text}' of topic '${qidField.text}' ` +
          `again (first on line ${firstJudgmentLine(lines, qid, docid)}; rbp_eval compares ids lower-cased)`,
      );
    }
    judgments.set(docid, grade);
  }
  return { topics, allGradesIntegral, maximumGrade };
}

export async function readRbpRun(file: string): Promise<RbpRun> {
  const topics = new Map<string, RunDocument[]>();
  const warnings: string[] = [];
  let runid: string | undefined;
  let warnedAboutRunid = false;
  let warnedAboutCommas = false;
  for (const [index, line] of (await linesOf(file)).entries()) {
    const lineNumber = index + 1;
    const fields = fieldsOf(line);
    if (fields.length !== 6)
      throw fieldCountError(file, lineNumber, line, fields, 'qid iter docid rank score runid', 6);
    const [qidField, , docidField, rankField, scoreField, runidField] = fields as [
      Field,
      Field,
      Field,
      Field,
      Field,
      Field,
    ];
    const qid = lowerCased(qidField.text);
    let score: number;
    if (decimalNumber.test(scoreField.text)) score = Number(scoreField.text);
    else if (/^[+-]?nan$/i.test(scoreField.text)) {
      // Some runs hold one document scored NaN for a topic they found nothing for; rbp_eval scores it 0.
      warnings.push(
        `score for qid ${qid}, docid ${docidField.text}, on line ${lineNumber} of run file is NaN, converting to 0.0`,
      );
      score = 0;
    } else {
      throw new FormatError(
        file,
        lineNumber,
        scoreField.column,
        `expected a score (a decimal number), found '${scoreField.text}'`,
      );
    }
    let rankText = rankField.text;
    // Some runs write ranks with thousands separators (1,000); rbp_eval strips the commas once it has digits.
    if (/^[+-]?\d+,/.test(rankText)) {
      if (!warnedAboutCommas) warnings.push(`comma(s) in rank on line ${lineNumber} of run file, stripping`);
      warnedAboutCommas = true;
      rankText = rankText.replaceAll(',', '');
    }
    const rank = /^[+-]?\d+$/.test(rankText) ? Number(rankText) : Number.NaN;
    if (!(rank >= 0) || rank > 4294967295) {
      throw new FormatError(
        file,
        lineNumber,
        rankField.column,
        `expected a rank (an integer ≥ 0), found '${rankField.text}'`,
      );
    }
    if (runid === undefined) runid = runidField.text;
    else if (runidField.text !== runid && !warnedAboutRunid) {
      warnings.push(`runid changes on line ${lineNumber} of run file: was '${runid}', is now '${runidField.text}'`);
      warnedAboutRunid = true;
    }
    let documents = topics.get(qid);
    if (!documents) {
      documents = [];
      topics.set(qid, documents);
    }
    documents.push({ docid: lowerCased(docidField.text), score, rank });
  }
  return { topics, warnings };
}
