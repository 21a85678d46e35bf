import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { importerFor } from '../../../core/importers/registry.ts';
import { trecQrelsImporter } from '../../../core/importers/trecQrels.ts';
import { trecTopicsImporter } from '../../../core/importers/trecTopics.ts';
import { fixturesDir } from '../../helpers.ts';
import { collect, dataFile, importError } from './helpers.ts';

const realQrels = join(fixturesDir, 'qrels-real');

test('every real qrels file imports without an error, one judgment per data line', async () => {
  for (const name of readdirSync(realQrels)) {
    const path = join(realQrels, name);
    assert.equal((await importerFor(path, { target: 'qrels' })).id, 'trec-qrels', name);
    const dataLines = readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('#')).length;
    let count = 0;
    for await (const record of trecQrelsImporter.read(path, { target: 'qrels' })) {
      assert.equal(record.kind, 'judgment');
      count++;
    }
    assert.equal(count, dataLines, name);
  }
});

test("TREC qrels: tabs or spaces, any iter token, '#' comments, negative and large labels; a '#' inside a docid is data", async () => {
  const path = dataFile(
    'qrels.txt.gz',
    gzipSync(
      '# MIRACL and DL lines\n0\tQ0\t462221#4\t1\n\n19335 Q0 1017759 0\n19335 0.5 1082489 -2\r\n  q3   1  d9   16\n',
    ),
  );
  assert.equal((await importerFor(path, { target: 'qrels' })).id, 'trec-qrels');
  assert.deepEqual(await collect(trecQrelsImporter.read(path, { target: 'qrels', name: 'qrels.txt.gz' })), [
    { kind: 'judgment', qid: '0', docid: '462221#4', label: 1, at: { file: 'qrels.txt.gz', line: 2, column: 1 } },
    { kind: 'judgment', qid: '19335', docid: '1017759', label: 0, at: { file: 'qrels.txt.gz', line: 4, column: 1 } },
    { kind: 'judgment', qid: '19335', docid: '1082489', label: -2, at: { file: 'qrels.txt.gz', line: 5, column: 1 } },
    { kind: 'judgment', qid: 'q3', docid: 'd9', label: 16, at: { file: 'qrels.txt.gz', line: 6, column: 3 } },
  ]);
});

test('a qrels label 1.5 is refused (trec_eval would read it as 1), at the label', async () => {
  const path = dataFile('qrels.txt', '19335 Q0 1017759 0\n19335 Q0 1082489 1.5\n');
  const error = await importError(trecQrelsImporter.read(path, { target: 'qrels' }));
  assert.deepEqual(error.at, { file: path, line: 2, column: 18, field: 'rel' });
  assert.equal(
    error.message,
    `${path}:2:18: expected an integer relevance label, found '1.5' (trec_eval's atol would read 1)`,
  );
});

test('a qrels line with the wrong number of fields says what the file may be instead', async () => {
  const prels = dataFile('prels.txt', '19335 Q0 1017759 0\n701 GX000-00-0000000 1 0.5 1\n');
  assert.equal(
    (await importError(trecQrelsImporter.read(prels, { target: 'qrels' }))).message,
    `${prels}:2:28: expected 4 fields 'qid iter docid rel', found 5 fields (5 columns: statAP/MQ prels, not qrels?)`,
  );
  const run = dataFile('run.txt', '19335 Q0 1017759 1 12.5 bm25\n');
  assert.match(
    (await importError(trecQrelsImporter.read(run, { target: 'qrels' }))).message,
    /:1:20: expected 4 fields 'qid iter docid rel', found 6 fields \(6 columns: a TREC run/,
  );
  const short = dataFile('short.txt', '19335 Q0 1017759\n');
  assert.equal(
    (await importError(trecQrelsImporter.read(short, { target: 'qrels' }))).message,
    `${short}:1:17: expected 4 fields 'qid iter docid rel', found 3 fields (3 columns: BEIR qrels 'query-id corpus-id score' need their header line)`,
  );
});

test('a (qid, docid) judged twice in TREC qrels names both lines', async () => {
  const path = dataFile('qrels.txt', '19335 Q0 1017759 0\n19335 Q0 1082489 1\n19335 1 1017759 2\n');
  const error = await importError(trecQrelsImporter.read(path, { target: 'qrels' }));
  assert.equal(
    error.message,
    `${path}:3:9: expected one judgment per query and document (trec_eval refuses duplicates), found a judgment of '1017759' for query '19335' again (first on line 1)`,
  );
  assert.deepEqual(error.related, { file: path, line: 1 });
});

test('TREC topics TSV: qid<TAB>text without a header, the text verbatim (quotes and all)', async () => {
  const path = dataFile(
    'topics.dl19-passage.tsv',
    '19335\tanthropological definition of environment\n47923\taxon terminals or synaptic knob definition\n87181\twhat is "the" 12" ruler\n',
  );
  assert.equal((await importerFor(path, { target: 'queries' })).id, 'trec-topics');
  assert.deepEqual(await collect(trecTopicsImporter.read(path, { target: 'queries' })), [
    {
      kind: 'query',
      qid: '19335',
      text: 'anthropological definition of environment',
      metadata: {},
      at: { file: path, line: 1, column: 1 },
    },
    {
      kind: 'query',
      qid: '47923',
      text: 'axon terminals or synaptic knob definition',
      metadata: {},
      at: { file: path, line: 2, column: 1 },
    },
    {
      kind: 'query',
      qid: '87181',
      text: 'what is "the" 12" ruler',
      metadata: {},
      at: { file: path, line: 3, column: 1 },
    },
  ]);
  // A header makes it a TSV with named columns, not topics.
  const header = dataFile('queries.tsv', 'qid\ttext\n19335\tanthropological definition of environment\n');
  assert.equal((await importerFor(header, { target: 'queries' })).id, 'tsv');
});

test('TREC topics: a line without a tab, a second tab, an empty qid, a qid twice', async () => {
  const noTab = dataFile('topics.tsv', '19335\tanthropological definition\n47923 axon terminals\n');
  assert.equal(
    (await importError(trecTopicsImporter.read(noTab, { target: 'queries' }))).message,
    `${noTab}:2:21: expected 2 tab-separated fields 'qid<TAB>text', found 1 field (no tab on the line)`,
  );
  const twoTabs = dataFile('topics.tsv', '19335\tanthropological\tdefinition\n');
  assert.equal(
    (await importError(trecTopicsImporter.read(twoTabs, { target: 'queries' }))).message,
    `${twoTabs}:1:22: expected 2 tab-separated fields 'qid<TAB>text', found a second tab (more than 2 fields)`,
  );
  const empty = dataFile('topics.tsv', '\tanthropological definition\n');
  assert.equal(
    (await importError(trecTopicsImporter.read(empty, { target: 'queries' }))).message,
    `${empty}:1:1: expected an id that is not empty, found an empty string ('')`,
  );
  const twice = dataFile('topics.tsv', '19335\ta\n47923\tb\n19335\tc\n');
  assert.equal(
    (await importError(trecTopicsImporter.read(twice, { target: 'queries' }))).message,
    `${twice}:3:1: expected a unique query id, found '19335' again (first on line 1)`,
  );
});
