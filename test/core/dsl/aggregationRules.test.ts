// `export qrels "…" from mean > 1.5` and `from human-else-llm` (issue 19 item 3): the model carries the rule and its
// threshold, the label source the CLI reads is the same rule, and a misspelt or incomplete rule is an error.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveStudies } from '../../../core/dsl/model.ts';
import { parseStudyFile } from '../../../core/dsl/parser.ts';
import { hoverAt } from '../../../core/dsl/services/hover.ts';
import { labelSourceOfExport } from '../../../core/store/qrelsExportSource.ts';
import { offsetOf, studyWith } from './dslTestHelpers.ts';

test('from mean > T and from human-else-llm reach the model and name the CLI label source', () => {
  const text = studyWith(
    'export qrels "quest.qrels" from mean > 1.5',
    'export qrels "final.qrels" from human-else-llm',
  );
  const parsed = parseStudyFile(text);
  assert.deepEqual(parsed.diagnostics, []);
  const study = resolveStudies(parsed).studies[0]!;
  assert.deepEqual(
    study.exports.map((e) => [e.from, e.threshold]),
    [
      ['mean', 1.5],
      ['human-else-llm', undefined],
    ],
  );
  assert.deepEqual(
    study.exports.map((e) => labelSourceOfExport(study, e)),
    ['mean>1.5', 'human-else-llm'],
  );
  const hover = hoverAt(parsed, offsetOf(text, 'else-llm', 1));
  assert.match(hover?.markdown ?? '', /\*\*human-else-llm\*\*.*FollowTable/s);
});

test('a misspelt rule gets a did-you-mean; mean without a threshold is an error', () => {
  const typo = parseStudyFile(studyWith('export qrels "x.qrels" from human-else-lm'));
  assert.equal(typo.diagnostics.length, 1);
  assert.match(typo.diagnostics[0]!.message, /found `human-else-lm`; did you mean `human-else-llm`\?/);
  const bare = parseStudyFile(studyWith('export qrels "x.qrels" from mean'));
  assert.equal(bare.diagnostics.length, 1);
  assert.match(bare.diagnostics[0]!.message, /expected `>` and the threshold after `from mean`/);
  const word = parseStudyFile(studyWith('export qrels "x.qrels" from mean > high'));
  assert.match(word.diagnostics[0]!.message, /expected the threshold \(a number\) after `from mean >`/);
});
