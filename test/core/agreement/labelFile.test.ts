// Label files for `agree`: CSV (RFC 4180, quoted newlines), TSV, JSONL; extra columns ignored; adjudicated rows left
// out; the fast path for unquoted rows reads what the splitter reads; every problem an error at its exact line and
// column, a unit labelled twice by one annotator naming both lines.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readLabelFile } from '../../../core/agreement/labelFile.ts';
import { ImportError } from '../../../core/importers/types.ts';
import { scratchDir } from '../../helpers.ts';

function file(name: string, text: string): string {
  const path = join(scratchDir(), name);
  writeFileSync(path, text);
  return path;
}

test('CSV as export --labels writes it: quoted multi-line rationales, adjudicated rows left out', async () => {
  const path = file(
    'labels.csv',
    'query_id,doc_id,annotator,label,created_at,source,rationale,shown_label\n' +
      'q1,d1,ann,2,2026-01-01T00:00:00.000Z,manual,"line one\nline ""two""",\n' +
      'q1,d1,ben,1,2026-01-01T00:00:00.000Z,manual,,\n' +
      'q1,d1,judy,2,2026-01-02T00:00:00.000Z,adjudicated,settled,\n' +
      'q1,d2,ann,0,2026-01-01T00:00:00.000Z,manual,,\n',
  );
  const read = await readLabelFile(path, { scale: [0, 1, 2] });
  assert.equal(read.format, 'csv');
  assert.equal(read.labels, 3);
  assert.equal(read.adjudicated, 1);
  assert.deepEqual(
    read.data.annotators.map((a) => a.name),
    ['ann', 'ben'],
  );
  assert.deepEqual(
    [...read.data.qids.keys()].map((u) => `${read.data.qids[u]}/${read.data.docids[u]}`),
    ['q1/d1', 'q1/d2'],
  );
  assert.deepEqual(read.data.values, [0, 1, 2]);
});

test('TSV with columns in any order and extra ones; JSONL with extra keys', async () => {
  const tsv = await readLabelFile(
    file('l.tsv', 'label\textra\tannotator\tdoc_id\tquery_id\n1\tx\tann\td1\tq1\n0\ty\tben\td1\tq1\n'),
  );
  assert.equal(tsv.format, 'tsv');
  assert.equal(tsv.labels, 2);
  const jsonl = await readLabelFile(
    file(
      'l.jsonl',
      '{"query_id":"q1","doc_id":"d1","annotator":"ann","label":1,"note":"x"}\n\n{"query_id":"q1","doc_id":"d1","annotator":"llm:gpt","label":"2"}\n',
    ),
  );
  assert.equal(jsonl.format, 'jsonl');
  assert.deepEqual(jsonl.data.annotators, [
    { name: 'ann', kind: 'human' },
    { name: 'llm:gpt', kind: 'llm' },
  ]);
  assert.deepEqual(jsonl.data.values, [1, 2]);
});

test('every row the same whether a field is quoted or not (quoted rows take the splitter, the others a fast path)', async () => {
  const rows = [
    ['q1', 'd1', 'ann', '2', 'manual', ''],
    ['q1', 'd1', 'ben', '1', 'manual', 'a, b'],
    ['q 2', 'd,2', 'llm:gpt@3f2a9c1b', '-1', 'suggestion', ''],
    ['q2', 'd3', 'ann', '0.5', ' adjudicated ', ''],
    ['q2', 'd3', 'ben', '1e1', 'imported', 'two\nlines'],
  ];
  const header = 'query_id,doc_id,annotator,label,source,rationale';
  const quoted = (field: string) => `"${field.replaceAll('"', '""')}"`;
  const plain = (field: string) => (/[",\n]/.test(field) ? quoted(field) : field);
  const everyQuoted = await readLabelFile(
    file('quoted.csv', `${header}\n${rows.map((r) => r.map(quoted).join(',')).join('\n')}\n`),
  );
  const mostlyPlain = await readLabelFile(
    file('plain.csv', `${header}\r\n${rows.map((r) => r.map(plain).join(',')).join('\r\n')}\r\n`),
  );
  assert.deepEqual(mostlyPlain, everyQuoted);
  assert.equal(everyQuoted.adjudicated, 1);
  assert.deepEqual(everyQuoted.data.values, [-1, 1, 2, 10]);
  assert.deepEqual(everyQuoted.data.qids, ['q1', 'q 2', 'q2']);
  assert.deepEqual(everyQuoted.data.docids, ['d1', 'd,2', 'd3']);
  assert.deepEqual([...everyQuoted.data.lines], [2, 3, 0, 0, 0, 4, 0, 6, 0]);
});

test('a byte order mark, blank lines and numeric JSON ids are read; only the first non-blank character decides JSONL', async () => {
  const csv = await readLabelFile(file('bom.csv', '\ufeff\n\nquery_id,doc_id,annotator,label\n\nq1,d1,ann,1\n'));
  assert.equal(csv.format, 'csv');
  assert.deepEqual([...csv.data.lines], [5]);
  const jsonl = await readLabelFile(
    file(
      'ids.txt',
      '\n  {"query_id": 7, "doc_id": "d1", "annotator": "ann", "label": 1, "source": "adjudicated"}\n' +
        '{"query_id": 7, "doc_id": "d1", "annotator": "ann", "label": "2"}\n',
    ),
  );
  assert.equal(jsonl.format, 'jsonl');
  assert.equal(jsonl.adjudicated, 1);
  assert.deepEqual(jsonl.data.qids, ['7']);
  assert.deepEqual(jsonl.data.values, [2]);
});

test('every problem is an error at its line and column: what was expected, what was found', async () => {
  const header = 'query_id,doc_id,annotator,label,source,rationale\n';
  const cases: [name: string, text: string, message: string][] = [
    [
      'a.csv',
      'query_id,doc_id,label,note\nq1,d1,1,x\n',
      "a.csv:1:1: expected a column 'annotator' (a label file's header names query_id, doc_id, annotator and " +
        "label), found columns 'query_id', 'doc_id', 'label', 'note'",
    ],
    [
      'a2.csv',
      'qid,docid,annotator,score\n',
      "a2.csv:1:1: expected columns 'query_id', 'doc_id', 'label' (a label file's header names query_id, doc_id, " +
        "annotator and label), found columns 'qid', 'docid', 'annotator', 'score'",
    ],
    [
      'b.csv',
      `${header}q1,d1,ann,1,manual,\nq1,d2,ann,high,manual,\n`,
      "b.csv:3:11: expected a label that is a finite number in 'label', found a string ('high')",
    ],
    [
      'b2.csv',
      `${header}q1,d1,ann,1,manual,"multi\nline"\nq1,d2,ann,"",manual,\n`,
      "b2.csv:4:11: expected a label that is a finite number in 'label', found an empty string ('')",
    ],
    [
      'b3.csv',
      `${header}q1,d1,ann,Infinity,manual,\n`,
      "b3.csv:2:11: expected a label that is a finite number in 'label', found a string ('Infinity')",
    ],
    [
      'c.csv',
      `${header}q1,d1,,1,manual,\n`,
      "c.csv:2:7: expected an annotator name in 'annotator' that is not empty, found an empty string ('')",
    ],
    [
      'c2.csv',
      `${header}q1,  ,ann,1,manual,\n`,
      "c2.csv:2:4: expected a document id in 'doc_id' that is not empty, found a string ('  ')",
    ],
    [
      'c3.csv',
      `${header},d1,ann,1,manual,"quoted"\n`,
      "c3.csv:2:1: expected a query id in 'query_id' that is not empty, found an empty string ('')",
    ],
    [
      'd.csv',
      `${header}q1,d1,ann,1\n`,
      "d.csv:2:12: expected 6 fields as in the header ('query_id', 'doc_id', 'annotator', 'label', 'source', " +
        "'rationale'), found 4: the row ends before 'source'",
    ],
    [
      'd2.csv',
      `${header}q1,d1,ann,1,manual,x,extra\n`,
      "d2.csv:2:22: expected 6 fields as in the header ('query_id', 'doc_id', 'annotator', 'label', 'source', " +
        "'rationale'), found 7: 1 field more than the header",
    ],
    [
      't.tsv',
      'query_id\tdoc_id\tannotator\tlabel\nq1\td1\tann\t1\nq1\td2\tann\n',
      "t.tsv:3:10: expected 4 fields as in the header ('query_id', 'doc_id', 'annotator', 'label'), found 3: the " +
        "row ends before 'label'",
    ],
    [
      'e.csv',
      `${header}q1,d1,ann,1,manual,"never closed\nmore\n`,
      `e.csv:2:20: expected a closing '"' for the quote opened here, found the end of the file (the quoted field ` +
        'takes in every line after it)',
    ],
    [
      'f.csv',
      '\n  \n',
      'f.csv:1:1: expected a label file: a CSV/TSV header naming query_id, doc_id, annotator and label, or JSON ' +
        'lines, found an empty file',
    ],
    [
      'g.csv',
      'query_id,doc_id,annotator,label,label\nq1,d1,a,1,2\n',
      "g.csv:1:33: expected a header of distinct column names, found 'label' again (first as column 4)",
    ],
    [
      'i.jsonl',
      '{"query_id":"q1","doc_id":"d1","annotator":"ann","label":1}\n{"query_id":"q1",\n',
      "i.jsonl:2:18: expected a property name in double quotes after ',', found the end of the line",
    ],
    [
      'i2.jsonl',
      '{"query_id":"q1","doc_id":"d1","annotator":"ann","label":1}\n  [1,2]\n',
      "i2.jsonl:2:3: expected a JSON object ('{') with query_id, doc_id, annotator and label, found an array",
    ],
    [
      'i3.jsonl',
      '{"query_id":"q1","doc_id":"d1","label":1}\n',
      "i3.jsonl:1:1: expected a field 'annotator' (a label file's objects have query_id, doc_id, annotator and " +
        "label), found fields 'query_id', 'doc_id', 'label'",
    ],
    [
      'i4.jsonl',
      '{"query_id":"q1","doc_id":"","annotator":"ann","label":1}\n',
      "i4.jsonl:1:27: expected a document id in 'doc_id' that is not empty, found an empty string ('')",
    ],
    [
      'i5.jsonl',
      '{"query_id":"q1","doc_id":"d1","annotator":"ann","label":"high"}\n',
      "i5.jsonl:1:58: expected a label that is a finite number (or a string holding one) in 'label', found a " +
        "string ('high')",
    ],
    [
      'i6.jsonl',
      '{"query_id":"q1","doc_id":"d1","annotator":"ann","label":null}\n',
      "i6.jsonl:1:58: expected a label that is a finite number (or a string holding one) in 'label', found null",
    ],
    [
      'i7.jsonl',
      '{"query_id":null,"doc_id":"d1","annotator":"ann","label":1}\n',
      "i7.jsonl:1:13: expected a query id in 'query_id' (a string, or a whole number), found null",
    ],
  ];
  for (const [name, text, message] of cases) {
    await assert.rejects(readLabelFile(file(name, text), { name }), (error: Error) => {
      assert.ok(error instanceof ImportError, name);
      assert.equal(error.message, message);
      return true;
    });
  }
});

test('a unit labelled twice by one annotator names both lines (after multi-line rows, and in JSONL)', async () => {
  const header = 'query_id,doc_id,annotator,label,source,rationale\n';
  for (const [name, text, first, second] of [
    ['h.csv', `${header}q1,d1,ann,1,manual,"a\nb"\nq1,d2,ann,1,manual,\nq1,d1,ann,2,manual,\n`, 2, 5],
    ['h2.csv', `${header}q1,d1,ann,1,manual,\nq1,d1,ann,2,manual,"quoted"\n`, 2, 3],
    [
      'h.jsonl',
      '{"query_id":"q1","doc_id":"d1","annotator":"ann","label":1}\n\n' +
        '{"query_id":"q1","doc_id":"d1","annotator":"ann","label":2}\n',
      1,
      3,
    ],
  ] as const) {
    await assert.rejects(readLabelFile(file(name, text), { name }), (error: Error) => {
      assert.ok(error instanceof ImportError);
      assert.equal(
        error.message,
        `${name}:${second}:1: expected one label per annotator for each query and document, found a second label ` +
          `by 'ann' for query 'q1', document 'd1' (the first on line ${first})`,
      );
      assert.deepEqual(error.related, { file: name, line: first });
      return true;
    });
  }
  // The same pair by another annotator, or a second row of the same annotator that is adjudicated, is no error.
  const fine = await readLabelFile(
    file('fine.csv', `${header}q1,d1,ann,1,manual,\nq1,d1,ben,2,manual,\nq1,d1,ann,2,adjudicated,\n`),
  );
  assert.equal(fine.labels, 2);
});
