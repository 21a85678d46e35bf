import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { jsonlImporter } from '../../../core/importers/jsonl.ts';
import { collect, dataFile, importError } from './helpers.ts';

test('JSONL queries: the mapping names id and text, same-named fields fill the other roles, the rest is metadata', async () => {
  const path = dataFile(
    'queries.jsonl',
    [
      '{"qid": "q1", "query": "tables about rivers", "instruction": "only tables with a length column", "parent": null, "type": "C1", "lang": "en"}',
      '',
      '{"qid": 2, "query": "rivers", "parent": "q1", "split": "dev", "scores": {"bm25": 1.5}}',
    ].join('\n'),
  );
  const records = await collect(jsonlImporter.read(path, { target: 'queries', mapping: { id: 'qid', text: 'query' } }));
  assert.deepEqual(records, [
    {
      kind: 'query',
      qid: 'q1',
      text: 'tables about rivers',
      instruction: 'only tables with a length column',
      type: 'C1',
      metadata: { lang: 'en' },
      at: { file: path, line: 1, column: 1 },
    },
    {
      kind: 'query',
      qid: '2',
      text: 'rivers',
      parent: 'q1',
      split: 'dev',
      metadata: { scores: { bm25: 1.5 } },
      at: { file: path, line: 3, column: 1 },
    },
  ]);
});

test('JSONL corpus: format from a mapped field, from the mapping itself, from the options; a JSON table body is kept as JSON text', async () => {
  const path = dataFile(
    'tables.jsonl',
    [
      '{"table_id": "t1", "table": "| a |\\n|---|\\n| 1 |", "caption": "Rivers", "fmt": "md"}',
      '{"table_id": "t2", "table": "<table><tr><td>1</td></tr></table>", "caption": "", "fmt": "html"}',
      '{"table_id": "t3", "table": [["river", "length"], ["Nile", 6650]], "caption": "Lengths", "fmt": null}',
    ].join('\n'),
  );
  const mapping = { id: 'table_id', body: 'table', title: 'caption', format: 'fmt' };
  const records = await collect(jsonlImporter.read(path, { target: 'corpus', mapping }));
  assert.deepEqual(
    records.map((r) => r.kind === 'document' && [r.docid, r.format, r.title, r.body]),
    [
      ['t1', 'markdown', 'Rivers', '| a |\n|---|\n| 1 |'],
      ['t2', 'html', undefined, '<table><tr><td>1</td></tr></table>'],
      ['t3', 'table-json', 'Lengths', '[["river","length"],["Nile",6650]]'],
    ],
  );
  // `format=html` is no field of the records: the format itself, as the study file writes `format: html`.
  const literal = jsonlImporter.read(path, { target: 'corpus', mapping: { ...mapping, format: 'html' } });
  const records2: unknown[] = [];
  const error = await importError(
    (async function* () {
      for await (const record of literal) {
        records2.push(record.kind === 'document' && [record.format, record.metadata]);
        yield record;
      }
    })(),
  );
  assert.deepEqual(records2, [
    ['html', { fmt: 'md' }],
    ['html', { fmt: 'html' }],
  ]);
  assert.equal(error.message, `${path}:3:29: expected a string for body in 'table' (format html), found an array`);
  const plain = dataFile(
    'plain.jsonl',
    '{"table_id": "t1", "table": "# Rivers"}\n{"table_id": "t2", "table": [[1]]}\n',
  );
  const byOption = await collect(
    jsonlImporter.read(plain, {
      target: 'corpus',
      mapping: { id: 'table_id', text: 'table' },
      documentFormat: 'markdown',
    }),
  ).catch((error: Error) => error.message);
  // The study's `format: markdown` holds for every record: a JSON table under it is an error.
  assert.equal(byOption, `${plain}:2:29: expected a string for body in 'table' (format markdown), found an array`);
  const first = await collect(
    jsonlImporter.read(dataFile('one.jsonl', '{"table_id": "t1", "table": "# Rivers"}\n'), {
      target: 'corpus',
      mapping: { id: 'table_id', text: 'table' },
      documentFormat: 'markdown',
    }),
  );
  assert.deepEqual(
    first.map((r) => r.kind === 'document' && [r.docid, r.body, r.format]),
    [['t1', '# Rivers', 'markdown']],
  );
});

test('JSONL from gzip, with a byte order mark and CRLF line ends; ids that are JSON numbers become their decimal text', async () => {
  const path = dataFile(
    'docs.jsonl.gz',
    gzipSync('\ufeff{"_id": 7, "text": "a\\u00e9"}\r\n{"_id": "d8", "text": ""}\r\n'),
  );
  const records = await collect(jsonlImporter.read(path, { target: 'corpus', name: 'docs.jsonl.gz' }));
  assert.deepEqual(records, [
    {
      kind: 'document',
      docid: '7',
      body: 'aé',
      format: 'plain',
      metadata: {},
      at: { file: 'docs.jsonl.gz', line: 1, column: 1 },
    },
    {
      kind: 'document',
      docid: 'd8',
      body: '',
      format: 'plain',
      metadata: {},
      at: { file: 'docs.jsonl.gz', line: 2, column: 1 },
    },
  ]);
});

test('invalid JSON: the character where the line stops being JSON, in code points', async () => {
  const path = dataFile('bad.jsonl', '{"_id": "d1", "text": "ok"}\n{"_id": "🌍", "text": x}\n');
  const error = await importError(jsonlImporter.read(path, { target: 'corpus' }));
  assert.deepEqual(error.at, { file: path, line: 2, column: 22 });
  assert.equal(error.message, `${path}:2:22: expected a value after ':', found 'x'`);

  const comma = dataFile('comma.jsonl', '{"_id": "d1", "text": "x",}\n');
  const trailing = await importError(jsonlImporter.read(comma, { target: 'corpus' }));
  assert.equal(
    trailing.message,
    `${comma}:1:27: expected a property name in double quotes after ',', found '}' (JSON allows no trailing comma)`,
  );

  const open = dataFile('open.jsonl', '{"_id": "d1", "text": "x\n');
  const unterminated = await importError(jsonlImporter.read(open, { target: 'corpus' }));
  assert.equal(unterminated.at.column, 23);
  assert.equal(unterminated.expected, `a closing '"' before the end of the line`);
});

test('a line that is JSON but not an object', async () => {
  const path = dataFile('array.jsonl', '{"_id": "d1", "text": "x"}\n  ["d2", "y"]\n');
  const error = await importError(jsonlImporter.read(path, { target: 'corpus' }));
  assert.equal(error.message, `${path}:2:3: expected a JSON object ('{'), found an array`);
});

test('a missing id or text field is named, with the fields the record has', async () => {
  const noId = dataFile('noid.jsonl', '{"text": "x", "title": "t"}\n');
  const missing = await importError(jsonlImporter.read(noId, { target: 'corpus' }));
  assert.equal(
    missing.message,
    `${noId}:1:1: expected a field for id: one of 'id', '_id', 'docid', 'doc_id', 'corpus-id' (or --map id=FIELD), found fields 'text', 'title'`,
  );
  const noText = dataFile('notext.jsonl', '{"qid": "q1", "question": "x"}\n{"qid": "q2"}\n');
  const mapped = await importError(
    jsonlImporter.read(noText, { target: 'queries', mapping: { id: 'qid', text: 'question' } }),
  );
  assert.deepEqual(mapped.at, { file: noText, line: 2, column: 1, field: 'question' });
  assert.equal(mapped.expected, "a field 'question' (mapped to text)");
  assert.equal(mapped.found, "fields 'qid'");
});

test('an empty id, an id JSON cannot hold exactly, a body that is not text: at the value', async () => {
  const empty = dataFile('empty.jsonl', '{"_id": "", "text": "x"}\n');
  assert.equal(
    (await importError(jsonlImporter.read(empty, { target: 'corpus' }))).message,
    `${empty}:1:9: expected an id that is not empty, found an empty string ('')`,
  );
  const big = dataFile('big.jsonl', '{"_id": 12345678901234567890, "text": "x"}\n');
  const unsafe = await importError(jsonlImporter.read(big, { target: 'corpus' }));
  assert.deepEqual(unsafe.at, { file: big, line: 1, column: 9, field: '_id' });
  assert.match(unsafe.found, /write the id as a string/);
  const number = dataFile('number.jsonl', '{"title": "Zürich 🌍", "_id": 5, "text": 42}\n');
  const body = await importError(jsonlImporter.read(number, { target: 'corpus' }));
  assert.deepEqual(body.at, { file: number, line: 1, column: 41, field: 'text' });
  assert.equal(body.expected, "a string for body in 'text' (or a JSON table: an array or object)");
  assert.equal(body.found, 'a number (42)');
});

test('a duplicate id names both lines', async () => {
  const path = dataFile(
    'dup.jsonl',
    '{"_id": "d1", "text": "a"}\n{"_id": "d2", "text": "b"}\n{"_id": "d1", "text": "c"}\n',
  );
  const error = await importError(jsonlImporter.read(path, { target: 'corpus' }));
  assert.equal(error.message, `${path}:3:9: expected a unique document id, found 'd1' again (first on line 1)`);
  assert.deepEqual(error.related, { file: path, line: 1 });
});

test('a per-record format that is not one names the field and the formats', async () => {
  const path = dataFile('fmt.jsonl', '{"id": "d1", "body": "x", "kind": "pdf"}\n');
  const error = await importError(jsonlImporter.read(path, { target: 'corpus', mapping: { format: 'kind' } }));
  assert.equal(
    error.message,
    `${path}:1:35: expected a document format in 'kind': plain, markdown, html, table-json or code, found a string ('pdf')`,
  );
});

test('a mapped field may be a dotted path into a nested object; the object stays in the metadata', async () => {
  const path = dataFile('nested.jsonl', '{"_id": "d1", "text": "x", "meta": {"caption": "Rivers", "lang": "en"}}\n');
  const records = await collect(jsonlImporter.read(path, { target: 'corpus', mapping: { title: 'meta.caption' } }));
  assert.deepEqual(
    records.map((r) => r.kind === 'document' && [r.title, r.metadata]),
    [['Rivers', { meta: { caption: 'Rivers', lang: 'en' } }]],
  );
  const missing = dataFile('flat.jsonl', '{"_id": "d1", "text": "x", "meta": {"lang": "en"}}\n');
  assert.equal(
    (await importError(jsonlImporter.read(missing, { target: 'corpus', mapping: { title: 'meta.caption' } }))).message,
    `${missing}:1:1: expected a field 'meta.caption' (mapped to title), found fields '_id', 'text', 'meta'`,
  );
});

test('a large file read in pieces: ASCII and other lines, CRLF, blank lines, lines longer than a piece or a chunk', async () => {
  // Lines of every kind, so that 64 KiB pieces and 512 KiB chunks end in all sorts of places (the reader decodes an
  // all-ASCII piece at once and any other line by line): each record's text and line must be as read line by line.
  const lines: string[] = [];
  const expected: { docid: string; body: string; line: number }[] = [];
  for (let i = 0; lines.length < 12_000; i++) {
    const body = i % 997 === 0 ? 'y'.repeat(i % 2 === 0 ? 70_000 : 600_000) : i % 251 === 0 ? `é ${i} 🌍` : `body ${i}`;
    if (i % 89 === 0) lines.push(i % 178 === 0 ? '' : '  \r');
    lines.push(`{"_id": "d${i}", "text": ${JSON.stringify(body)}}${i % 7 === 0 ? '\r' : ''}`);
    expected.push({ docid: `d${i}`, body, line: lines.length });
  }
  const content = lines.join('\n');
  for (const path of [dataFile('large.jsonl', content), dataFile('large.jsonl.gz', gzipSync(content))]) {
    const records = await collect(jsonlImporter.read(path, { target: 'corpus', name: 'large' }));
    assert.deepEqual(
      records.map((r) => (r.kind === 'document' ? { docid: r.docid, body: r.body, line: r.at.line } : r)),
      expected,
    );
  }
  // An error far down, in an ASCII piece and in a line that is not ASCII: its line, its column in code points.
  const ascii = dataFile('bad.jsonl', `${lines.slice(0, 9000).join('\n')}\n{"_id": "x", "text": y}\n`);
  assert.equal(
    (await importError(jsonlImporter.read(ascii, { target: 'corpus' }))).message.split(': ')[0],
    `${ascii}:9001:22`,
  );
  const wide = dataFile('wide.jsonl', `${lines.slice(0, 9000).join('\n')}\n{"_id": "🌍", "text": y}\n`);
  assert.equal(
    (await importError(jsonlImporter.read(wide, { target: 'corpus' }))).message.split(': ')[0],
    `${wide}:9001:22`,
  );
});

test('records handed out a piece at a time: a reader that stops early closes the file; an error comes after the records before it', async () => {
  const lines = Array.from({ length: 5000 }, (_, i) => `{"_id": "d${i}", "text": "body ${i}"}`);
  const path = dataFile('many.jsonl', `${lines.join('\n')}\n`);
  const openFiles = () => readdirSync('/proc/self/fd').length;
  // A stream closes its file asynchronously: count once the files of earlier tests are closed, and wait (up to 2 s)
  // for this one's close, which never comes if the reader does not close it.
  await sleep(50);
  const before = openFiles();
  for await (const record of jsonlImporter.read(path, { target: 'corpus' })) {
    assert.equal(record.kind === 'document' && record.docid, 'd0');
    break;
  }
  for (const deadline = Date.now() + 2000; openFiles() !== before && Date.now() < deadline; ) await sleep(10);
  assert.equal(openFiles(), before);
  // The records before a bad line (in the same piece) are read before its error.
  const bad = dataFile('bad.jsonl', `${lines.slice(0, 30).join('\n')}\n{"_id": "x", "text": y}\n`);
  const read: string[] = [];
  await assert.rejects(async () => {
    for await (const record of jsonlImporter.read(bad, { target: 'corpus' }))
      if (record.kind === 'document') read.push(record.docid);
  }, /:31:22: /);
  assert.equal(read.length, 30);
});
