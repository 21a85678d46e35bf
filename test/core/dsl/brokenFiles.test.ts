import assert from 'node:assert/strict';
import { test } from 'node:test';
import { studyChecks } from '../../../core/dsl/checks/registry.ts';
import { parseStudyFile } from '../../../core/dsl/parser.ts';
import { diagnose, problems, studyWith } from './dslTestHelpers.ts';

/** A valid review with `lines` after its items (they start on line 3). */
function reviewWith(...lines: string[]): string {
  return ['review "r" {', '  items "i.jsonl" { id: iid  text: t }', ...lines.map((l) => `  ${l}`), '}', ''].join('\n');
}

/** Every broken file and every diagnostic it must give: "line:col-line:col code", nothing more, nothing less. */
const cases: { name: string; text: string; expected: string[] }[] = [
  {
    name: 'unterminated string: error from the quote to the end of the line',
    text: studyWith('title "WQT dev'),
    expected: ['9:9-9:17 unterminated-string'],
  },
  {
    name: 'unterminated string recovers at the line end: the next line still parses',
    text: studyWith('title "WQT dev', 'guidlines "g.md"'),
    expected: ['9:9-9:17 unterminated-string', '10:3-10:12 unknown-keyword'],
  },
  {
    name: 'missing } at the end of the file: on the last token',
    text: studyWith('title "x"').replace(/\}\n$/, ''),
    expected: ['9:9-9:12 unclosed-block'],
  },
  {
    name: 'missing } before the next block: on the next block keyword',
    text: `${studyWith().replace(/\}\n$/, '')}review "r" {\n  items "i.jsonl" { id: a  text: b }\n}\n`,
    expected: ['9:1-9:7 unclosed-block'],
  },
  {
    name: 'unknown keyword with a did-you-mean fix',
    text: studyWith('guidlines "g.md"'),
    expected: ['9:3-9:12 unknown-keyword'],
  },
  {
    name: 'two misspelt keywords on consecutive lines: both reported',
    text: studyWith('titel "x"', 'guidlines "g.md"'),
    expected: ['9:3-9:8 unknown-keyword', '10:3-10:12 unknown-keyword'],
  },
  {
    name: 'unknown keyword at the top level',
    text: 'titl "x"\nstudy "s" {\n}\n',
    expected: ['1:1-1:5 unknown-keyword', '2:7-2:10 missing-statement'],
  },
  {
    name: 'a review statement in a study',
    text: studyWith('verdicts accept reject'),
    expected: ['9:3-9:11 unknown-keyword'],
  },
  {
    name: 'duplicate scale value, on the second',
    text: studyWith().replace('1 "Yes" key "1"', '1 "Yes" key "1"\n    1 "Again" key "2"'),
    expected: ['7:5-7:6 duplicate-scale-value'],
  },
  {
    name: 'duplicate scale key',
    text: studyWith().replace('1 "Yes" key "1"', '1 "Yes" key "0"'),
    expected: ['6:17-6:20 duplicate-scale-key'],
  },
  {
    name: 'scale key j collides with navigation',
    text: studyWith().replace('1 "Yes" key "1"', '1 "Yes" key "j"'),
    expected: ['6:17-6:20 navigation-key'],
  },
  {
    name: 'scale key ? collides with navigation',
    text: studyWith().replace('1 "Yes" key "1"', '1 "Yes" key "?"'),
    expected: ['6:17-6:20 navigation-key'],
  },
  {
    name: 'two-character key',
    text: studyWith().replace('1 "Yes" key "1"', '1 "Yes" key "10"'),
    expected: ['6:17-6:21 key-length'],
  },
  {
    name: 'scale entry without key',
    text: studyWith().replace('1 "Yes" key "1"', '1 "Yes"'),
    // At the end of the entry's line: an entry, like a statement, ends at its line.
    expected: ['6:7-6:12 unexpected-token'],
  },
  {
    name: 'decimal scale value',
    text: studyWith().replace('1 "Yes"', '1.5 "Yes"'),
    expected: ['6:5-6:8 expected-integer'],
  },
  {
    name: 'misspelt scale kind with a fix',
    text: studyWith().replace('scale ordinal', 'scale ordnal'),
    expected: ['4:9-4:15 unknown-value'],
  },
  {
    name: 'binary scale with three values',
    text: studyWith()
      .replace('scale ordinal', 'scale binary')
      .replace('1 "Yes" key "1"', '1 "Yes" key "1"\n    2 "Very" key "2"'),
    expected: ['4:9-4:15 scale-size'],
  },
  {
    name: 'scale with one value',
    text: studyWith().replace('    1 "Yes" key "1"\n', ''),
    expected: ['4:3-4:8 scale-size'],
  },
  {
    name: 'undeclared name in derive, with a fix',
    text: studyWith('derive label = topicl ? 1 : 0'),
    expected: ['9:18-9:24 derive-undeclared-name'],
  },
  {
    name: 'conditions used without `conditions from`',
    text: studyWith('derive label = all(conditions) ? 1 : 0'),
    expected: ['9:22-9:32 derive-undeclared-name'],
  },
  {
    name: 'conditions outside all()/any()',
    text: studyWith('conditions from instruction', 'derive label = conditions ? 1 : 0'),
    expected: ['10:18-10:28 derive-undeclared-name'],
  },
  {
    name: 'derived value that is not a scale value',
    text: studyWith('derive label = topical ? 2 : 0'),
    expected: ['9:28-9:29 derive-value'],
  },
  {
    // Interval arithmetic: cov (levels 0 1 2) + topical (0 or 1) gives 0 to 3; the scale stops at 1.
    name: 'a sum that can go past the scale',
    text: studyWith('aspect cov "Covered?" levels 0 1 2', 'derive label = cov + topical'),
    expected: ['10:18-10:31 derive-value'],
  },
  {
    // count(conditions) is 0 to n, n unknown in the study: a warning, not an error.
    name: 'count(conditions) with no cap: unbounded',
    text: studyWith('conditions from instruction', 'derive label = count(conditions)'),
    expected: ['10:18-10:35 derive-unbounded'],
  },
  {
    name: 'count(conditions) capped by ?: is within the scale',
    text: studyWith('conditions from instruction', 'derive label = count(conditions) > 1 ? 1 : count(conditions)'),
    expected: [],
  },
  {
    name: 'conditions[0]: positions start at 1',
    text: studyWith('conditions from instruction', 'derive label = conditions[0] ? 1 : 0'),
    expected: ['10:29-10:30 derive-index'],
  },
  {
    name: 'an aspect indexed',
    text: studyWith('derive label = topical[1] ? 1 : 0'),
    expected: ['9:18-9:25 derive-index'],
  },
  {
    name: 'graded aspect levels out of order',
    text: studyWith('aspect cov "Covered?" levels 0 2 1'),
    expected: ['9:36-9:37 aspect-levels'],
  },
  {
    name: 'graded aspect with levels missing',
    text: studyWith('aspect cov "Covered?" levels'),
    expected: ['9:25-9:31 unexpected-token'],
  },
  {
    name: 'derive of something other than label',
    text: studyWith('derive score = topical ? 1 : 0'),
    expected: ['9:10-9:15 derive-value'],
  },
  {
    name: 'unknown derive function',
    text: studyWith('derive label = every(topical) ? 1 : 0'),
    expected: ['9:18-9:23 derive-unknown-function'],
  },
  {
    name: 'derive with the expression missing',
    text: studyWith('derive label =', 'blind'),
    expected: ['9:16-9:17 unexpected-token'],
  },
  {
    name: 'ternary without its colon',
    text: studyWith('derive label = topical ? 1 0'),
    expected: ['9:30-9:31 unexpected-token'],
  },
  {
    name: 'a lone & in derive: one error, read as &&',
    text: studyWith('derive label = topical & topical ? 1 : 0'),
    expected: ['9:26-9:27 invalid-character'],
  },
  {
    name: '10,000 nested parentheses: one too-deep error, no stack overflow',
    text: studyWith(`derive label = ${'('.repeat(10000)}1`),
    expected: ['9:118-9:119 too-deep'],
  },
  {
    name: '10,000 nested braces: skipped with one too-deep error',
    text: `study "s" {\n${'{'.repeat(10000)}\n}`,
    expected: [
      '1:7-1:10 missing-statement',
      '2:1-2:2 unexpected-token',
      '2:101-2:102 too-deep',
      '3:1-3:2 unclosed-block',
    ],
  },
  {
    name: 'bad judge endpoint URL, with a fix',
    text: studyWith('judge "m" { endpoint "api.openai.com/v1" }'),
    expected: ['9:24-9:43 judge-endpoint'],
  },
  {
    name: 'non-http endpoint',
    text: studyWith('judge "m" { endpoint "ftp://host/v1" }'),
    expected: ['9:24-9:39 judge-endpoint'],
  },
  {
    name: 'temperature above 2 and zero votes',
    text: studyWith('judge "m" { temperature 3  votes 0 }'),
    expected: ['9:27-9:28 judge-option-range', '9:36-9:37 judge-option-range'],
  },
  {
    name: 'misspelt judge option',
    text: studyWith('judge "m" { temprature 0 }'),
    expected: ['9:15-9:25 unknown-keyword'],
  },
  {
    name: 'judge option given twice',
    text: studyWith('judge "m" { votes 3  votes 5 }'),
    expected: ['9:24-9:29 repeated-judge-option'],
  },
  {
    name: 'two judges with the same model',
    text: studyWith('judge "m"', 'judge "m" { votes 3 }'),
    expected: ['10:9-10:12 duplicate-judge'],
  },
  {
    name: 'misspelt judge mode: unknown value with a did-you-mean',
    text: studyWith('judge "m" { mode bath }'),
    expected: ['9:20-9:24 unknown-value'],
  },
  {
    name: 'judge mode missing',
    text: studyWith('judge "m" { mode }'),
    expected: ['9:20-9:21 unexpected-token'],
  },
  {
    name: 'a budget in a currency other than USD',
    text: studyWith('judge "m" { budget 25 EUR }'),
    expected: ['9:25-9:28 unknown-value'],
  },
  {
    name: 'a budget without its amount, or without its currency',
    text: studyWith('judge "m" { budget USD }', 'judge "n" { budget 25 }'),
    expected: ['9:22-9:25 unexpected-token', '10:25-10:26 unexpected-token'],
  },
  {
    name: 'a budget of 0 (or less): more than 0 is expected',
    text: studyWith('judge "m" { budget 0 USD  votes 3 }', 'judge "n" { budget -5 USD }'),
    expected: ['9:22-9:23 judge-option-range', '10:22-10:24 judge-option-range'],
  },
  {
    name: 'a gate without `when`',
    text: studyWith('judge "m" { accept tau >= 0.9 }'),
    expected: ['9:22-9:25 unexpected-token'],
  },
  {
    name: 'a gate with a misspelt metric: one error, the rest of the condition is read',
    text: studyWith('judge "m" { accept when tua >= 0.9  votes 3 }'),
    expected: ['9:27-9:30 unknown-value'],
  },
  {
    name: 'a gate with `=` for a comparison, a word for a value, `&&` for `and`, a dangling `and`',
    text: studyWith(
      'judge "a" { accept when tau = 0.9 }',
      'judge "b" { accept when tau >= high }',
      'judge "c" { accept when tau >= 0.9 && kappa > 0.5 }',
      'judge "d" { accept when tau >= 0.9 and }',
    ),
    expected: [
      '9:31-9:32 unexpected-token',
      '10:34-10:38 unexpected-token',
      '11:38-11:40 unexpected-token',
      '12:42-12:43 unexpected-token',
    ],
  },
  {
    name: 'gate values out of range: tau and tau_ap in [-1, 1], kappa, accuracy and ece in [0, 1]',
    text: studyWith(
      'judge "m" { accept when tau >= 1.5 and tau_ap >= -1.2 and ece <= 1 and kappa >= -0.1 and accuracy > 1.01 }',
    ),
    expected: [
      '9:34-9:37 judge-gate-range',
      '9:52-9:56 judge-gate-range',
      '9:83-9:87 judge-gate-range',
      '9:103-9:107 judge-gate-range',
    ],
  },
  {
    name: 'a metric named twice in one gate: a warning on the second',
    text: studyWith('judge "m" { accept when tau >= 0.8 and kappa >= 0.6 and tau >= 0.9 }'),
    expected: ['9:59-9:62 repeated-gate-metric'],
  },
  {
    name: 'the new judge options given twice',
    text: studyWith('judge "m" { mode batch  mode online  budget 5 USD  budget 6 USD }'),
    expected: ['9:27-9:31 repeated-judge-option', '9:54-9:60 repeated-judge-option'],
  },
  {
    name: 'missing corpus: on the study name',
    text: studyWith().replace('  corpus "c.jsonl" { id: did  body: text }\n', ''),
    expected: ['1:7-1:10 missing-statement'],
  },
  { name: 'review without items', text: 'review "r" {\n  verdicts a b\n}\n', expected: ['1:8-1:11 missing-statement'] },
  {
    name: 'two titles: on the second',
    text: studyWith('title "a"', 'title "b"'),
    expected: ['10:3-10:8 repeated-statement'],
  },
  { name: 'bad number', text: studyWith('pool "r.trec" depth 2x'), expected: ['9:23-9:25 invalid-number'] },
  { name: 'pool depth 0', text: studyWith('pool "r" depth 0'), expected: ['9:18-9:19 pool-depth'] },
  { name: 'unknown measure', text: studyWith('measures mapp'), expected: ['9:12-9:16 unknown-measure'] },
  { name: 'NUL byte', text: studyWith('title "a"\u0000'), expected: ['9:12-9:13 invalid-character'] },
  {
    name: 'an emoji outside a string, then a misspelt keyword: columns count code points',
    text: studyWith('title "😀" 😀 titl "x"'),
    expected: ['9:13-9:14 invalid-character', '9:15-9:19 unknown-keyword'],
  },
  { name: 'unknown escape in a string', text: studyWith('title "a\\q"'), expected: ['9:11-9:13 invalid-escape'] },
  {
    name: 'overlap above the number of annotators',
    text: studyWith('annotators a b', 'overlap 3'),
    expected: ['10:11-10:12 overlap-range'],
  },
  {
    name: 'decimal overlap',
    text: studyWith('annotators a b', 'overlap 1.5'),
    expected: ['10:11-10:14 expected-integer'],
  },
  { name: 'duplicate annotator', text: studyWith('annotators a b a'), expected: ['9:18-9:19 duplicate-annotator'] },
  {
    name: 'agreement: a level the statistic does not take, a target above 1',
    text: studyWith('agreement fleiss ordinal target 1.5'),
    expected: ['9:20-9:27 agreement-level', '9:35-9:38 agreement-target'],
  },
  {
    name: 'agreement target 0',
    text: studyWith('agreement krippendorff target 0'),
    expected: ['9:33-9:34 agreement-target'],
  },
  {
    name: 'unknown role (with a fix) leaves a required role missing',
    text: studyWith().replace('text: query', 'txt: query'),
    expected: ['2:11-2:20 missing-role', '2:32-2:35 unknown-role'],
  },
  {
    name: 'role mapped twice',
    text: studyWith().replace('id: did', 'id: did  id: doc'),
    expected: ['3:31-3:33 duplicate-role'],
  },
  {
    name: 'unclosed mapping ends at the next statement',
    text: studyWith().replace('{ id: did  body: text }', '{ id: did  body: text'),
    expected: ['4:3-4:8 unclosed-block'],
  },
  { name: 'duplicate aspect', text: studyWith('aspect topical "Again?"'), expected: ['9:10-9:17 duplicate-aspect'] },
  {
    name: 'export from judge without a judge',
    text: studyWith('export qrels "o.qrels" from judge'),
    expected: ['9:31-9:36 export-requirement'],
  },
  {
    name: 'per-document export without a corpus parent role',
    text: studyWith('export qrels "d.qrels" from adjudicated per document'),
    expected: ['9:43-9:55 export-requirement'],
  },
  {
    name: 'per-chunk export without a corpus parent role, and `by` after `per chunk`',
    text: studyWith('export qrels "c.qrels" per chunk by max'),
    expected: ['9:26-9:35 export-requirement', '9:39-9:42 export-requirement'],
  },
  {
    name: 'per-document export by an unknown rule',
    text: studyWith('export qrels "d.qrels" per document by most'),
    expected: ['9:26-9:38 export-requirement', '9:42-9:46 unknown-value'],
  },
  {
    name: 'two studies with one name',
    text: `${studyWith()}study "s" {\n}\n`,
    expected: ['10:7-10:10 duplicate-block-name', '10:7-10:10 missing-statement'],
  },
  {
    name: 'duplicate taxonomy code',
    text: reviewWith('taxonomy { C1 "a"  C1 "b" }'),
    expected: ['3:22-3:24 duplicate-taxonomy-code'],
  },
  {
    name: 'duplicate rubric level and dimension',
    text: reviewWith('rubric levels good good bad { clarity  clarity "again" }'),
    expected: ['3:22-3:26 duplicate-rubric-name', '3:42-3:49 duplicate-rubric-name'],
  },
  {
    name: 'duplicate verdict',
    text: reviewWith('verdicts accept reject accept'),
    expected: ['3:26-3:32 duplicate-verdict'],
  },
  {
    name: 'verdicts sharing a first letter, and one starting with a navigation key',
    text: reviewWith('verdicts accept approve keep reject'),
    expected: ['3:19-3:26 verdict-key', '3:27-3:31 verdict-key'],
  },
  {
    name: 'more rubric levels than the keys 1 … 9',
    text: reviewWith('rubric levels l1 l2 l3 l4 l5 l6 l7 l8 l9 l10 { clarity }'),
    expected: ['3:44-3:47 rubric-levels'],
  },
  {
    name: 'a label export in a review (a study writes labels; a review, verdicts)',
    text: reviewWith('export labels "x.csv"'),
    expected: ['3:10-3:16 unknown-value'],
  },
  {
    name: 'the adjudicator among the annotators',
    text: reviewWith('annotators alice carol', 'adjudicator carol'),
    expected: ['4:15-4:20 adjudicator-annotator'],
  },
  {
    name: 'two store statements: the second is reported',
    text: `store sqlite\nstore postgres "team"\n${studyWith()}`,
    expected: ['2:1-2:6 repeated-store'],
  },
  {
    name: 'a connection URL with a password: a warning on the password',
    text: `store postgres "postgres://alice:s3cret@db.example/wqt"\n${studyWith()}`,
    expected: ['1:33-1:40 store-password'],
  },
  {
    name: 'a misspelt store kind: unknown value with a did-you-mean',
    text: `store postgre "team"\n${studyWith()}`,
    expected: ['1:7-1:14 unknown-value'],
  },
  {
    name: 'CRLF line endings do not shift columns',
    text: studyWith('title "x"', 'guidlines "g"').replace(/\n/g, '\r\n'),
    expected: ['10:3-10:12 unknown-keyword'],
  },
];

for (const { name, text, expected } of cases) {
  test(`broken file — ${name}`, () => {
    assert.deepEqual(diagnose(text), expected);
  });
}

test('every registered semantic check is exercised by a broken file above', () => {
  const seen = new Set(cases.flatMap((c) => problems(c.text).map((d) => d.code)));
  for (const check of studyChecks) assert.ok(seen.has(check.code), `no broken file for ${check.code}`);
});

test('diagnostic messages say what was expected and what was found', () => {
  const message = (text: string) => problems(text)[0]!.message;
  assert.equal(
    message(studyWith('guidelines {')),
    'expected a string with the guidelines path after `guidelines`, found `{`',
  );
  assert.match(
    message(studyWith('guidlines "g.md"')),
    /^unknown keyword `guidlines` in a study \(valid here: title, guidelines, .*\); did you mean `guidelines`\?$/,
  );
  assert.equal(message(studyWith('title "a"\u0000')), 'unexpected character U+0000');
  assert.equal(
    message(studyWith('title "x"').replace(/\}\n$/, '')),
    'expected `}` to close study "s" (opened at line 1), found the end of the file',
  );
  assert.equal(
    message(studyWith('judge "m" { endpoint "api.openai.com/v1" }')),
    'expected an http(s) URL after `endpoint` (such as "https://api.openai.com/v1"), found "api.openai.com/v1"',
  );
  assert.equal(
    message(studyWith().replace('  corpus "c.jsonl" { id: did  body: text }\n', '')),
    'study "s" has no `corpus` statement: a study needs `queries`, `corpus` and `scale`',
  );
});

test('quick fixes: the edit replaces exactly the bad token', () => {
  const apply = (text: string, code: string) => {
    const fix = problems(text).find((d) => d.code === code)!.fixes![0]!;
    let out = text;
    for (const edit of [...fix.edits].sort((a, b) => b.range.start - a.range.start)) {
      out = out.slice(0, edit.range.start) + edit.newText + out.slice(edit.range.end);
    }
    return out;
  };
  assert.equal(apply(studyWith('guidlines "g.md"'), 'unknown-keyword'), studyWith('guidelines "g.md"'));
  assert.equal(
    apply(studyWith('derive label = topicl ? 1 : 0'), 'derive-undeclared-name'),
    studyWith('derive label = topical ? 1 : 0'),
  );
  assert.equal(
    apply(studyWith('judge "m" { endpoint "api.openai.com/v1" }'), 'judge-endpoint'),
    studyWith('judge "m" { endpoint "https://api.openai.com/v1" }'),
  );
  assert.equal(apply(studyWith().replace('scale ordinal', 'scale ordnal'), 'unknown-value'), studyWith());
  assert.equal(apply(studyWith().replace('text: query', 'txt: query'), 'unknown-role'), studyWith());
  assert.equal(
    apply(studyWith('judge "m" { temprature 0 }'), 'unknown-keyword'),
    studyWith('judge "m" { temperature 0 }'),
  );
  // The navigation-key fix proposes a key no other value uses, and the fixed file is clean.
  const navigation = studyWith().replace('1 "Yes" key "1"', '1 "Yes" key "j"');
  const fixed = apply(navigation, 'navigation-key');
  assert.deepEqual(diagnose(fixed), []);
  assert.notEqual(fixed, navigation);
});

test('a misspelt keyword with no close match gets no fix', () => {
  const found = problems(studyWith('zzzzzz "x"'));
  assert.equal(found[0]!.code, 'unknown-keyword');
  assert.equal(found[0]!.fixes, undefined);
});

test('ALL syntax errors of a file are reported in one parse, in text order', () => {
  const text = [
    'study "s" {',
    '  titel "x"',
    '  queries "q.jsonl" { id qid text: q }',
    '  pool "r.trec" depth 2.5',
    '  scale ordnal { 0 "a" key "0"  1 "b" key "1" }',
    '  judge "m" { votes }',
    '}',
    'review "r" { items "i" { id: a text: b } taxonomy { C1 "x"',
  ].join('\n');
  const found = parseStudyFile(text).diagnostics.map((d) => d.code);
  assert.deepEqual(found, [
    'unknown-keyword',
    'unexpected-token',
    'expected-integer',
    'unknown-value',
    'unexpected-token',
    'unclosed-block',
    'unclosed-block',
  ]);
});
