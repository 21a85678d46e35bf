// What the judge's prompt shows of a document: tables as Markdown (TARGET found Markdown serialisation works best)
// with their context lines, whatever they were stored as; other documents as stored.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isTableDocument, markdownTable, parseHtmlTable, promptDocument } from '../../../core/judge/promptDocument.ts';

// demo/tables/tables-html.jsonl's 2016 medal table: a two-row header with a rowspan and a colspan.
const medals2016 =
  '<table><thead><tr><th rowspan="2">Nation</th><th colspan="3">Medals</th></tr><tr><th>Gold</th><th>Silver</th>' +
  '<th>Bronze</th></tr></thead><tbody><tr><td>United States</td><td>46</td><td>37</td><td>38</td></tr>' +
  '<tr><td>Great Britain</td><td>27</td><td>23</td><td>17</td></tr></tbody></table>';

test('an HTML table with a two-row header: one header row, spanned headings joined, a rowspan repeated', () => {
  assert.equal(
    promptDocument({ body: medals2016, format: 'html' }),
    [
      '| Nation | Medals / Gold | Medals / Silver | Medals / Bronze |',
      '|---|---|---|---|',
      '| United States | 46 | 37 | 38 |',
      '| Great Britain | 27 | 23 | 17 |',
    ].join('\n'),
  );
  // demo's Physics laureates: a body cell spanning two rows belongs to both.
  const laureates =
    '<table><tr><th>Decade</th><th>Year</th><th>Laureate</th></tr><tr><td rowspan="2">2010s</td><td>2017</td>' +
    '<td>Rainer Weiss</td></tr><tr><td>2018</td><td>Donna Strickland</td></tr><tr><td>2020s</td><td>2023</td><td>Anne L&#39;Huillier &amp; co</td></tr></table>';
  assert.deepEqual(parseHtmlTable(laureates)?.rows, [
    ['2010s', '2017', 'Rainer Weiss'],
    ['2010s', '2018', 'Donna Strickland'],
    ['2020s', '2023', "Anne L'Huillier & co"],
  ]);
});

test('a JSON table (TARGET) becomes Markdown with its database and keys when the corpus maps them', () => {
  const body = JSON.stringify([
    ['id', 'name | alias', 'city'],
    [1, 'Ana', null],
  ]);
  const metadata = JSON.stringify({ db_id: 'concert_singer', context: { primary_key: 'id' }, other: 'x' });
  assert.equal(
    promptDocument({ body, format: 'table-json', metadata }, { id: 'table_id', database: 'db_id', keys: 'context' }),
    [
      'Database: concert_singer',
      'Keys: {"primary_key":"id"}',
      '',
      '| id | name \\| alias | city |',
      '|---|---|---|',
      '| 1 | Ana |  |',
    ].join('\n'),
  );
  // Not mapped: no context line.
  assert.ok(promptDocument({ body, format: 'table-json', metadata }).startsWith('| id |'));
});

test('a Markdown table stays as it is; documents that are not tables are shown as stored', () => {
  const table = '| Rank | Nation |\n|---|---|\n| 1 | China |';
  assert.equal(promptDocument({ body: table, format: 'markdown' }), table);
  assert.ok(isTableDocument(table, 'markdown'));
  // CRUMB's Markdown documents: headings and prose, a table inside is still a document.
  const statute =
    '# Tenn. Code § 29-18-107\n\nThe general sessions court has jurisdiction.\n\n| a | b |\n|---|---|\n| 1 | 2 |';
  assert.equal(isTableDocument(statute, 'markdown'), false);
  assert.equal(promptDocument({ body: statute, format: 'markdown' }), statute);
  const page = '<h1>Eviction</h1><p>First heard in general sessions court.</p><table><tr><td>x</td></tr></table>';
  assert.equal(isTableDocument(page, 'html'), false);
  assert.equal(promptDocument({ body: page, format: 'html' }), page);
  assert.equal(isTableDocument('[1, 2', 'table-json'), false);
  assert.equal(markdownTable({ header: ['a'], rows: [['line\nbreak']] }), '| a |\n|---|\n| line break |');
});
