// A TREC run read the way ndeval reads it, which is not trec_eval's way: documents are ordered by the RANK column
// (the score is ignored unless -traditional), a topic may carry a task prefix ending in '-' ("wt09-1" is topic 1),
// a rank given twice for a topic is an error, and so is a document given twice (after the -M cut).
import { readFileSync } from 'node:fs';
import { isDiversityDataLine, lineFields, trimmedLength } from '../../formats/diversityQrels.ts';
import { FormatError } from '../../formats/formatError.ts';

export interface NdevalRunEntry {
  topic: number;
  docno: string;
  rank: number;
  score: number;
  line: number;
}

export interface NdevalRunTopic {
  topic: number;
  /** Docnos in the order ndeval evaluates them (by rank, or by score then docno with -traditional). */
  docnos: string[];
}

export interface NdevalRun {
  file: string;
  /** The tag (6th column) of the first line, as ndeval takes it. */
  runid: string;
  /** Ascending topic numbers. */
  topics: NdevalRunTopic[];
}

export interface NdevalRunOptions {
  /** -traditional: rank by score (descending), ties by docno (descending), as TREC's tools traditionally do. */
  traditional: boolean;
  /** -M: keep the first depth documents of each topic (0: all). */
  depth: number;
}

/** ndeval's topic numbers: digits (leading zeros allowed), optionally after a task prefix ending in '-'. */
export function ndevalTopicNumber(text: string): number | undefined {
  const digits = /^\d/.test(text) ? text : text.slice(text.indexOf('-') + 1);
  if (text.indexOf('-') < 0 && !/^\d/.test(text)) return undefined;
  if (!/^\d+$/.test(digits)) return undefined;
  const value = Number(digits);
  // ndeval's own reader refuses numbers past about a million (its int parser stops there).
  return value <= 1_000_000 ? value : undefined;
}

/** C's strcmp on latin1 strings (one character per byte): byte order. */
export function compareBytes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The score as sscanf("%lf") reads it: the longest numeric prefix, 0 when there is none. */
function scoreOf(text: string): number {
  const match = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/.exec(text);
  if (match) return Number(match[0]);
  const special = /^[-+]?(inf(inity)?|nan)/i.exec(text);
  if (special) return /nan/i.test(special[0]) ? Number.NaN : special[0].startsWith('-') ? -Infinity : Infinity;
  return 0;
}

export function parseNdevalRun(text: string, file: string, options: NdevalRunOptions): NdevalRun {
  const entries: NdevalRunEntry[] = [];
  let runid: string | undefined;
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  for (const [index, raw] of lines.entries()) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (!isDiversityDataLine(line)) continue;
    const fields = lineFields(line);
    if (fields.length < 6) {
      throw new FormatError(
        file,
        index + 1,
        trimmedLength(line) + 1,
        `expected 6 columns (topic Q0 docno rank score tag), found ${fields.length}`,
      );
    }
    const topic = ndevalTopicNumber(fields[0]!.text);
    if (topic === undefined) {
      throw new FormatError(
        file,
        index + 1,
        fields[0]!.column,
        `expected a topic number (digits, or a prefix ending in '-' then digits, as wt09-1), found '${fields[0]!.text}'`,
      );
    }
    if (!/^\d+$/.test(fields[3]!.text) || Number(fields[3]!.text) > 1_000_000) {
      throw new FormatError(
        file,
        index + 1,
        fields[3]!.column,
        `expected a rank (an integer ≥ 0; ndeval orders by rank), found '${fields[3]!.text}'`,
      );
    }
    runid ??= fields[5]!.text;
    entries.push({
      topic,
      docno: fields[2]!.text,
      rank: Number(fields[3]!.text),
      score: scoreOf(fields[4]!.text),
      line: index + 1,
    });
  }
  if (runid === undefined)
    throw new FormatError(file, 1, 1, 'expected run lines (topic Q0 docno rank score tag), found none');
  if (options.traditional) {
    entries.sort(
      (a, b) => a.topic - b.topic || (a.score < b.score ? 1 : a.score > b.score ? -1 : compareBytes(b.docno, a.docno)),
    );
    let topic = -1;
    let rank = 0;
    for (const entry of entries) {
      if (entry.topic !== topic) [topic, rank] = [entry.topic, 1];
      entry.rank = rank++;
    }
  } else {
    entries.sort((a, b) => a.topic - b.topic || a.rank - b.rank || a.line - b.line);
    for (let i = 1; i < entries.length; i++) {
      const [before, entry] = [entries[i - 1]!, entries[i]!];
      if (entry.topic === before.topic && entry.rank === before.rank) {
        throw new FormatError(
          file,
          entry.line,
          lineFields(lines[entry.line - 1]!)[3]!.column,
          `topic ${entry.topic} has rank ${entry.rank} twice (line ${before.line} too): ndeval needs one document per rank`,
        );
      }
    }
  }
  const topics: NdevalRunTopic[] = [];
  let current: NdevalRunTopic | undefined;
  let seen = new Map<string, number>();
  for (const entry of entries) {
    if (current?.topic !== entry.topic) {
      current = { topic: entry.topic, docnos: [] };
      topics.push(current);
      seen = new Map();
    }
    if (options.depth > 0 && current.docnos.length >= options.depth) continue;
    const earlier = seen.get(entry.docno);
    if (earlier !== undefined) {
      throw new FormatError(
        file,
        Math.max(entry.line, earlier),
        lineFields(lines[Math.max(entry.line, earlier) - 1]!)[2]!.column,
        `topic ${entry.topic} lists document ${entry.docno} twice (line ${Math.min(entry.line, earlier)} too)`,
      );
    }
    seen.set(entry.docno, entry.line);
    current.docnos.push(entry.docno);
  }
  return { file, runid, topics };
}

export function readNdevalRun(file: string, options: NdevalRunOptions): NdevalRun {
  return parseNdevalRun(readFileSync(file, 'latin1'), file, options);
}
