import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { checkStudyFiles, lintStudyText } from '../../../core/dsl/lint.ts';
import { parseStudyFile } from '../../../core/dsl/parser.ts';
import { nodeStudyHost, type StudyHost } from '../../../core/dsl/studyHost.ts';
import { formatRange } from '../../../core/dsl/textPosition.ts';
import { scratchDir } from '../../helpers.ts';
import { sketch } from './dslTestHelpers.ts';

/** A run line has six columns; the test's own tiny run check counts the lines that do not. */
async function tinyRunCheck(path: string) {
  const lines = readFileSync(path, 'utf8').split('\n');
  const bad = lines
    .map((line, i) => ({ line, number: i + 1 }))
    .filter(({ line }) => line !== '' && line.trim().split(/\s+/).length !== 6);
  const first = bad[0];
  return {
    errors: bad.length,
    ...(first && {
      first: {
        line: first.number,
        column: 1,
        message: `expected 6 columns, found ${first.line.trim().split(/\s+/).length}`,
      },
    }),
  };
}

/** The sketch's project on disk, with a few things wrong in it. */
function sketchProject(): string {
  const dir = scratchDir('dsl-files-');
  for (const sub of ['data', 'runs', 'prompts', 'gen']) mkdirSync(join(dir, sub));
  writeFileSync(
    join(dir, 'data/queries.jsonl'),
    '{"_id": "q1", "text": "tables of rivers", "instruction": "only Europe"}\n',
  );
  writeFileSync(
    join(dir, 'data/tables.jsonl'),
    '{"table_id": "t1", "table": "| a |", "caption": "Rivers"}\n{"table_id": "t2", "table": "| b |", "title": "x"}\n',
  );
  writeFileSync(join(dir, 'runs/bm25.trec'), 'q1 Q0 t1 1 2.5 bm25\nq1 Q0 t2 2 1.5 bm25\n');
  writeFileSync(join(dir, 'runs/e5.trec'), 'q1 Q0 t1 1 2.5 e5\nq1 Q0 t2 2\nq1 t3\n');
  writeFileSync(
    join(dir, 'prompts/judge.md'),
    'Query: {{query}}\nInstruction: {{ instruction }}\nTable: {{document}}\nScale: {{scale}} {{instrucion}}\n{{model}}\n',
  );
  writeFileSync(
    join(dir, 'gen/instructions.jsonl'),
    '{"iid": "i1", "instruction": "x", "qid": "q1", "type": "C1", "generator": "gpt"}\n',
  );
  // guidelines.md is missing on purpose.
  return dir;
}

function summary(text: string, found: { range: { start: number; end: number }; code: string }[]): string[] {
  return found.map((d) => `${formatRange(text, d.range)} ${d.code}`);
}

test('cross-file checks on the sketch: missing file, missing field, broken run, unknown template variables', async () => {
  const dir = sketchProject();
  const studyPath = join(dir, 'wqt-dev.assess');
  const host = nodeStudyHost({ checkRunFile: tinyRunCheck });
  const found = await checkStudyFiles(parseStudyFile(sketch), studyPath, host);
  // Line 4 maps `id: qid` and `text: query`; the file has `_id` and `text`.
  assert.deepEqual(summary(sketch, found), [
    '3:14-3:29 file-not-found',
    '4:38-4:41 unknown-field',
    '4:49-4:54 unknown-field',
    '7:11-7:25 run-file-invalid',
    '19:71-19:89 prompt-variable',
    '19:71-19:89 prompt-variable',
  ]);
  const message = (code: string, nth = 0) => found.filter((d) => d.code === code)[nth]!.message;
  assert.equal(message('file-not-found'), `file not found: ${join(dir, 'guidelines.md')}`);
  assert.equal(
    message('unknown-field'),
    "field 'qid' is not in data/queries.jsonl (its fields: _id, text, instruction); did you mean '_id'?",
  );
  // `text: query` where the file has a `text` field: no misspelling, but the field named as the role is offered.
  assert.equal(
    message('unknown-field', 1),
    "field 'query' is not in data/queries.jsonl (its fields: _id, text, instruction); the nearest: 'text'",
  );
  assert.deepEqual(
    found.filter((d) => d.code === 'unknown-field')[1]!.fixes?.map((f) => [f.title, f.edits[0]!.newText]),
    [["Use field 'text'", 'text']],
  );
  assert.equal(
    message('run-file-invalid'),
    'runs/e5.trec does not parse: 2 errors, first at 2:1: expected 6 columns, found 4',
  );
  assert.equal(
    message('prompt-variable'),
    'prompts/judge.md line 4 uses {{instrucion}}, which the judge does not fill in (available: query, ' +
      'instruction, document, title, conditions, scale); did you mean {{instruction}}?',
  );
  assert.match(message('prompt-variable', 1), /^prompts\/judge\.md line 5 uses \{\{model\}\}/);
  // The missing-field fix replaces the field name with the close one.
  const fix = found.find((d) => d.code === 'unknown-field')!.fixes![0]!;
  assert.deepEqual(fix.edits, [{ range: found.find((d) => d.code === 'unknown-field')!.range, newText: '_id' }]);
});

test('fields of every JSONL record sampled count: a field only in the second record is not missing', async () => {
  const dir = sketchProject();
  const text = 'study "s" {\n  corpus "data/tables.jsonl" { id: table_id  body: table  title: title }\n}\n';
  const found = await checkStudyFiles(
    parseStudyFile(text),
    join(dir, 's.assess'),
    nodeStudyHost({ checkRunFile: tinyRunCheck }),
  );
  assert.deepEqual(found, []);
});

test('lintStudyText: syntax, semantic and cross-file diagnostics together, sorted by position', async () => {
  const dir = sketchProject();
  const text = sketch.replace('title "WQT', 'titel "WQT').replace('key "2"', 'key "j"');
  const found = await lintStudyText(text, join(dir, 'wqt-dev.assess'), nodeStudyHost({ checkRunFile: tinyRunCheck }));
  assert.deepEqual(summary(text, found), [
    '2:3-2:8 unknown-keyword',
    '3:14-3:29 file-not-found',
    '4:38-4:41 unknown-field',
    '4:49-4:54 unknown-field',
    '7:11-7:25 run-file-invalid',
    '12:24-12:27 navigation-key',
    '19:71-19:89 prompt-variable',
    '19:71-19:89 prompt-variable',
  ]);
});

test('the default host lints pool runs with core/lint', async () => {
  const dir = sketchProject();
  const text = 'study "s" {\n  pool "runs/e5.trec" depth 10\n  pool "runs/bm25.trec" depth 10\n}\n';
  const found = await checkStudyFiles(parseStudyFile(text), join(dir, 's.assess'), nodeStudyHost());
  assert.deepEqual(summary(text, found), ['2:8-2:22 run-file-invalid']);
  assert.match(found[0]!.message, /^runs\/e5\.trec does not parse: 2 errors, first at 2:1: /);
});

test('checks ask only the host: an in-memory host, no file on disk', async () => {
  const files = new Map<string, string[]>([
    ['/virtual/q.jsonl', ['qid', 'query']],
    ['/virtual/c.jsonl', ['docid', 'body']],
  ]);
  const asked: string[] = [];
  const host: StudyHost = {
    exists: async (path) => {
      asked.push(`exists ${path}`);
      return files.has(path) || path === '/virtual/p.md';
    },
    readFields: async (path) => {
      asked.push(`fields ${path}`);
      const fields = files.get(path);
      return fields ? { fields } : { problem: 'no such file' };
    },
    checkRunFile: async () => ({ errors: 0 }),
    readText: async () => 'Judge {{query}} against {{document}}; {{scale}}',
  };
  const text = [
    'study "s" {',
    '  queries "q.jsonl" { id: qid  text: query }',
    '  corpus "c.jsonl" { id: docid  body: bdy }',
    '  judge "m" { prompt "p.md" }',
    '}',
  ].join('\n');
  const found = await checkStudyFiles(parseStudyFile(text), '/virtual/s.assess', host);
  assert.deepEqual(summary(text, found), ['3:39-3:42 unknown-field']);
  assert.equal(found[0]!.fixes![0]!.edits[0]!.newText, 'body');
  // Each file was asked about once, however many checks needed it.
  assert.equal(asked.filter((a) => a === 'fields /virtual/c.jsonl').length, 1);
  assert.equal(asked.filter((a) => a === 'exists /virtual/q.jsonl').length, 1);
});

test('a data file whose fields cannot be read; conditions read from a field that does not exist', async () => {
  const dir = scratchDir('dsl-files-');
  writeFileSync(join(dir, 'q.jsonl'), '{"qid": "1", "query": "x", "conds": []}\n');
  writeFileSync(join(dir, 'c.jsonl'), 'not json\n');
  const text = [
    'study "s" {',
    '  queries "q.jsonl" { id: qid  text: query }',
    '  corpus "c.jsonl" { id: d  body: b }',
    '  conditions from cond',
    '}',
  ].join('\n');
  const found = await checkStudyFiles(parseStudyFile(text), join(dir, 's.assess'), nodeStudyHost());
  assert.deepEqual(summary(text, found), ['3:10-3:19 data-file-unreadable', '4:19-4:23 unknown-field']);
  assert.match(
    found[0]!.message,
    /^cannot read the fields of c\.jsonl: no JSON object in the first line \(line 1 is not one\)$/,
  );
  assert.equal(found[1]!.fixes![0]!.edits[0]!.newText, 'conds');
});

test('conditions read from a mapped role are fine', async () => {
  const dir = scratchDir('dsl-files-');
  writeFileSync(join(dir, 'q.jsonl'), '{"qid": "1", "query": "x", "ins": "y"}\n');
  const text =
    'study "s" {\n  queries "q.jsonl" { id: qid  text: query  instruction: ins }\n  conditions from instruction\n}\n';
  assert.deepEqual(await checkStudyFiles(parseStudyFile(text), join(dir, 's.assess'), nodeStudyHost()), []);
});

test('a host that fails is reported, not thrown', async () => {
  const host: StudyHost = {
    exists: async () => {
      throw new Error('disk on fire');
    },
    readFields: async () => ({ fields: [] }),
    checkRunFile: async () => ({ errors: 0 }),
    readText: async () => undefined,
  };
  const found = await checkStudyFiles(parseStudyFile(sketch), '/x/s.assess', host);
  assert.ok(found.length > 0);
  assert.ok(found.every((d) => d.code === 'check-failed' && d.message.includes('disk on fire')));
});

test('an unknown field far from every field gets the nearest as fixes (`text: question`, the file has `query`)', async () => {
  const dir = scratchDir('dsl-files-');
  writeFileSync(join(dir, 'queries.jsonl'), '{"qid": "q1", "query": "rivers"}\n');
  writeFileSync(join(dir, 'corpus.jsonl'), '{"doc_id": "d1", "text": "x", "body_html": "<p>x</p>"}\n');
  const text = [
    'study "s" {',
    '  queries "queries.jsonl" { id: qid  text: question }',
    '  corpus "corpus.jsonl" { id: doc_id  body: "content" }',
    '}',
  ].join('\n');
  const found = (await checkStudyFiles(parseStudyFile(text), join(dir, 's.assess'), nodeStudyHost())).filter(
    (d) => d.code === 'unknown-field',
  );
  assert.deepEqual(
    found.map((d) => d.message),
    [
      "field 'question' is not in queries.jsonl (its fields: qid, query); the nearest: 'query'",
      "field 'content' is not in corpus.jsonl (its fields: doc_id, text, body_html); the nearest: 'text'",
    ],
  );
  assert.deepEqual(
    found.map((d) => d.fixes?.map((f) => f.edits[0]!.newText)),
    [['query'], ['"text"']],
  );
  assert.deepEqual(found[0]!.fixes![0]!.edits[0]!.range, found[0]!.range);
});
