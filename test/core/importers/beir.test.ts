import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { beirImporter } from '../../../core/importers/beir.ts';
import { importerFor, readImport } from '../../../core/importers/registry.ts';
import { fixturesDir } from '../../helpers.ts';
import { collect, dataFile, importError } from './helpers.ts';

test('a BEIR corpus: {_id, title, text} → plain documents, an empty title left out, metadata kept', async () => {
  const path = dataFile(
    'corpus.jsonl',
    [
      '{"_id": "4983", "title": "Microstructural development of human newborn cerebral white matter", "text": "Alterations of the architecture of cerebral white matter in the developing human brain can affect cortical development.", "metadata": {}}',
      '{"_id": "5836", "title": "", "text": "Myelodysplastic syndromes (MDS) are age-dependent stem cell malignancies.", "metadata": {"url": "https://example.org/5836"}}',
    ].join('\n'),
  );
  assert.equal((await importerFor(path, { target: 'corpus' })).id, 'beir');
  assert.deepEqual(await collect(readImport(path, { target: 'corpus' })), [
    {
      kind: 'document',
      docid: '4983',
      body: 'Alterations of the architecture of cerebral white matter in the developing human brain can affect cortical development.',
      title: 'Microstructural development of human newborn cerebral white matter',
      format: 'plain',
      metadata: { metadata: {} },
      at: { file: path, line: 1, column: 1 },
    },
    {
      kind: 'document',
      docid: '5836',
      body: 'Myelodysplastic syndromes (MDS) are age-dependent stem cell malignancies.',
      format: 'plain',
      metadata: { metadata: { url: 'https://example.org/5836' } },
      at: { file: path, line: 2, column: 1 },
    },
  ]);
  const markdown = await collect(readImport(path, { target: 'corpus', documentFormat: 'markdown' }));
  assert.deepEqual(
    markdown.map((r) => r.kind === 'document' && r.format),
    ['markdown', 'markdown'],
  );
});

test('BEIR queries: {_id, text} → queries; a BEIR query without text names the field', async () => {
  const path = dataFile(
    'queries.jsonl',
    '{"_id": "1", "text": "0-dimensional biomaterials show inductive properties.", "metadata": {}}\n{"_id": "3", "title": "1,000 genomes"}\n',
  );
  const error = await importError(readImport(path, { target: 'queries' }));
  assert.equal(
    error.message,
    `${path}:2:1: expected a field 'text' for text (or --map text=FIELD), found fields '_id', 'title'`,
  );
  const good = dataFile(
    'queries.jsonl',
    '{"_id": "1", "text": "0-dimensional biomaterials show inductive properties."}\n',
  );
  assert.deepEqual(await collect(readImport(good, { target: 'queries' })), [
    {
      kind: 'query',
      qid: '1',
      text: '0-dimensional biomaterials show inductive properties.',
      metadata: {},
      at: { file: good, line: 1, column: 1 },
    },
  ]);
});

test('BEIR qrels: the real SciFact test judgments as qrels/test.tsv, columns read by position after the header', async () => {
  const trec = readFileSync(join(fixturesDir, 'qrels-real', 'qrels.beir-v1.0.0-scifact.test.txt'), 'utf8');
  const rows = trec
    .trim()
    .split('\n')
    .map((line) => line.split(' '))
    .map(([qid, , docid, score]) => `${qid}\t${docid}\t${score}`);
  const path = dataFile('test.tsv', `query-id\tcorpus-id\tscore\n${rows.join('\n')}\n`);
  assert.equal((await importerFor(path, { target: 'qrels' })).id, 'beir');
  const judgments = await collect(readImport(path, { target: 'qrels' }));
  assert.equal(judgments.length, 339);
  assert.deepEqual(judgments[0], {
    kind: 'judgment',
    qid: '1',
    docid: '31715818',
    label: 1,
    at: { file: path, line: 2, column: 1 },
  });
});

test('BEIR qrels without the header: an error, not a silently lost first judgment', async () => {
  const path = dataFile('test.tsv', '1\t31715818\t1\n3\t14717500\t1\n');
  const error = await importError(beirImporter.read(path, { target: 'qrels' }));
  assert.equal(
    error.message,
    `${path}:1:1: expected the header 'query-id<TAB>corpus-id<TAB>score' on the first line (BEIR's loader skips the first line whatever it holds), found '1\\u000931715818\\u00091', a judgment: it would be lost`,
  );
});

test('BEIR qrels: a score that is not an integer, a pair judged twice', async () => {
  const float = dataFile('test.tsv', 'query-id\tcorpus-id\tscore\n1\t31715818\t1.0\n');
  assert.equal(
    (await importError(beirImporter.read(float, { target: 'qrels' }))).message,
    `${float}:2:12: expected an integer label in 'score', found a string ('1.0')`,
  );
  const twice = dataFile('dev.tsv', 'query-id\tcorpus-id\tscore\n1\t31715818\t1\n3\t14717500\t1\n1\t31715818\t2\n');
  const error = await importError(beirImporter.read(twice, { target: 'qrels' }));
  assert.equal(
    error.message,
    `${twice}:4:3: expected one judgment per query and document (trec_eval refuses duplicates), found a judgment of '31715818' for query '1' again (first on line 2)`,
  );
});
