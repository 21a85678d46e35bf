// The inputs of the instruction-following measures (README: "Instruction-following measures"): runs with their
// scores (win and flip rates compare scores, strictly), graded qrels per instruction or query, the instruction map
// (instruction id → query id, type, subset) and the trap tables of the negation failure rate. Every malformed line
// is a FormatError at its position; nothing is skipped silently.
import { FormatError } from '../../formats/formatError.ts';
import { readLines } from '../../formats/lineReader.ts';
import {
  columnOf,
  FieldSplitter,
  fieldBytes,
  fieldString,
  fieldText,
  isBlankLine,
  parseIntegerField,
} from '../../formats/trecFields.ts';
import { runLineScore } from '../../formats/trecRun.ts';

export interface ScoredDocument {
  docid: string;
  score: number;
}

/** A run: each query's documents in trec_eval's order (score descending, ties by docid descending, bytewise). */
export type ScoredRun = Map<string, ScoredDocument[]>;

/** Graded judgments: query (or instruction) id → document id → label. */
export type GradedQrels = Map<string, Map<string, number>>;

export interface InstructionInfo {
  queryId: string;
  type?: string;
  subset?: string;
}

/** trec_eval's order: score descending, ties by docid bytes descending (`bytes`: ids held one character a byte). */
function compareTrecEval(bytes: boolean) {
  // One character a byte: comparing the strings compares the bytes; UTF-8 text is compared as its bytes.
  const idsDescending = bytes
    ? (a: string, b: string) => (b < a ? -1 : b > a ? 1 : 0)
    : (a: string, b: string) => Buffer.compare(Buffer.from(b), Buffer.from(a));
  return (a: ScoredDocument, b: ScoredDocument): number => b.score - a.score || idsDescending(a.docid, b.docid);
}

/**
 * How MaxP turns passages (chunks) into their documents, and for which queries. A run may mix tasks: only the
 * queries in `queries` (all when absent) are rolled up, the others are read as the document rankings they are.
 */
export interface MaxpRule {
  /**
   * Chunk id → its document (the corpus's declared `parent`): a chunk becomes its document, an id with no parent
   * is a document itself (its score competes with its chunks'). Absent: ids `<docid>:<n>`, and any other is an
   * error. Keys in the run's encoding (latin1 for `bytes`).
   */
  parents?: ReadonlyMap<string, string>;
  /** The queries MaxP applies to (the run's ids, in its encoding); absent: every query. */
  queries?: ReadonlySet<string>;
}

/**
 * Reads a TREC run keeping scores. With `maxp`, passages become their document, scored by its best passage
 * (CRUMB's MaxP): by the rule's parents, or for `true` and a rule without parents, ids `<docid>:<n>` (an id without
 * `:<n>` is an error there, as a passage run should have none). Ids are read whole, as UTF-8 text — or with
 * `bytes` one character a byte (latin1), to be written back byte for byte.
 */
export async function readScoredRun(
  file: string,
  options: { maxp?: boolean | MaxpRule; bytes?: boolean; onLastTag?: (tag: string) => void } = {},
): Promise<ScoredRun> {
  const rule: MaxpRule | undefined = options.maxp === true ? {} : options.maxp || undefined;
  const idOf = options.bytes ? fieldBytes : fieldString;
  const fields = new FieldSplitter(6);
  const byQuery = new Map<string, Map<string, { score: number; line: number }>>();
  let lines = 0;
  await readLines(file, (bytes, start, end, line) => {
    if (isBlankLine(bytes, start, end)) return;
    const count = fields.split(bytes, start, end);
    const { starts, ends } = fields;
    if (bytes[starts[0]!] === 35) return;
    const score = runLineScore(file, line, bytes, start, end, fields, count);
    options.onLastTag?.(idOf(bytes, starts[5]!, ends[5]!));
    lines++;
    const qid = idOf(bytes, starts[0]!, ends[0]!);
    let docid = idOf(bytes, starts[2]!, ends[2]!);
    let documents = byQuery.get(qid);
    if (!documents) {
      documents = new Map();
      byQuery.set(qid, documents);
    }
    if (rule && (!rule.queries || rule.queries.has(qid))) {
      if (rule.parents) {
        docid = rule.parents.get(docid) ?? docid;
      } else {
        const cut = docid.lastIndexOf(':');
        if (cut <= 0 || !/^\d+$/.test(docid.slice(cut + 1))) {
          throw new FormatError(
            file,
            line,
            columnOf(bytes, start, starts[2]!),
            `expected a passage id '<docid>:<n>' (--maxp), found '${fieldText(bytes, starts[2]!, ends[2]!)}'; ` +
              '--parents CORPUS maps chunk ids of another form to their documents',
          );
        }
        docid = docid.slice(0, cut);
      }
      const best = documents.get(docid);
      if (!best || score > best.score) documents.set(docid, { score, line });
      return;
    }
    const first = documents.get(docid);
    if (first) {
      throw new FormatError(
        file,
        line,
        columnOf(bytes, start, starts[2]!),
        `document '${fieldText(bytes, starts[2]!, ends[2]!)}' is ranked again for query ` +
          `'${fieldText(bytes, starts[0]!, ends[0]!)}' (first on line ${first.line})`,
      );
    }
    documents.set(docid, { score, line });
  });
  if (lines === 0) throw new FormatError(file, 1, 1, 'the run has no results (it is empty or only comments)');
  const run: ScoredRun = new Map();
  for (const [qid, documents] of byQuery) {
    run.set(
      qid,
      [...documents].map(([docid, { score }]) => ({ docid, score })).sort(compareTrecEval(options.bytes ?? false)),
    );
  }
  return run;
}

/**
 * Reads `qid iter docid label` lines; a second judgment of a document for a query is an error. `firstLines` gets
 * the line each qid is first judged on (for errors about a qid).
 */
export async function readGradedQrels(file: string, firstLines?: Map<string, number>): Promise<GradedQrels> {
  const fields = new FieldSplitter(5);
  const qrels: GradedQrels = new Map();
  const lineOf = new Map<string, number>();
  await readLines(file, (bytes, start, end, line) => {
    if (isBlankLine(bytes, start, end)) return;
    const count = fields.split(bytes, start, end);
    const { starts, ends } = fields;
    if (bytes[starts[0]!] === 35) return;
    if (count !== 4) {
      throw new FormatError(file, line, 1, `expected 4 fields 'qid iter docid label', found ${count}`);
    }
    const label = parseIntegerField(bytes, starts[3]!, ends[3]!);
    if (Number.isNaN(label)) {
      throw new FormatError(
        file,
        line,
        columnOf(bytes, start, starts[3]!),
        `expected a whole-number label, found '${fieldText(bytes, starts[3]!, ends[3]!)}'`,
      );
    }
    const qid = fieldString(bytes, starts[0]!, ends[0]!);
    const docid = fieldString(bytes, starts[2]!, ends[2]!);
    const key = `${qid}\u0000${docid}`;
    const first = lineOf.get(key);
    if (first !== undefined) {
      throw new FormatError(
        file,
        line,
        columnOf(bytes, start, starts[2]!),
        `document '${fieldText(bytes, starts[2]!, ends[2]!)}' is judged again for '${fieldText(bytes, starts[0]!, ends[0]!)}' (first on line ${first})`,
      );
    }
    lineOf.set(key, line);
    let judged = qrels.get(qid);
    if (!judged) {
      judged = new Map();
      qrels.set(qid, judged);
      firstLines?.set(qid, line);
    }
    judged.set(docid, label);
  });
  return qrels;
}

/**
 * The instruction map: tab-separated `instruction_id, query_id[, type[, subset]]`, an optional header line naming
 * `instruction_id` first; `#` lines are comments. An instruction listed twice is an error.
 */
export async function readInstructionMap(file: string): Promise<Map<string, InstructionInfo>> {
  const map = new Map<string, InstructionInfo & { line: number }>();
  await readLines(file, (bytes, start, end, line) => {
    if (isBlankLine(bytes, start, end) || bytes[start] === 35) return;
    const text = Buffer.from(bytes.subarray(start, end)).toString('utf8').replace(/\r$/, '');
    const cells = text.split('\t').map((c) => c.trim());
    if (map.size === 0 && cells[0] === 'instruction_id') return;
    if (cells.length < 2 || cells.length > 4) {
      throw new FormatError(
        file,
        line,
        1,
        `expected 'instruction_id<TAB>query_id[<TAB>type[<TAB>subset]]', found ${cells.length} field(s)`,
      );
    }
    const empty = cells.slice(0, 2).indexOf('');
    if (empty >= 0) {
      // The column where the empty field starts: after the tabs before it.
      const column = text.split('\t').slice(0, empty).join('\t').length + (empty > 0 ? 2 : 1);
      throw new FormatError(
        file,
        line,
        column,
        `expected ${empty === 0 ? 'an instruction id' : 'a query id'}, found an empty field`,
      );
    }
    const [id, queryId, type, subset] = cells as [string, string, string?, string?];
    const first = map.get(id);
    if (first)
      throw new FormatError(file, line, 1, `instruction '${id}' is mapped again (first on line ${first.line})`);
    map.set(id, { queryId, ...(type && { type }), ...(subset && { subset }), line });
  });
  return new Map([...map].map(([id, { line: _line, ...info }]) => [id, info]));
}

/** FollowTable's instruction ids `{q}_{i}`: the query id is everything before the last `_`. */
export function defaultInstructionInfo(instructionId: string): InstructionInfo | undefined {
  const cut = instructionId.lastIndexOf('_');
  return cut > 0 ? { queryId: instructionId.slice(0, cut) } : undefined;
}

/**
 * The trap tables: `instruction_id docid` per line (whitespace-separated); `#` lines are comments. `lines` gets the
 * line of each trap, keyed `instruction_id\0docid`.
 */
export async function readTraps(file: string, lines?: Map<string, number>): Promise<Map<string, Set<string>>> {
  const fields = new FieldSplitter(3);
  const traps = new Map<string, Set<string>>();
  const lineOf = lines ?? new Map<string, number>();
  await readLines(file, (bytes, start, end, line) => {
    if (isBlankLine(bytes, start, end)) return;
    const count = fields.split(bytes, start, end);
    const { starts, ends } = fields;
    if (bytes[starts[0]!] === 35) return;
    if (count !== 2) throw new FormatError(file, line, 1, `expected 2 fields 'instruction_id docid', found ${count}`);
    const id = fieldString(bytes, starts[0]!, ends[0]!);
    const docid = fieldString(bytes, starts[1]!, ends[1]!);
    const key = `${id}\u0000${docid}`;
    const first = lineOf.get(key);
    if (first !== undefined) {
      throw new FormatError(
        file,
        line,
        columnOf(bytes, start, starts[1]!),
        `'${fieldText(bytes, starts[1]!, ends[1]!)}' is a trap of '${fieldText(bytes, starts[0]!, ends[0]!)}' again (first on line ${first})`,
      );
    }
    lineOf.set(key, line);
    let set = traps.get(id);
    if (!set) {
      set = new Set();
      traps.set(id, set);
    }
    set.add(docid);
  });
  return traps;
}
