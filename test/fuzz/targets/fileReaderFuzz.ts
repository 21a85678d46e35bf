// Proves, on mutated qrels, runs and BEIR files written to disk (plain, with raw invalid UTF-8 bytes, or gzip,
// sometimes damaged): readQrels, readRunByQuery and lintFile settle within the time bound and reject only with
// their documented errors (a positioned FormatError for bad content, a FileReadError for a damaged gzip), with
// positions inside the file; what they return is consistent; lintFile equals lintText on the same valid text.
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { FormatError } from '../../../core/formats/formatError.ts';
import { FileReadError } from '../../../core/formats/lineReader.ts';
import { type Qrels, readQrels } from '../../../core/formats/trecQrels.ts';
import { judgedNegative, notJudged, type RunQuery, readRunByQuery } from '../../../core/formats/trecRun.ts';
import { lintFile } from '../../../core/lint/lintFile.ts';
import { lintText } from '../../../core/lint/lintText.ts';
import { type LintFileType, lintFileTypes } from '../../../core/lint/types.ts';
import { scratchDir } from '../../helpers.ts';
import { type FuzzTarget, fuzzParameters, type InputRecorder, timedAsync } from '../harness.ts';
import { applyByteEdits, byteEdit, mutatedDocument } from '../mutations.ts';
import { checkLintRanges, TextLines } from '../rangeChecks.ts';
import { trecLikeLines } from '../seeds.ts';

export const fileReaderRuns = 2_000;

interface FileInput {
  /** The bytes written to disk. */
  file: Buffer;
  /** What the readers read from it (the gunzipped bytes of a gzip file); undefined when nothing can be told. */
  content: Buffer | undefined;
  /** A gzip file whose compressed bytes were damaged: a FileReadError is a fair answer. */
  damagedGzip: boolean;
  type: LintFileType | undefined;
}

const fileInput: fc.Arbitrary<FileInput> = fc
  .record({
    text: mutatedDocument(trecLikeLines),
    byteEdits: fc.oneof(
      { weight: 5, arbitrary: fc.constant([]) },
      { weight: 2, arbitrary: fc.array(byteEdit, { maxLength: 3 }) },
    ),
    gzip: fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    gzipDamage: fc.oneof(
      { weight: 4, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.boolean()) },
    ),
    type: fc.option(fc.constantFrom<LintFileType>(...lintFileTypes), { nil: undefined }),
  })
  .map(({ text, byteEdits, gzip, gzipDamage, type }) => {
    const content = applyByteEdits(text, byteEdits);
    if (!gzip) return { file: content, content, damagedGzip: false, type };
    let file = gzipSync(content);
    if (gzipDamage === undefined) return { file, content, damagedGzip: false, type };
    const [at, byte, cut] = gzipDamage;
    file = Buffer.from(file);
    if (cut) file = file.subarray(0, at % file.length);
    else file[at % file.length] = byte;
    return { file, content: lenientGunzip(file), damagedGzip: true, type };
  });

/**
 * What a damaged gzip still yields (the readers may stop at the damage or read what comes before it); the file
 * itself when the damage hit the magic number (the readers then read it as plain text).
 */
function lenientGunzip(file: Buffer): Buffer | undefined {
  if (file.length < 2 || file[0] !== 0x1f || file[1] !== 0x8b) return file;
  try {
    return gunzipSync(file, { finishFlush: constants.Z_SYNC_FLUSH });
  } catch {
    return undefined;
  }
}

/** A valid qrels file judging the queries and documents of the seeds, for reading runs against. */
function judgedQrelsText(): string {
  const lines: string[] = [];
  const queries = ['1', '2', '3', '4', '5', '6', 'q1', 'q2', 'q3', '19335', 'PLAIN-2', 'é1'];
  queries.forEach((qid, q) => {
    for (let d = 1; d <= 40; d += 1 + (q % 3)) lines.push(`${qid} 0 d${d} ${(d + q) % 4 === 0 ? -1 : (d + q) % 3}`);
    lines.push(`${qid} 0 MED-10 2`);
  });
  return `${lines.join('\n')}\n`;
}

export const fileReaderFuzz: FuzzTarget = {
  async run(recorder: InputRecorder) {
    const dir = scratchDir('qrels-studio-fuzz-');
    try {
      const judgedPath = join(dir, 'judged.qrels');
      writeFileSync(judgedPath, judgedQrelsText());
      const judged = await readQrels(judgedPath);
      const path = join(dir, 'input');
      await recorder.property('readQrels, readRunByQuery, lintFile', () =>
        fc.assert(
          fc.asyncProperty(fileInput, async (input) => {
            recorder.start('readQrels, readRunByQuery, lintFile', input.file);
            writeFileSync(path, input.file);
            await readAll(path, input, judged);
          }),
          fuzzParameters(3, fileReaderRuns),
        ),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return recorder.report();
  },
};

async function readAll(path: string, input: FileInput, judged: Qrels): Promise<void> {
  const size = Math.max(input.file.length, input.content?.length ?? 0);
  const text = input.content?.toString('utf8');
  const lines = text === undefined ? undefined : new TextLines(text);
  const readRun = async (qrels: Qrels) => {
    const checkQuery = (query: RunQuery) => checkRunQuery(query, qrels, lines);
    const summary = await settle(
      timedAsync('readRunByQuery', size, () => readRunByQuery(path, qrels, checkQuery)),
      input,
      lines,
    );
    if (summary !== undefined) assert.equal(typeof summary.runid, 'string');
  };
  // Concurrently, as the extension does (and so the waits for the disk overlap).
  const [linted, qrels] = await Promise.all([
    settle(
      timedAsync('lintFile', size, () => lintFile(path, { type: input.type, name: '<text>' })),
      input,
      lines,
    ),
    settle(
      timedAsync('readQrels', size, () => readQrels(path)),
      input,
      lines,
    ),
    readRun(judged),
  ]);
  if (linted !== undefined && lines !== undefined && text !== undefined) {
    checkLintRanges(lines, linted.diagnostics);
    if (!input.damagedGzip && Buffer.from(text, 'utf8').equals(input.content!)) {
      assert.deepEqual(linted, lintText(text, input.type, '<text>'), 'lintFile and lintText differ on the same text');
    }
  }
  if (qrels !== undefined) {
    checkQrels(qrels, lines);
    await readRun(qrels); // the file read both as the qrels and as a run against them
  }
}

/**
 * The value of a reader's promise, or undefined when it rejected with a documented error: a FormatError positioned
 * in the file, or a FileReadError for a damaged gzip. Anything else is rethrown: a bug.
 */
async function settle<T>(promise: Promise<T>, input: FileInput, lines: TextLines | undefined): Promise<T | undefined> {
  try {
    return await promise;
  } catch (error) {
    if (error instanceof FormatError) {
      if (lines !== undefined) {
        assert.ok(lines.isPosition(error.line, error.column), `FormatError outside the file: ${error.message}`);
        if (error.related) {
          assert.ok(lines.isPosition(error.related.line, error.related.column), `related outside: ${error.message}`);
        }
      }
      return undefined;
    }
    if (error instanceof FileReadError && input.damagedGzip) return undefined;
    throw error;
  }
}

function checkQrels(qrels: Qrels, lines: TextLines | undefined): void {
  assert.equal(qrels.queries.length, qrels.queryIndex.size, 'one index entry per query');
  assert.equal(qrels.labels.length, qrels.judgments.count, 'one label per judgment');
  for (const query of qrels.queries) {
    if (lines !== undefined) assert.ok(query.firstLine >= 1 && query.firstLine <= lines.count, 'firstLine in the file');
    const { labels, counts } = query.labelCounts;
    assert.equal(labels.length, counts.length);
    for (let i = 0; i < labels.length; i++) {
      assert.ok(labels[i]! >= 0 && counts[i]! > 0 && (i === 0 || labels[i - 1]! < labels[i]!), 'label counts sorted');
    }
  }
}

function checkRunQuery(query: RunQuery, qrels: Qrels, lines: TextLines | undefined): void {
  assert.ok(query.query >= 0 && query.query < qrels.queries.length, 'a query of the qrels');
  assert.ok(query.count > 0, 'a query is handed over with documents');
  for (let i = 0; i < query.count; i++) {
    const judgment = query.judgments.data[i]!;
    assert.ok(Number.isFinite(query.scores.data[i]!), 'finite scores');
    assert.ok(judgment >= 0 || judgment === notJudged || judgment === judgedNegative, `judgment ${judgment}`);
    // A position is found again by reading the file (RunQuery.position): the first, middle and last documents.
    if (lines !== undefined && (i === 0 || i === query.count >> 1 || i === query.count - 1)) {
      const { line, column } = query.position(i);
      assert.ok(lines.isPosition(line, column), `docid position ${line} in the file`);
    }
  }
}
