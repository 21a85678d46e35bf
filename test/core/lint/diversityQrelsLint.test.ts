// Diversity qrels (ndeval's `topic subtopic docno grade`) in lint and the language server: lint reports the lines
// the reader of `eval --as ndeval` would stop at, at the same positions, and a real TREC diversity qrels file is clean.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { parseDiversityQrels } from '../../../core/formats/diversityQrels.ts';
import { FormatError } from '../../../core/formats/formatError.ts';
import { lintFile } from '../../../core/lint/lintFile.ts';
import { lintText } from '../../../core/lint/lintText.ts';
import { DataLinting } from '../../../language-server/dataLinting.ts';
import { cliInProcess } from '../../cli/inProcessCli.ts';
import { fixturesDir, scratchDir } from '../../helpers.ts';

const bad = '251 0 doc-a 1\n251 doc-b 1\n251 2 doc-c high\n251 x doc-d 1\n251 1 doc-e 1 extra\n';

test('lint --type diversity-qrels: a line without a subtopic, a grade or subtopic that is not a number, extra columns', () => {
  const result = lintText(bad, 'diversity-qrels', 'div.qrels');
  assert.equal(result.type, 'diversity-qrels');
  assert.deepEqual(
    result.diagnostics.map((d) => `${d.line}:${d.column} ${d.rule} ${d.message}`),
    [
      '2:12 diversity-qrels-line expected 4 columns (topic subtopic docno grade), found 3: the subtopic (2nd column) is missing',
      "3:13 diversity-qrels-line expected an integer grade, found 'high'",
      "4:5 diversity-qrels-line expected a subtopic number (an integer ≥ 0), found 'x'",
      '5:15 diversity-qrels-line expected 4 columns (topic subtopic docno grade), found 5',
    ],
  );
});

test("lint and the reader agree: the reader stops at lint's first error, same line and column", () => {
  const first = lintText(bad, 'diversity-qrels', 'div.qrels').diagnostics[0]!;
  assert.throws(
    () => parseDiversityQrels(bad, 'div.qrels'),
    (error: unknown) => error instanceof FormatError && error.line === first.line && error.column === first.column,
  );
});

test('the TREC Web 2010 diversity qrels lint clean as diversity qrels (repeated topic/docno pairs are its shape)', async () => {
  const result = await lintFile(join(fixturesDir, 'reference-measures', 'web.ndeval.qrels'), {
    type: 'diversity-qrels',
  });
  assert.deepEqual(result.diagnostics, []);
});

test('qrels-studio lint --type diversity-qrels prints positioned errors and fails', async () => {
  const dir = scratchDir();
  writeFileSync(join(dir, 'div.qrels'), bad);
  const result = await cliInProcess(dir, 'lint', '--type', 'diversity-qrels', 'div.qrels');
  assert.equal(result.status, 1);
  assert.match(
    result.stdout + result.stderr,
    /div\.qrels:2:12: error \[diversity-qrels-line\] .*the subtopic \(2nd column\) is missing/,
  );
});

test('the language server lints a document of language diversity-qrels as diversity qrels', () => {
  const linting = new DataLinting(() => undefined);
  const document = TextDocument.create('file:///w/web.ndeval.qrels', 'diversity-qrels', 1, bad);
  const result = linting.lint(document);
  assert.equal(result?.type, 'diversity-qrels');
  assert.deepEqual(
    result.diagnostics.map((d) => `${d.line}:${d.column} ${d.rule}`),
    ['2:12 diversity-qrels-line', '3:13 diversity-qrels-line', '4:5 diversity-qrels-line', '5:15 diversity-qrels-line'],
  );
});
