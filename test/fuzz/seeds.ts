// Realistic starting points the fuzzers mutate: the first few hundred lines of the real qrels in
// test/fixtures/qrels-real/, synthetic TREC qrels, runs, BEIR qrels TSVs, prels and JSONL/CSV/TSV records as
// the tools that write them do, and the study-file sketch of DESIGN.md ("The task DSL", copied to test/fixtures/design-sketch.assess) with generated
// studies in the same grammar.
import { closeSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { fixturesDir } from '../helpers.ts';

/** Lines read from the start of each real qrels file (not whole files: some are over 1 MB). */
const realLinesPerFile = 300;

function firstLines(file: string, count: number): string[] {
  const buffer = Buffer.alloc(64 * 1024);
  const fd = openSync(file, 'r');
  try {
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    const lines = buffer.subarray(0, read).toString('utf8').split('\n');
    if (read === buffer.length) lines.pop(); // a cut line
    return lines.slice(0, count);
  } finally {
    closeSync(fd);
  }
}

/** The first lines of every real qrels file, one array per file. */
export const realQrelsFiles: readonly (readonly string[])[] = readdirSync(join(fixturesDir, 'qrels-real'))
  .sort()
  .map((name) => firstLines(join(fixturesDir, 'qrels-real', name), realLinesPerFile).filter((line) => line !== ''));

/** Every real line, for splicing one file's lines into another. */
export const realQrelsLines: readonly string[] = realQrelsFiles.flat();

/** The study-file sketch: the first code block of DESIGN.md's "The task DSL" section, as copied into the fixtures. */
export const designSketch: string = (() => {
  return readFileSync(join(fixturesDir, 'design-sketch.assess'), 'utf8');
})();

const queryId = fc.oneof(
  fc.integer({ min: 1, max: 12 }).map(String),
  fc.integer({ min: 1, max: 6 }).map((n) => `q${n}`),
  fc.constantFrom('19335', 'PLAIN-2', 'Aftertaste/Distinguishing%20aftertaste', 'é1', '0'),
);
const docId = fc.oneof(
  fc.integer({ min: 1, max: 40 }).map((n) => `d${n}`),
  fc.constantFrom('MED-10', 'D1035833', '005b2j4b', 'PREMIUMTIMES#16963#2', 'insects/Phototaxis_0.txt', 'dö'),
);
const iteration = fc.constantFrom('0', 'Q0', '1', '0.5');
const label = fc.oneof(fc.integer({ min: -2, max: 4 }), fc.constantFrom(8, 16, 127, -127)).map(String);

/** A TREC qrels file as lines: `qid iter docid rel`, spaces or tabs. */
export const syntheticQrels = fc
  .tuple(fc.array(fc.tuple(queryId, iteration, docId, label), { maxLength: 60 }), fc.constantFrom(' ', '\t', '  '))
  .map(([rows, separator]) => rows.map((row) => row.join(separator)));

/** A TREC run as lines: per query, ranks 1… with descending scores and one tag (sometimes out of order). */
export const syntheticRun = fc
  .tuple(
    fc.array(fc.tuple(queryId, fc.array(docId, { minLength: 1, maxLength: 12 })), { maxLength: 8 }),
    fc.constantFrom('bm25', 'e5', 'run-1'),
    fc.boolean(),
    fc.constantFrom(' ', '\t'),
  )
  .map(([queries, tag, shuffled, separator]) => {
    const lines = queries.flatMap(([qid, docids]) =>
      docids.map((docid, i) => [qid, 'Q0', docid, i + 1, (docids.length - i) / 4, tag].join(separator)),
    );
    if (shuffled) lines.reverse();
    return lines;
  });

/** A BEIR qrels TSV: the `query-id corpus-id score` header (sometimes missing), then tab-separated rows. */
export const syntheticBeirQrels = fc
  .tuple(fc.boolean(), fc.array(fc.tuple(queryId, docId, label), { maxLength: 40 }))
  .map(([header, rows]) => [...(header ? ['query-id\tcorpus-id\tscore'] : []), ...rows.map((row) => row.join('\t'))]);

/** statAP prels (5 columns): recognised, not linted. */
export const syntheticPrels = fc
  .array(fc.tuple(queryId, docId, label), { maxLength: 20 })
  .map((rows) => rows.map(([q, d, l]) => `${q} ${d} ${l} 1 0.25`));

/** A slice of one real qrels file. */
export const realQrelsSlice = fc
  .tuple(fc.nat(), fc.nat(), fc.integer({ min: 0, max: realLinesPerFile }))
  .map(([file, start, count]) => {
    const lines = realQrelsFiles[file % realQrelsFiles.length]!;
    const from = start % Math.max(1, lines.length);
    return lines.slice(from, from + count);
  });

/** Any of the line-based TREC/BEIR shapes, as lines. */
export const trecLikeLines: fc.Arbitrary<string[]> = fc.oneof(
  { weight: 4, arbitrary: realQrelsSlice },
  { weight: 3, arbitrary: syntheticQrels },
  { weight: 4, arbitrary: syntheticRun },
  { weight: 2, arbitrary: syntheticBeirQrels },
  { weight: 1, arbitrary: syntheticPrels },
  { weight: 1, arbitrary: fc.array(fc.constantFrom('', '# comment', '  ', '{"_id": "1"}'), { maxLength: 4 }) },
);

const jsonId = fc.oneof(
  fc.integer({ min: 0, max: 30 }).map(String),
  fc.integer({ min: 0, max: 30 }),
  fc.constantFrom('__proto__', 'constructor', 'toString', '', ' ', 'd1', 1e308, -0, 0.5, true, null),
);
const jsonText = fc.oneof(fc.constantFrom('a table', 'Ünïcödé', '😀', 'line\nbreak', 'tab\there', ''), fc.string());

/** JSONL records: BEIR corpus or queries, CRUMB run lines, or generic records. */
export const syntheticJsonl = fc.oneof(
  fc.array(
    fc.tuple(jsonId, jsonText, jsonText).map(([id, title, text]) => JSON.stringify({ _id: id, title, text })),
    { maxLength: 30 },
  ),
  fc.array(
    fc.tuple(jsonId, jsonText).map(([id, text]) => JSON.stringify({ _id: id, text, metadata: { lang: 'en' } })),
    { maxLength: 30 },
  ),
  fc.array(
    fc
      .tuple(jsonId, fc.array(fc.tuple(jsonId, fc.double()), { maxLength: 5 }))
      .map(([id, items]) => JSON.stringify({ query: { id }, items: items.map(([d, score]) => ({ id: d, score })) })),
    { maxLength: 20 },
  ),
  fc
    .array(
      fc.dictionary(fc.constantFrom('qid', 'query', 'iid', 'text', 'a.b', '__proto__'), fc.jsonValue({ maxDepth: 2 })),
      { maxLength: 20 },
    )
    .map((records) => records.map((record) => JSON.stringify(record))),
);

const cell = fc.oneof(
  fc.constantFrom('1', 'd1', 'a "quoted" cell', '', 'x,y', 'x\ty', '1e309', '__proto__'),
  fc.string({ maxLength: 8 }),
);

/** CSV or TSV with a header (quoting as a spreadsheet writes it). */
export const syntheticDelimited = fc
  .tuple(
    fc.constantFrom(',', '\t'),
    fc.constantFrom(['_id', 'title', 'text'], ['_id', 'text'], ['qid', 'query'], ['id']),
    fc.array(fc.array(cell, { minLength: 1, maxLength: 4 }), { maxLength: 30 }),
  )
  .map(([separator, header, rows]) => {
    const quote = (value: string) =>
      /[",\t\n]/.test(value) || value.startsWith(' ') ? `"${value.replaceAll('"', '""')}"` : value;
    return [header.join(separator), ...rows.map((row) => row.map(quote).join(separator))];
  });

/** A statement of a study block, valid in the grammar of core/dsl/README.md. */
const studyStatement = fc.constantFrom(
  'title "A study"',
  'guidelines "guidelines.md"',
  'queries "data/queries.jsonl" { id: qid  text: query  instruction: instruction }',
  'corpus "data/corpus.jsonl" { id: _id  body: text  format: markdown  title: title }',
  'pool "runs/bm25.trec" depth 20',
  'scale ordinal {\n    0 "No" key "0"\n    1 "Yes" key "1" "On topic"\n  }',
  'scale binary { 0 "No" key "n" 1 "Yes" key "y" }',
  'aspect topical "On topic?"',
  'conditions from instruction',
  'derive label = all(conditions) ? 1 : topical ? 1 : 0',
  'derive label = !(topical && any(conditions)) || topical == 1 ? 0 : 1',
  'aspect coverage "How much is met?" levels 0 1 2',
  'derive label = count(conditions) > 1 ? 1 : count(conditions)',
  'derive label = coverage + topical * 2 - conditions[1] >= 2 ? 1 : 0',
  'import qrels "old.qrels" as crowd',
  'annotators alice bob carol',
  'adjudicator dana',
  'overlap 2',
  'blind',
  'judge "gpt-4.1-mini" { endpoint "https://api.openai.com/v1"  prompt "prompts/judge.md"  temperature 0.5  votes 3 }',
  'judge "local" { max_tokens 256  seed 7 }',
  'judge "batch-judge" { mode batch  budget 25 USD  accept when tau >= 0.9 and kappa >= 0.6 }',
  'agreement krippendorff ordinal target 0.67',
  'agreement cohen quadratic',
  'export qrels "out.qrels" from adjudicated',
  'export labels "labels.jsonl" from all per document',
  '# a comment',
);
const reviewStatement = fc.constantFrom(
  'title "A review"',
  'items "gen/items.jsonl" { id: iid  text: instruction  parent: qid  type: type  model: generator  source: src }',
  'taxonomy { C1 "Semantic boundary"  S1 "Entity-centric" }',
  'rubric levels good poor { clarity "Is it clear?"  fidelity }',
  'verdicts accept edit reject',
  'annotators ann ben',
  'agreement fleiss nominal',
  'export verdicts "verdicts.jsonl" from majority',
);

/** A study file of generated `study` and `review` blocks (mostly valid; the checks may still object). */
export const generatedStudyFile = fc
  .array(
    fc.oneof(
      fc
        .tuple(fc.constantFrom('s1', 's2', 'wqt-dev'), fc.array(studyStatement, { maxLength: 8 }))
        .map(([name, body]) => `study "${name}" {\n${body.map((s) => `  ${s}\n`).join('')}}\n`),
      fc
        .tuple(fc.constantFrom('r1', 'instructions'), fc.array(reviewStatement, { maxLength: 5 }))
        .map(([name, body]) => `review "${name}" {\n${body.map((s) => `  ${s}\n`).join('')}}\n`),
    ),
    { maxLength: 2 },
  )
  .map((blocks) => blocks.join('\n'));
