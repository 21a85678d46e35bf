import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { csvImporter } from '../../../core/importers/csv.ts';
import { tsvImporter } from '../../../core/importers/tsv.ts';
import { collect, dataFile, importError } from './helpers.ts';

test('CSV corpus: quoted commas and newlines as Python reads them; a record spanning lines is at its first line', async () => {
  const path = dataFile(
    'docs.csv',
    'id,title,body,lang\r\nd1,Rivers,"a table, with a comma",en\r\nd2,"Multi\r\nline","say ""hi""",fr\r\n\r\n',
  );
  const records = await collect(csvImporter.read(path, { target: 'corpus' }));
  assert.deepEqual(records, [
    {
      kind: 'document',
      docid: 'd1',
      body: 'a table, with a comma',
      title: 'Rivers',
      format: 'plain',
      metadata: { lang: 'en' },
      at: { file: path, line: 2, column: 1 },
    },
    {
      kind: 'document',
      docid: 'd2',
      body: 'say "hi"',
      title: 'Multi\r\nline',
      format: 'plain',
      metadata: { lang: 'fr' },
      at: { file: path, line: 3, column: 1 },
    },
  ]);
});

test('TSV queries from gzip, fields through the mapping, every other column kept as a string', async () => {
  const path = dataFile('q.tsv.gz', gzipSync('query_id\tquery\tsplit\tnum\nq1\tlong rivers\tdev\t3\nq2\tshort\t\t4\n'));
  const records = await collect(tsvImporter.read(path, { target: 'queries', mapping: { text: 'query' } }));
  assert.deepEqual(
    records.map((r) => r.kind === 'query' && [r.qid, r.text, r.split, r.metadata]),
    [
      ['q1', 'long rivers', 'dev', { num: '3' }],
      ['q2', 'short', undefined, { num: '4' }],
    ],
  );
});

test('a row with fewer fields than the header: at the end of the row, naming the first missing field', async () => {
  const path = dataFile('short.csv', 'id,title,body\nd1,t,b\nd2,t\n');
  const error = await importError(csvImporter.read(path, { target: 'corpus' }));
  assert.deepEqual(error.at, { file: path, line: 3, column: 5, field: 'body' });
  assert.equal(
    error.message,
    `${path}:3:5: expected 3 fields as in the header ('id', 'title', 'body'), found 2: the row ends before 'body'`,
  );
});

test('a row with more fields than the header: at the first extra field', async () => {
  const path = dataFile('long.tsv', 'id\ttitle\tbody\nd1\tt\tb\textra\tmore\n');
  const error = await importError(tsvImporter.read(path, { target: 'corpus' }));
  assert.equal(
    error.message,
    `${path}:2:8: expected 3 fields as in the header ('id', 'title', 'body'), found 5: 2 fields more than the header`,
  );
});

test('an unterminated quote is reported where it opens', async () => {
  const path = dataFile('open.csv', 'id,body\nd1,"open\nd2,x\n');
  const error = await importError(csvImporter.read(path, { target: 'corpus' }));
  assert.deepEqual(error.at, { file: path, line: 2, column: 4 });
  assert.equal(error.expected, `a closing '"' for the quote opened here`);
});

test('the header: a name used twice, a mapped column it lacks, no column for a required role', async () => {
  const twice = dataFile('twice.csv', 'id,body,id\nd1,x,d2\n');
  assert.equal(
    (await importError(csvImporter.read(twice, { target: 'corpus' }))).message,
    `${twice}:1:9: expected a header of distinct column names, found 'id' again (first as column 1)`,
  );
  const lacks = dataFile('lacks.csv', 'qid,query\nq1,x\n');
  const mapped = await importError(
    csvImporter.read(lacks, { target: 'queries', mapping: { id: 'qid', text: 'text' } }),
  );
  assert.deepEqual(mapped.at, { file: lacks, line: 1, column: 1, field: 'text' });
  assert.equal(mapped.message, `${lacks}:1:1: expected a column 'text' (mapped to text), found columns 'qid', 'query'`);
  const none = dataFile('none.csv', 'name,value\nn,v\n');
  assert.equal(
    (await importError(csvImporter.read(none, { target: 'corpus' }))).message,
    `${none}:1:1: expected a column for id: one of 'id', '_id', 'docid', 'doc_id', 'corpus-id' (or --map id=COLUMN), found columns 'name', 'value'`,
  );
});

test('an empty id and a duplicate id in a CSV: at the field, the duplicate naming the first line', async () => {
  const empty = dataFile('empty.csv', 'title,id,body\nt,,x\n');
  const error = await importError(csvImporter.read(empty, { target: 'corpus' }));
  assert.deepEqual(error.at, { file: empty, line: 2, column: 3, field: 'id' });
  assert.equal(error.found, "an empty string ('')");
  const dup = dataFile('dup.tsv', 'qid\ttext\nq1\ta\nq2\tb\n\nq1\tc\n');
  const again = await importError(tsvImporter.read(dup, { target: 'queries' }));
  assert.equal(again.message, `${dup}:5:1: expected a unique query id, found 'q1' again (first on line 2)`);
  assert.deepEqual(again.related, { file: dup, line: 2 });
});

test('judgments from a CSV through the mapping: a non-integer label is refused at its field', async () => {
  const path = dataFile('judged.csv', 'topic,doc,grade\n1,d1,2\n1,d2,1.5\n');
  const mapping = { query_id: 'topic', doc_id: 'doc', label: 'grade' };
  const error = await importError(csvImporter.read(path, { target: 'qrels', mapping }));
  assert.equal(error.message, `${path}:3:6: expected an integer label in 'grade', found a string ('1.5')`);
  const good = dataFile('good.csv', 'topic,doc,grade\n1,d1,2\n1,d2,-2\n');
  assert.deepEqual(
    (await collect(csvImporter.read(good, { target: 'qrels', mapping }))).map(
      (r) => r.kind === 'judgment' && [r.qid, r.docid, r.label],
    ),
    [
      ['1', 'd1', 2],
      ['1', 'd2', -2],
    ],
  );
});
