import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { lintText } from '../../../../core/lint/lintText.ts';
import type { StudyLintContext } from '../../../../core/lint/studyContext.ts';
import { readQrelsQueryIds } from '../../../../core/lint/studyLoader.ts';
import { scratchDir } from '../../../helpers.ts';
import { where } from '../lintTestHelpers.ts';

const study: StudyLintContext = {
  name: "study 'wqt-dev'",
  queries: { source: 'data/queries.jsonl', has: (id) => id === 'q1' || id === 'q2' },
  corpus: { source: 'data/tables.jsonl', has: (id) => /^t\d$/.test(id) },
  scaleValues: [0, 1, 2],
};

function findings(text: string, rule: string, type?: 'qrels' | 'run') {
  return lintText(text, type, '<text>', study).diagnostics.filter((d) => d.rule === rule);
}

test('a query the study does not have is a warning once, on the qid of its first line', () => {
  const found = findings('q1 0 t1 1\nq9 0 t1 1\nq9 0 t2 0\n', 'unknown-query');
  assert.deepEqual(found.map(where), ['2:1-2:3 warning unknown-query']);
  assert.equal(found[0]!.message, "query 'q9' is not in data/queries.jsonl, the queries of study 'wqt-dev'");
});

test('a document the corpus does not have is a warning on its docid, in qrels and runs', () => {
  assert.deepEqual(findings('q1 0 t1 1\nq1 0 tx 1\n', 'unknown-document').map(where), [
    '2:6-2:8 warning unknown-document',
  ]);
  const run = 'q1 Q0 t1 1 2.5 r\nq1 Q0 doc7 2 1.5 r\n';
  const [d] = findings(run, 'unknown-document');
  assert.equal(where(d!), '2:7-2:11 warning unknown-document');
  assert.equal(d!.message, "document 'doc7' is not in data/tables.jsonl, the corpus of study 'wqt-dev'");
});

test('a label off the scale is an error on the label; negative and unlisted grades included', () => {
  const found = findings('q1 0 t1 3\nq1 0 t2 -2\nq2 0 t3 2\n', 'label-outside-scale');
  assert.deepEqual(found.map(where), ['1:9-1:10 error label-outside-scale', '2:9-2:11 error label-outside-scale']);
  assert.equal(found[0]!.message, "label '3' is not on the scale of study 'wqt-dev' (0, 1, 2)");
});

test('without a study the study-aware rules say nothing', () => {
  const ids = lintText('q9 0 zz 7\n').diagnostics.map((d) => d.rule);
  assert.deepEqual(
    ids.filter((id) => ['unknown-query', 'unknown-document', 'label-outside-scale'].includes(id)),
    [],
  );
});

test('qrels queries the run does not rank: one warning on the first line, listing them', () => {
  const withQrels: StudyLintContext = {
    name: "study 's'",
    qrels: { source: 'qrels/s.qrels', queryIds: new Set(['q1', 'q2', 'q3']) },
  };
  const run = 'q1 Q0 d1 1 2.5 r\nq1 Q0 d2 2 1.5 r\n';
  const found = lintText(run, undefined, '<text>', withQrels).diagnostics.filter(
    (d) => d.rule === 'query-missing-from-run',
  );
  assert.deepEqual(found.map(where), ['1:1-1:3 warning query-missing-from-run']);
  assert.equal(
    found[0]!.message,
    "2 queries of qrels/s.qrels have no ranking in this run: 'q2', 'q3'; trec_eval 10 stops with an error unless run with -c",
  );
  const complete = `${run}q2 Q0 d1 1 1 r\nq3 Q0 d1 1 1 r\n`;
  assert.deepEqual(
    lintText(complete, undefined, '<text>', withQrels).diagnostics.filter((d) => d.rule === 'query-missing-from-run'),
    [],
  );
});

test("a CRLF qrels file's blank line is no query: readQrelsQueryIds reads only judgment lines", async () => {
  const dir = scratchDir('qrels-ids-');
  const path = join(dir, 'old.qrels');
  writeFileSync(path, '# judged in 2024\r\nq1 0 d1 1\r\n\r\n  q2\t0 d2 1\r\n \t\r\n');
  assert.deepEqual(await readQrelsQueryIds(path), new Set(['q1', 'q2']));
  assert.equal(await readQrelsQueryIds(join(dir, 'missing.qrels')), undefined);
});

test('ids longer than a message shows are compared whole: a known 80-character docid, a ranked 80-character qid', () => {
  const long = `t${'9'.repeat(79)}`;
  const longQuery = `q${'x'.repeat(79)}é`;
  const known: StudyLintContext = {
    name: "study 's'",
    corpus: { source: 'c.jsonl', has: (id) => id === long },
    qrels: { source: 's.qrels', queryIds: new Set([longQuery]) },
  };
  const run = `${longQuery} Q0 ${long} 1 1 r\n`;
  const rules = lintText(run, 'run', '<text>', known).diagnostics.map((d) => d.rule);
  assert.ok(!rules.includes('unknown-document'), rules.join());
  assert.ok(!rules.includes('query-missing-from-run'), rules.join());
  // A different long id is still unknown, and its message shows it shortened.
  const [unknown] = lintText(`${longQuery} Q0 ${long}0 1 1 r\n`, 'run', '<text>', known).diagnostics.filter(
    (d) => d.rule === 'unknown-document',
  );
  assert.match(unknown!.message, /^document 't9{59}…' is not in c\.jsonl/);
});
