import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { RecordIndex } from '../../../core/data/recordIndex.ts';
import { FileReadError } from '../../../core/formats/lineReader.ts';
import { scratchDir } from '../../helpers.ts';

const corpus = [
  '{"_id": "d1", "title": "First", "text": "one", "metadata": {}}',
  '{"title": "Second", "text": "two", "_id": "dé2"}',
  'not json at all',
  '',
  '{"_id": "d\\u00e93", "text": "escaped id"}',
  '{"_id": 7, "text": "a number id"}',
  '{"_id": "d1", "text": "a repeat"}\r',
  '{"_id": "😀", "text": "emoji"}',
  '[1, 2]',
  '{"_id": "", "text": "empty"}',
  '{"text": "no id"}',
].join('\n');

for (const gzip of [false, true]) {
  const kind = gzip ? 'gzip' : 'plain';

  test(`${kind} JSONL: ids in file order, line numbers, records read back`, async () => {
    const file = join(scratchDir(), gzip ? 'corpus.jsonl.gz' : 'corpus.jsonl');
    writeFileSync(file, gzip ? gzipSync(corpus) : corpus);
    const index = await RecordIndex.load(file, { idField: '_id' });
    assert.equal(index.path, file);
    assert.equal(index.format, 'jsonl');
    assert.equal(index.problem, undefined);
    assert.deepEqual([...index.ids()], ['d1', 'dé2', 'dé3', '7', '😀']);
    assert.equal(index.size, 5);
    // Not JSON, the repeat, the array, the empty id, the missing id.
    assert.equal(index.skipped, 5);
    assert.deepEqual(
      ['d1', 'dé2', 'dé3', '7', '😀', 'd9'].map((id) => index.lineOf(id)),
      [1, 2, 5, 6, 8, undefined],
    );
    assert.equal(index.has('dé3'), true);
    assert.equal(index.has('d9'), false);
    assert.deepEqual(await index.get('d1'), { _id: 'd1', title: 'First', text: 'one', metadata: {} });
    assert.deepEqual(await index.get('dé2'), { title: 'Second', text: 'two', _id: 'dé2' });
    assert.deepEqual(await index.get('dé3'), { _id: 'dé3', text: 'escaped id' });
    assert.deepEqual(await index.get('7'), { _id: 7, text: 'a number id' });
    assert.deepEqual(await index.get('😀'), { _id: '😀', text: 'emoji' });
    assert.equal(await index.get('d9'), undefined);
  });

  test(`${kind} CSV: the id column, quoted fields and quoted newlines`, async () => {
    const text =
      '\ufeffqid,query,note\r\nq1,"hello, world",x\r\nq2,"two\nlines ""quoted""",y\n\nq3,plain,z\n,empty,w\nq1,again,v\n';
    const file = join(scratchDir(), gzip ? 'queries.csv.gz' : 'queries.csv');
    writeFileSync(file, gzip ? gzipSync(text) : text);
    const index = await RecordIndex.load(file, { idField: 'qid' });
    assert.equal(index.format, 'csv');
    assert.deepEqual([...index.ids()], ['q1', 'q2', 'q3']);
    assert.equal(index.skipped, 2);
    assert.deepEqual(
      ['q1', 'q2', 'q3'].map((id) => index.lineOf(id)),
      [2, 3, 6],
    );
    assert.deepEqual(await index.get('q1'), { qid: 'q1', query: 'hello, world', note: 'x' });
    assert.deepEqual(await index.get('q2'), { qid: 'q2', query: 'two\nlines "quoted"', note: 'y' });
    assert.deepEqual(await index.get('q3'), { qid: 'q3', query: 'plain', note: 'z' });
  });
}

test('a TSV, a dotted id field, and an id far into a long record', async () => {
  const dir = scratchDir();
  writeFileSync(join(dir, 'q.tsv'), 'text\tqid\nhello\tq1\n');
  const tsv = await RecordIndex.load(join(dir, 'q.tsv'), { idField: 'qid' });
  assert.deepEqual(await tsv.get('q1'), { text: 'hello', qid: 'q1' });
  const long = 'x'.repeat(200_000);
  writeFileSync(join(dir, 'run.jsonl'), `{"items": ["${long}"], "query": {"id": "q1"}}\n{"query": {"id": "q2"}}\n`);
  const run = await RecordIndex.load(join(dir, 'run.jsonl'), { idField: 'query.id' });
  assert.deepEqual([...run.ids()], ['q1', 'q2']);
  const record = await run.get('q1');
  assert.equal((record!.items as string[])[0]!.length, 200_000);
});

test('a record changed on disk since loading is not returned as the old id', async () => {
  const file = join(scratchDir(), 'q.jsonl');
  writeFileSync(file, '{"_id": "q1", "text": "a"}\n{"_id": "q2", "text": "b"}\n');
  const index = await RecordIndex.load(file, { idField: '_id' });
  writeFileSync(file, '{"_id": "q9", "text": "a"}\n');
  assert.equal(await index.get('q1'), undefined);
  assert.equal(await index.get('q2'), undefined);
});

test('problems: no id column, no format, an unreadable file', async () => {
  const dir = scratchDir();
  writeFileSync(join(dir, 't.csv'), 'a,b\n1,2\n');
  const noColumn = await RecordIndex.load(join(dir, 't.csv'), { idField: 'qid' });
  assert.equal(noColumn.size, 0);
  assert.equal(noColumn.problem, `${join(dir, 't.csv')}: no column 'qid' in the header (a, b)`);
  writeFileSync(join(dir, 'qrels.txt'), 'q1 0 d1 1\n');
  const unknown = await RecordIndex.load(join(dir, 'qrels.txt'), { idField: '_id' });
  assert.equal(unknown.format, undefined);
  assert.match(unknown.problem ?? '', /qrels\.txt: cannot tell the format: line 1 is neither a JSON object/);
  const forced = await RecordIndex.load(join(dir, 'qrels.txt'), { idField: '_id', format: 'jsonl' });
  assert.deepEqual([forced.size, forced.skipped, forced.problem], [0, 1, undefined]);
  await assert.rejects(RecordIndex.load(join(dir, 'missing.jsonl'), { idField: '_id' }), FileReadError);
});
