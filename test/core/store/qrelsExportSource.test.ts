// A study file's `export qrels … from X` as the label source exports and evaluation read: every mapping is a source
// labelSources.ts knows, and what a qrels file cannot hold is an error naming the declaration.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseStudyFile, resolveStudies } from '../../../core/dsl/index.ts';
import { findLabelSource } from '../../../core/store/labelSources.ts';
import { labelSourceOfExport, qrelsUnitOfExport, studyQrelsSource } from '../../../core/store/qrelsExportSource.ts';
import { StoreError } from '../../../core/store/studyDatabase.ts';

function study(statements: string) {
  const parsed = parseStudyFile(`study "s" {\n  scale binary { 0 "No" key "0"  1 "Yes" key "1" }\n${statements}\n}\n`);
  assert.deepEqual(
    parsed.diagnostics.map((d) => d.message),
    [],
  );
  return resolveStudies(parsed).studies[0]!;
}

test('each export qrels source maps to a label source the store knows', () => {
  const s = study(`  judge "gpt-4.1-mini" { temperature 0 }
  export qrels "a.qrels" from adjudicated
  export qrels "m.qrels" from majority
  export qrels "j.qrels" from judge
  export qrels "d.qrels"`);
  const sources = s.exports.map((e) => labelSourceOfExport(s, e));
  assert.deepEqual(sources, ['adjudicated-else-majority', 'majority', 'llm:gpt-4.1-mini', 'adjudicated-else-majority']);
  for (const source of sources) assert.doesNotThrow(() => findLabelSource(source));
});

test("a study's qrels come from its first export qrels, else from adjudicated", () => {
  assert.equal(
    studyQrelsSource(study('  export labels "l.csv" from all\n  export qrels "m.qrels" from majority')),
    'majority',
  );
  assert.equal(studyQrelsSource(study('')), 'adjudicated-else-majority');
});

test('per document is a qrels file of its source, its chunks rolled up to documents by max', () => {
  const s = study(`  corpus "c.jsonl" { id: docid  body: text  parent: doc }
  export qrels "doc.qrels" from majority per document
  export qrels "chunk.qrels" from majority`);
  assert.deepEqual(
    s.exports.map((e) => [labelSourceOfExport(s, e), qrelsUnitOfExport(e)]),
    [
      ['majority', { per: 'document', rollup: 'max' }],
      ['majority', { per: 'pair' }],
    ],
  );
});

test('per document by any rolls up by any, by max as the default; per chunk spreads document labels', () => {
  const s = study(`  corpus "c.jsonl" { id: docid  body: text  parent: doc }
  export qrels "any.qrels" from majority per document by any
  export qrels "max.qrels" from majority per document by max
  export qrels "chunk.qrels" from majority per chunk`);
  assert.deepEqual(
    s.exports.map((e) => qrelsUnitOfExport(e)),
    [{ per: 'document', rollup: 'any' }, { per: 'document', rollup: 'max' }, { per: 'chunk' }],
  );
});

test('from all cannot be a qrels file: errors naming the declaration', () => {
  const s = study('  export qrels "all.qrels" from all');
  assert.throws(
    () => studyQrelsSource(s),
    (error: unknown) =>
      error instanceof StoreError &&
      /^study 's', export qrels "all\.qrels": `from all` is every judgment/.test(error.message),
  );
  assert.throws(
    () => labelSourceOfExport(s, { path: 'j.qrels', from: 'judge', perDocument: false }),
    /expected a `judge` statement/,
  );
});
