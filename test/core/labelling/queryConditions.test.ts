// A query's numbered conditions from `conditions from FIELD`: numbered lists in the three styles instructions use,
// lines, "; "-separated parts, JSON lists from a raw field, and the field found through the study's mapping.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StudyModel } from '../../../core/dsl/model.ts';
import { type QueryFields, queryConditions, splitConditions } from '../../../core/labelling/queryConditions.ts';

const where = () => 'test';

const study = (conditionsFrom: string | undefined, fields: Record<string, string> = {}) =>
  ({
    ...(conditionsFrom !== undefined && { conditionsFrom }),
    queries: { path: 'q.jsonl', fields: { id: 'qid', text: 'query', ...fields } },
  }) as Pick<StudyModel, 'conditionsFrom' | 'queries'>;

const query = (fields: Partial<QueryFields>): QueryFields => ({
  qid: 'q1',
  text: 'medal tables',
  instruction: null,
  type: null,
  metadata: null,
  ...fields,
});

test('a MultiConIR-style query: a lead-in, then "1) …; 2) …" conditions', () => {
  const text =
    'Find a case that meets the following conditions: 1) middle-aged female patient; 2) hospitalized for ' +
    'breathing difficulties; 3) has a history of antibiotic allergies; and 4) has a family history of peanut allergies.';
  assert.deepEqual(splitConditions(text, where), [
    'middle-aged female patient',
    'hospitalized for breathing difficulties',
    'has a history of antibiotic allergies',
    'has a family history of peanut allergies.',
  ]);
});

test('a FollowTable-style instruction as a numbered list over lines, "1." and "(1)" styles', () => {
  const dotted = `Relevant tables must satisfy all of:
1. list medal counts per country
2. cover only Summer Olympics held after 2000
3. exclude para-athletics events`;
  assert.deepEqual(splitConditions(dotted, where), [
    'list medal counts per country',
    'cover only Summer Olympics held after 2000',
    'exclude para-athletics events',
  ]);
  const parenthesised =
    'I am looking for tables where (1) each row is one river, (2) lengths are given in km, and (3) the basin ' +
    'is named.';
  assert.deepEqual(splitConditions(parenthesised, where), [
    'each row is one river',
    'lengths are given in km',
    'the basin is named.',
  ]);
});

test('numbers that are not list markers do not split: years, decimals, a lone "1."', () => {
  assert.deepEqual(splitConditions('Only tables from 2001. Values in 1.5 m steps.', where), [
    'Only tables from 2001. Values in 1.5 m steps.',
  ]);
  assert.deepEqual(splitConditions('Rank 1. Nothing else follows', where), ['Rank 1. Nothing else follows']);
  // A list that skips a number ends where the numbering breaks.
  assert.deepEqual(splitConditions('1) red 2) green 4) blue', where), ['red', 'green 4) blue']);
});

test('without numbering: one condition per line (bullets dropped), else per "; " part, else the whole text', () => {
  assert.deepEqual(splitConditions('- has a caption\n\n* names the unit\n• sorted by year\n', where), [
    'has a caption',
    'names the unit',
    'sorted by year',
  ]);
  assert.deepEqual(splitConditions('the table covers Europe; it excludes Russia; values are in euros', where), [
    'the table covers Europe',
    'it excludes Russia',
    'values are in euros',
  ]);
  assert.deepEqual(splitConditions('Focus on tables about hydroelectric dams in Asia.', where), [
    'Focus on tables about hydroelectric dams in Asia.',
  ]);
  assert.deepEqual(splitConditions('a;b', where), ['a;b'], 'a semicolon without a space does not split');
});

test('empty, missing and null values have no conditions; JSON lists are taken as they are', () => {
  assert.deepEqual(splitConditions('   ', where), []);
  assert.deepEqual(splitConditions(undefined, where), []);
  assert.deepEqual(splitConditions(null, where), []);
  assert.deepEqual(splitConditions([' in km ', 'after 2000; before 2010', 3], where), [
    'in km',
    'after 2000; before 2010',
    '3',
  ]);
  assert.deepEqual(splitConditions([], where), []);
});

test('values that cannot be conditions are errors naming the query and field', () => {
  assert.throws(() => splitConditions({ a: 1 }, () => "query 'q7', conditions from constraints"), {
    message: "query 'q7', conditions from constraints: expected text or a list of conditions, found an object",
  });
  assert.throws(() => splitConditions(['ok', ''], where), /item 2 of the list .* found an empty string/);
  assert.throws(() => splitConditions(['ok', { x: 1 }], where), /item 2 of the list .* found an object/);
});

test('FIELD is a role, the data field a role was mapped from, or a raw field kept in the metadata', () => {
  const row = query({
    instruction: '1. in km 2. after 2000',
    metadata: JSON.stringify({ constraints: ['a', 'b', 'c'], nested: { list: 'x; y' } }),
  });
  assert.deepEqual(queryConditions(study(undefined), row), [], 'no `conditions from`: none');
  assert.deepEqual(queryConditions(study('instruction'), row), ['in km', 'after 2000']);
  assert.deepEqual(queryConditions(study('instr', { instruction: 'instr' }), row), ['in km', 'after 2000']);
  assert.deepEqual(queryConditions(study('text'), row), ['medal tables']);
  assert.deepEqual(queryConditions(study('constraints'), row), ['a', 'b', 'c']);
  assert.deepEqual(queryConditions(study('nested.list'), row), ['x', 'y']);
  assert.deepEqual(queryConditions(study('absent'), row), [], 'a query without the field has none');
  assert.deepEqual(queryConditions(study('instruction'), query({})), [], 'a query without an instruction has none');
});
