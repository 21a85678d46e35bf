import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lintRecordText } from '../../../../core/lint/records/lintRecordText.ts';
import { summary, where } from './recordLintHelpers.ts';

// Lines shaped as in the BEIR distributions (scifact, nfcorpus, msmarco): keys in BEIR's order, `metadata`,
// escaped quotes and Unicode, titles that are empty strings.
const beirCorpus = [
  '{"_id": "4983", "title": "Microstructural development of human newborn cerebral white matter assessed in vivo by diffusion tensor magnetic resonance imaging.", "text": "Alterations of the architecture of cerebral white matter in the developing human brain can affect cortical development and result in functional disabilities.", "metadata": {}}',
  '{"_id": "5836", "title": "Induction of myelodysplasia by myeloid-derived suppressor cells.", "text": "Myelodysplastic syndromes (MDS) are age-dependent stem cell malignancies that share biological features of activated adaptive immune response and ineffective hematopoiesis.", "metadata": {}}',
  '{"_id": "MED-10", "title": "Statin Use and Breast Cancer Survival: A Nationwide Cohort Study from Finland", "text": "Recent studies have suggested that statins, an established drug group in the prevention of cardiovascular mortality, could delay or prevent breast cancer recurrence \\u2014 \\"the effect\\" on disease-specific mortality remains unclear.", "metadata": {"url": "http://www.ncbi.nlm.nih.gov/pubmed/25329299"}}',
  '{"_id": "0", "title": "", "text": "The presence of communication amid scientific minds was equally important to the success of the Manhattan Project as scientific intellect.", "metadata": {}}',
  '{"_id": "7067032", "title": "", "text": "Épreuve — naïve café: 東京 😀", "metadata": {}}',
].join('\n');
const beirQueries = [
  '{"_id": "1", "text": "0-dimensional biomaterials show inductive properties.", "metadata": {}}',
  '{"_id": "1185869", "text": ")what was the immediate impact of the success of the manhattan project?", "metadata": {}}',
  '{"_id": "PLAIN-2", "text": "Do Cholesterol Statin Drugs Cause Breast Cancer?", "metadata": {"url": "http://nutritionfacts.org/2015/07/14/"}}',
].join('\n');

test('real BEIR corpus and queries lines pass clean', () => {
  assert.deepEqual(summary(`${beirCorpus}\n`), []);
  assert.equal(lintRecordText(`${beirCorpus}\n`).kind, 'beir-corpus');
  assert.deepEqual(summary(`${beirQueries}\n`), []);
  assert.equal(lintRecordText(`${beirQueries}\n`).kind, 'beir-queries');
});

test("a study's mapped queries and table corpus pass clean", () => {
  const queries = '{"qid": "q1", "query": "nba players", "instruction": "only players born after 1990"}\n';
  assert.deepEqual(summary(queries, { mapping: { id: 'qid', text: 'query', instruction: 'instruction' } }), []);
  const tables = '{"table_id": "t1", "caption": "Roster", "table": [["name", "born"], ["A", 1991]]}\n';
  assert.deepEqual(summary(tables, { mapping: { id: 'table_id', body: 'table', title: 'caption' } }), []);
  const csv = 'qid,query,instruction\nq1,"nba players, 2020","only ""rookies"""\n';
  assert.deepEqual(summary(csv, { mapping: { id: 'qid', text: 'query', instruction: 'instruction' } }), []);
});

test('diagnostics are sorted by line then column, and carry the file name given', () => {
  const result = lintRecordText('{"_id": 1, "text": "a"}\n{"_id": "q2" "text": "b"}\n{"_id": 1, "title": "x"}', {
    file: 'data/queries.jsonl',
  });
  assert.deepEqual(result.diagnostics.map(where), [
    '1:9-1:10 warning numeric-id',
    '2:14-2:20 error invalid-json',
    '3:1-3:25 error missing-field',
    '3:9-3:10 warning numeric-id',
    '3:9-3:10 error duplicate-id',
    '3:25-3:25 hint missing-final-newline',
  ]);
  assert.ok(result.diagnostics.every((d) => d.file === 'data/queries.jsonl'));
  assert.equal(lintRecordText('{"_id": "q1", "text": "a"}\n').file, '<text>');
});

test('invalid UTF-8 and NUL bytes never throw; they are read as U+FFFD and positioned', () => {
  const bytes = Buffer.concat([
    Buffer.from('{"_id": "q1", "text": "'),
    Buffer.from([0xff, 0xfe, 0xc3]),
    Buffer.from('"}\n{"_id": "q2", '),
    Buffer.from([0xc3, 0x28]),
    Buffer.from('}\n\u0000\u0000\n{"_id": "q\u0000", "text": "x"}\n'),
  ]);
  const text = bytes.toString('latin1');
  assert.doesNotThrow(() => lintRecordText(text));
  assert.doesNotThrow(() => lintRecordText(bytes.toString('utf8')));
  assert.deepEqual(summary(bytes.toString('utf8')), [
    '2:15-2:17 error invalid-json',
    '3:1-3:3 error invalid-json',
    '4:11-4:12 error invalid-json',
  ]);
  for (const format of ['jsonl', 'csv', 'tsv'] as const) {
    assert.doesNotThrow(() => lintRecordText('\u0000"\u0000,\t\ufffd\n"\n\u0000', { format }));
  }
});

test('random bytes never throw, whatever the format', () => {
  let seed = 42;
  const random = (): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const alphabet = '{}[]",:\\ \t\n\r0123456789abcntrufelsx-+.eé😀\u0000\ufeff';
  for (let round = 0; round < 300; round++) {
    let text = '';
    const length = Math.floor(random() * 200);
    for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * alphabet.length)];
    for (const format of [undefined, 'jsonl', 'csv', 'tsv'] as const) {
      const result = lintRecordText(text, format ? { format } : {});
      for (const d of result.diagnostics) {
        assert.ok(d.line >= 1 && d.column >= 1 && d.endColumn >= 1, JSON.stringify({ text, d }));
        assert.ok(d.endLine > d.line || (d.endLine === d.line && d.endColumn >= d.column), JSON.stringify({ text, d }));
      }
    }
  }
});
