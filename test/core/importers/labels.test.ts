import assert from 'node:assert/strict';
import { test } from 'node:test';
import { labelsImporter } from '../../../core/importers/labels.ts';
import { importerFor, readImport } from '../../../core/importers/registry.ts';
import { collect, dataFile, importError } from './helpers.ts';

const header = 'query_id,doc_id,annotator,label,created_at,source,rationale';

test('a long-format label file: one judgment per row with its annotator and provenance, history kept', async () => {
  const path = dataFile(
    'labels.csv',
    [
      header,
      'q1,d1,alice,2,2025-05-01T12:00:00Z,manual,"meets every constraint, incl. the ""length"" column"',
      'q1,d1,bob,1,2025-05-01T12:05:00Z,manual,',
      'q1,d1,llm:gpt-4.1-mini@3f2a9c,2,2025-05-01T12:06:00Z,suggestion accepted,"The table lists rivers',
      'with their lengths."',
      'q1,d1,alice,1,2025-05-02T09:00:00Z,adjudicated,',
      '',
    ].join('\n'),
  );
  assert.equal((await importerFor(path, { target: 'labels' })).id, 'labels');
  assert.deepEqual(await collect(readImport(path, { target: 'labels' })), [
    {
      kind: 'judgment',
      qid: 'q1',
      docid: 'd1',
      label: 2,
      annotator: 'alice',
      createdAt: '2025-05-01T12:00:00.000Z',
      source: 'manual',
      rationale: 'meets every constraint, incl. the "length" column',
      at: { file: path, line: 2, column: 1 },
    },
    {
      kind: 'judgment',
      qid: 'q1',
      docid: 'd1',
      label: 1,
      annotator: 'bob',
      createdAt: '2025-05-01T12:05:00.000Z',
      source: 'manual',
      at: { file: path, line: 3, column: 1 },
    },
    {
      kind: 'judgment',
      qid: 'q1',
      docid: 'd1',
      label: 2,
      annotator: 'llm:gpt-4.1-mini@3f2a9c',
      createdAt: '2025-05-01T12:06:00.000Z',
      source: 'suggestion accepted',
      rationale: 'The table lists rivers\nwith their lengths.',
      at: { file: path, line: 4, column: 1 },
    },
    {
      kind: 'judgment',
      qid: 'q1',
      docid: 'd1',
      label: 1,
      annotator: 'alice',
      createdAt: '2025-05-02T09:00:00.000Z',
      source: 'adjudicated',
      at: { file: path, line: 6, column: 1 },
    },
  ]);
});

test('a tab-separated label file with only the four required columns', async () => {
  const path = dataFile('labels.tsv', 'query_id\tdoc_id\tannotator\tlabel\n19335\t1017759\tcarol\t0\n');
  assert.equal((await importerFor(path, { target: 'labels' })).id, 'labels');
  assert.deepEqual(await collect(readImport(path, { target: 'labels' })), [
    {
      kind: 'judgment',
      qid: '19335',
      docid: '1017759',
      label: 0,
      annotator: 'carol',
      at: { file: path, line: 2, column: 1 },
    },
  ]);
});

test('the same annotator, pair and time twice is an error naming both lines', async () => {
  const path = dataFile(
    'labels.csv',
    `${header}\nq1,d1,alice,2,2025-05-01T12:00:00Z,manual,\nq1,d2,alice,0,2025-05-01T12:00:00Z,manual,\nq1,d1,alice,1,2025-05-01T12:00:00Z,manual,\n`,
  );
  const error = await importError(labelsImporter.read(path, { target: 'labels' }));
  assert.equal(
    error.message,
    `${path}:4:4: expected one judgment per annotator, query, document and time, found a judgment by 'alice' of 'd1' for query 'q1' at 2025-05-01T12:00:00Z again (first on line 2)`,
  );
  assert.deepEqual(error.related, { file: path, line: 2 });
});

test('a label file without an annotator column is refused at its header', async () => {
  const path = dataFile('labels.csv', 'query_id,doc_id,label\nq1,d1,1\n');
  assert.equal(
    (await importError(labelsImporter.read(path, { target: 'labels' }))).message,
    `${path}:1:1: expected a column 'annotator' for annotator (or --map annotator=COLUMN), found columns 'query_id', 'doc_id', 'label'`,
  );
});

test('a label that is not an integer, a time that is not one, an empty annotator: each at its field', async () => {
  const half = dataFile('labels.csv', `${header}\nq1,d1,alice,1.5,2025-05-01T12:00:00Z,manual,\n`);
  assert.equal(
    (await importError(labelsImporter.read(half, { target: 'labels' }))).message,
    `${half}:2:13: expected an integer label in 'label', found a string ('1.5')`,
  );
  const time = dataFile('labels.csv', `${header}\nq1,d1,alice,1,yesterday,manual,\n`);
  const bad = await importError(labelsImporter.read(time, { target: 'labels' }));
  assert.deepEqual(bad.at, { file: time, line: 2, column: 15, field: 'created_at' });
  assert.equal(bad.expected, 'a time in ISO 8601 (like 2025-05-01T12:00:00Z or 2025-05-01T14:00:00+02:00)');
  const nobody = dataFile('labels.csv', `${header}\nq1,d1,,1,,manual,\n`);
  assert.equal(
    (await importError(labelsImporter.read(nobody, { target: 'labels' }))).message,
    `${nobody}:2:7: expected an annotator name that is not empty, found an empty string ('')`,
  );
});

test('times are stored as UTC instants: an offset or no zone is converted, other spellings refused', async () => {
  const { isoTimeInUtc } = await import('../../../core/importers/convert.ts');
  assert.equal(isoTimeInUtc('2025-05-01T12:00:00+02:00'), '2025-05-01T10:00:00.000Z');
  assert.equal(isoTimeInUtc('2025-05-01T10:00:00Z'), '2025-05-01T10:00:00.000Z');
  assert.equal(isoTimeInUtc('2025-05-01 10:00'), '2025-05-01T10:00:00.000Z', 'no zone: UTC, never local time');
  assert.equal(isoTimeInUtc('2025-05-01'), '2025-05-01T00:00:00.000Z');
  assert.equal(isoTimeInUtc('May 1 2020'), undefined);
  assert.equal(isoTimeInUtc('2025-13-01T00:00:00Z'), undefined);
});
