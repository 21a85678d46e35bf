// Labels made outside the tool (`import --labels FILE [--annotator NAME]`): JSON Lines with qid, docid, label,
// annotator and a note; TREC qrels lines as one person's labels; a record's own annotator winning over --annotator.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { importerFor, readImport } from '../../../core/importers/registry.ts';
import { collect, dataFile, importError } from './helpers.ts';

test('JSON Lines labels: qid/docid/label/annotator/note, --annotator for the records that name none', async () => {
  const path = dataFile(
    'team.jsonl',
    '{"qid": "q1", "docid": "d1", "label": 2, "annotator": "alice", "note": "lists medals"}\n' +
      '{"qid": "q1", "docid": "d2", "label": 0}\n',
  );
  const missing = await importError(readImport(path, { target: 'labels', name: 'team.jsonl' }));
  assert.match(missing.message, /^team\.jsonl:2:1: expected a field 'annotator'/);
  const records = await collect(readImport(path, { target: 'labels', annotator: 'bob' }));
  assert.deepEqual(
    records.map((r) => r.kind === 'judgment' && [r.qid, r.docid, r.label, r.annotator, r.rationale ?? null]),
    [
      ['q1', 'd1', 2, 'alice', 'lists medals'],
      ['q1', 'd2', 0, 'bob', null],
    ],
  );
});

test('TREC qrels lines read as labels (one person’s), positioned errors as for qrels', async () => {
  const path = dataFile('dave.qrels', 'q1 0 d1 1\nq1 0 d2 x\n');
  assert.equal((await importerFor(path, { target: 'labels' })).id, 'trec-qrels');
  const error = await importError(readImport(path, { target: 'labels', name: 'dave.qrels', annotator: 'dave' }));
  assert.match(error.message, /^dave\.qrels:2:9: expected an integer relevance label/);
});
