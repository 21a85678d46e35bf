// `qrels-studio lint` as users run it: a real process through bin/qrels-studio.cjs.
import assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { fixturesDir, runCliProcess, scratchDir } from '../helpers.ts';

function writeFiles(files: Record<string, string | Buffer>): string {
  const dir = scratchDir();
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

const brokenQrels = 'q1 0 d1 1\nq1 0 d2\nq1 0 d1 2\nq2 0 d1 0\n';
const brokenRun = 'q1 Q0 d1 1 0.5 a\nq1 Q0 d2 2 0.9 a\nq1 Q0 d1 3 0.1 b\n';

test('every problem of every file, as file:line:col: severity [rule] message, sorted; exit 1 on errors', () => {
  const cwd = writeFiles({ 'a.qrels': brokenQrels, 'b.run': brokenRun });
  const result = runCliProcess(['lint', 'a.qrels', 'b.run'], { cwd });
  assert.equal(result.status, 1, result.stderr);
  assert.equal(result.stderr, '');
  assert.deepEqual(result.stdout.split('\n'), [
    'a.qrels:2:1: error [column-count] expected 4 columns (qid iter docid rel), found 3',
    "a.qrels:3:6: error [duplicate-pair] document 'd1' is judged again for query 'q1': first judged on line 1 (trec_eval aborts on it)",
    "a.qrels:4:1: hint [no-relevant-document] query 'q2' has no relevant document: its only label is ≤ 0",
    "b.run:2:10: warning [rank-score-disagreement] rank 2 of query 'q1' disagrees with the score order: its score 0.9 is higher than the 0.5 of rank 1 (line 1), so trec_eval, which ignores ranks, ranks this document above it",
    "b.run:3:7: error [duplicate-docid] document 'd1' is ranked again for query 'q1': first ranked on line 1 (trec_eval aborts on it)",
    "b.run:3:16: warning [mixed-run-tags] run tag 'b' (1 line) differs from 'a' of line 1 (2 lines): trec_eval evaluates the file as one run and reports only the last line's tag",
    '',
  ]);
});

test('--json prints an array of {file, line, column, endLine, endColumn, severity, rule, message}', () => {
  const cwd = writeFiles({ 'a.qrels': brokenQrels });
  const result = runCliProcess(['lint', '--json', 'a.qrels'], { cwd });
  assert.equal(result.status, 1, result.stderr);
  const diagnostics = JSON.parse(result.stdout);
  assert.equal(diagnostics.length, 3);
  assert.deepEqual(diagnostics[1], {
    file: 'a.qrels',
    line: 3,
    column: 6,
    endLine: 3,
    endColumn: 8,
    severity: 'error',
    rule: 'duplicate-pair',
    message: "document 'd1' is judged again for query 'q1': first judged on line 1 (trec_eval aborts on it)",
  });
  for (const d of diagnostics) {
    assert.deepEqual(Object.keys(d), ['file', 'line', 'column', 'endLine', 'endColumn', 'severity', 'rule', 'message']);
  }
});

test('a clean file prints nothing and exits 0; hints and warnings alone exit 0', () => {
  const cwd = writeFiles({ 'ok.qrels': 'q1 0 d1 1\n', 'hint.qrels': 'q1 0 d1 1' });
  const clean = runCliProcess(['lint', 'ok.qrels'], { cwd });
  assert.equal(clean.status, 0, clean.stderr);
  assert.equal(clean.stdout, '');
  const json = runCliProcess(['lint', 'ok.qrels', '--json'], { cwd });
  assert.equal(json.stdout, '[]\n');
  const hint = runCliProcess(['lint', 'hint.qrels'], { cwd });
  assert.equal(hint.status, 0);
  assert.match(hint.stdout, /^hint\.qrels:1:10: hint \[missing-final-newline\]/);
});

test('--type overrides detection, in both spellings; gzip files are read', () => {
  const run = 'q1 Q0 d1 1 0.5 a\n'.repeat(30);
  const cwd = writeFiles({ 'run.txt.gz': gzipSync(run) });
  for (const args of [['--type', 'qrels'], ['--type=qrels']]) {
    const result = runCliProcess(['lint', ...args, 'run.txt.gz'], { cwd });
    assert.equal(result.status, 1);
    assert.match(
      result.stdout,
      /^run\.txt\.gz:1:12: error \[file-type\] 30 of the first 30 lines are not valid TREC qrels lines/,
    );
    assert.equal(result.stdout.split('\n').length, 2);
  }
  const asRun = runCliProcess(['lint', 'run.txt.gz'], { cwd });
  assert.equal(asRun.status, 1);
  assert.match(asRun.stdout, /^run\.txt\.gz:2:7: error \[duplicate-docid\]/);
});

test('a prels file is named once, as a warning (exit 0)', () => {
  let prels = '';
  for (let i = 0; i < 1000; i++) prels += `${900 + (i % 5)} clueweb09-en00${i} ${i % 2} ${i % 4} 0.${i}\n`;
  const cwd = writeFiles({ 'prels.txt': prels });
  const result = runCliProcess(['lint', 'prels.txt'], { cwd });
  assert.equal(result.status, 0);
  assert.equal(
    result.stdout,
    'prels.txt:1:1: warning [unsupported-format] this is a prels file (statAP), not a qrels file; not linted\n',
  );
});

test('zero errors on every real qrels file', () => {
  const dir = join(fixturesDir, 'qrels-real');
  const files = readdirSync(dir).map((name) => join(dir, name));
  const result = runCliProcess(['lint', ...files]);
  assert.equal(result.status, 0, result.stdout + result.stderr);
  assert.doesNotMatch(result.stdout, /: error \[/);
});

test('a missing file: "FILE: cannot read: no such file", exit 1, no stack trace; the other files are linted', () => {
  const cwd = writeFiles({ 'a.qrels': brokenQrels });
  const result = runCliProcess(['lint', 'missing.qrels', 'a.qrels'], { cwd });
  assert.equal(result.status, 1);
  assert.equal(result.stderr, 'missing.qrels: cannot read: no such file\n');
  assert.match(result.stdout, /^a\.qrels:2:1: error \[column-count\]/);
  const alone = runCliProcess(['lint', 'missing.qrels'], { cwd: scratchDir() });
  assert.equal(alone.status, 1);
  assert.equal(alone.stderr, 'missing.qrels: cannot read: no such file\n');
});

test('bad options are usage errors (exit 2) with the usage line', () => {
  for (const args of [['--typo', 'x'], ['--type', 'trec', 'x'], ['--type'], ['--type='], [], ['--json']]) {
    const result = runCliProcess(['lint', ...args]);
    assert.equal(result.status, 2, args.join(' '));
    assert.match(
      result.stderr,
      /^qrels-studio lint: .+\nusage: qrels-studio lint \[--type qrels\|run\|beir-qrels\|diversity-qrels\] \[--study STUDY\.assess\] \[--json\] FILE\.\.\.\n$/,
    );
    assert.equal(result.stdout, '');
  }
});

test('--help prints the usage', () => {
  const result = runCliProcess(['lint', '--help']);
  assert.equal(result.status, 0);
  assert.match(
    result.stdout,
    /^usage: qrels-studio lint \[--type qrels\|run\|beir-qrels\|diversity-qrels\] \[--study STUDY\.assess\] \[--json\] FILE\.\.\./,
  );
});

test('a study file is linted with the same checks as in the editor: every problem, positioned, exit 1', () => {
  const cwd = writeFiles({ 'bad.assess': 'study "s" {\n  guidlines "g.md"\n  scale ordinal { 0 "no" key "j" }\n}\n' });
  const result = runCliProcess(['lint', 'bad.assess'], { cwd });
  assert.equal(result.status, 1, result.stderr);
  const lines = result.stdout.trimEnd().split('\n');
  assert.deepEqual(
    lines.map((line) => `${line.split(' [')[0]!} ${/\[([a-z-]+)\]/.exec(line)![1]}`),
    [
      'bad.assess:1:7: error missing-statement',
      'bad.assess:2:3: error unknown-keyword',
      'bad.assess:3:3: error scale-size',
      'bad.assess:3:30: error navigation-key',
    ],
  );
});

test('--study checks qrels against the study; JSONL data files get positioned record errors', () => {
  const cwd = writeFiles({
    's.assess':
      'study "s" {\n  queries "q.jsonl" { id: qid text: query }\n  corpus "c.jsonl" { id: _id body: text }\n' +
      '  scale ordinal { 0 "no" key "0"  1 "yes" key "1" }\n}\n',
    'q.jsonl': '{"qid":"q1","query":"a"}\n',
    'c.jsonl': '{"_id":"d1","text":"x"}\n{"_id":"d1","text":"y"}\n{"_id":"d2" "text":"z"}\n',
    'qrels.txt': 'q1 0 d1 1\nq2 0 d9 2\n',
  });
  const result = runCliProcess(['lint', '--study', 's.assess', 'qrels.txt', 'c.jsonl'], { cwd });
  assert.equal(result.status, 1, result.stderr);
  assert.deepEqual(
    result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.slice(0, line.indexOf(']') + 1)),
    [
      'qrels.txt:2:1: warning [unknown-query]',
      'qrels.txt:2:6: warning [unknown-document]',
      'qrels.txt:2:9: error [label-outside-scale]',
      'c.jsonl:2:8: error [duplicate-id]',
      'c.jsonl:3:13: error [invalid-json]',
    ],
  );
});

test('a study with errors is refused before any data file is checked against it', () => {
  const cwd = writeFiles({
    's.assess': 'study "s" {\n  queries "missing.jsonl" { id: qid text: q }\n}\n',
    'qrels.txt': 'q1 0 d1 1\n',
  });
  const result = runCliProcess(['lint', '--study', 's.assess', 'qrels.txt'], { cwd });
  assert.equal(result.status, 1);
  assert.equal(result.stdout, '');
  assert.match(result.stderr, /s\.assess:2:11: error \[file-not-found\]/);
  assert.match(result.stderr, /s\.assess has errors: fix them before checking data files against it/);
});
