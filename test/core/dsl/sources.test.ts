// The source declarations of a study file (queries, corpus, items and their roles): what they may say, what the
// model hands the importers. Issue 19, item 10 ("sources declared where they live") and the table-context roles.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { statementOf } from '../../../core/dsl/ast.ts';
import { resolveStudies } from '../../../core/dsl/model.ts';
import { parseStudyFile } from '../../../core/dsl/parser.ts';
import { diagnose, studyWith } from './dslTestHelpers.ts';

test('a taxonomy code may be quoted, so that a keyword (`export`) can be one', () => {
  const text = [
    'review "r" {',
    '  items "i.jsonl" { id: iid  text: t }',
    '  taxonomy { "export" "Export tables"  C1 "Semantic boundary" }',
    '}',
    '',
  ].join('\n');
  assert.deepEqual(diagnose(text), []);
  const parsed = parseStudyFile(text);
  const taxonomy = statementOf(parsed.ast.blocks[0]!, 'taxonomy')!;
  assert.deepEqual(
    taxonomy.entries.map((e) => [e.code.text, e.label?.value]),
    [
      ['export', 'Export tables'],
      ['C1', 'Semantic boundary'],
    ],
  );
  assert.deepEqual(resolveStudies(parsed).reviews[0]!.taxonomy, [
    { code: 'export', label: 'Export tables' },
    { code: 'C1', label: 'Semantic boundary' },
  ]);
});

test('a corpus may map its tables’ database and keys (TARGET): `database: db  keys: pk` lints clean', () => {
  const text = studyWith().replace(
    'corpus "c.jsonl" { id: did  body: text }',
    'corpus "c.jsonl" { id: did  body: text  database: db  keys: pk }',
  );
  assert.deepEqual(diagnose(text), []);
  assert.deepEqual(resolveStudies(parseStudyFile(text)).studies[0]!.corpus!.fields, {
    id: 'did',
    body: 'text',
    database: 'db',
    keys: 'pk',
  });
});

test('corpus `format:` takes a format, or the field that holds each record’s own format (a mixed corpus)', () => {
  const mixed = studyWith().replace('{ id: did  body: text }', '{ id: did  body: table  format: kind }');
  assert.deepEqual(diagnose(mixed), []);
  const corpus = resolveStudies(parseStudyFile(mixed)).studies[0]!.corpus!;
  assert.deepEqual(corpus.fields, { id: 'did', body: 'table', format: 'kind' });
  assert.equal(corpus.format, undefined);
  // A format word stays the format of every body, not a field.
  const fixed = studyWith().replace('{ id: did  body: text }', '{ id: did  body: text  format: html }');
  const fixedCorpus = resolveStudies(parseStudyFile(fixed)).studies[0]!.corpus!;
  assert.deepEqual(fixedCorpus.fields, { id: 'did', body: 'text' });
  assert.equal(fixedCorpus.format, 'html');
  // A quoted field name is a field too (a field may be called "format").
  const quoted = studyWith().replace('{ id: did  body: text }', '{ id: did  body: text  format: "format" }');
  assert.deepEqual(resolveStudies(parseStudyFile(quoted)).studies[0]!.corpus!.fields.format, 'format');
});

test('queries may map a split and the gold ids the queries file lists', () => {
  const text = studyWith().replace(
    '{ id: qid  text: query }',
    '{ id: qid  text: query  split: split  gold: table_ids }',
  );
  assert.deepEqual(diagnose(text), []);
  assert.deepEqual(resolveStudies(parseStudyFile(text)).studies[0]!.queries!.fields, {
    id: 'qid',
    text: 'query',
    split: 'split',
    gold: 'table_ids',
  });
});

test('a source may name its file format with `from`; a viewer copy (`from hf-viewer`) needs no id', () => {
  const viewer = studyWith().replace(
    'corpus "c.jsonl" { id: did  body: text }',
    'corpus "c.txt" from hf-viewer { body: text }',
  );
  assert.deepEqual(diagnose(viewer), []);
  const corpus = resolveStudies(parseStudyFile(viewer)).studies[0]!.corpus!;
  assert.deepEqual([corpus.fileFormat, corpus.fields], ['hf-viewer', { body: 'text' }]);
  // Any other source still needs its id; a format the CLI cannot read is an unknown value with a fix.
  const parquet = studyWith().replace(
    'corpus "c.jsonl" { id: did  body: text }',
    'corpus "c.pq" from parquet { body: text }',
  );
  assert.deepEqual(diagnose(parquet), ['3:10-3:16 missing-role']);
  const misspelt = studyWith().replace('corpus "c.jsonl" {', 'corpus "c.jsonl" from jsonll {');
  assert.deepEqual(diagnose(misspelt), ['3:25-3:31 unknown-value']);
});
