// The study's `measures` statement: parsed as a name list (quoted where a name has `.` or `@`), read into the model in
// order without repeats, each name checked against what the Evaluate view computes (did-you-mean for a typo, the
// parameter's rule for a bad one, diversity measures refused with the reason), and completed with measure names.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveStudies } from '../../../core/dsl/model.ts';
import { parseStudyFile } from '../../../core/dsl/parser.ts';
import { completionsAt } from '../../../core/dsl/services/completion.ts';
import { hoverAt } from '../../../core/dsl/services/hover.ts';
import { diagnose, problems, studyWith } from './dslTestHelpers.ts';

test('measures: trec_eval names and named measures, read into the study model in order, each once', () => {
  const text = studyWith('measures map "ndcg_cut.10" "err@20" \\', '  "rbp@0.8" "P.5,10" recip_rank');
  assert.deepEqual(
    diagnose(text).filter((d) => !d.endsWith('missing-statement')),
    [],
  );
  const parsed = parseStudyFile(text);
  const { studies } = resolveStudies(parsed, '/work/s.assess');
  assert.deepEqual(studies[0]!.measures, ['map', 'ndcg_cut.10', 'err@20', 'rbp@0.8', 'P.5,10', 'recip_rank']);
});

test('measures is given once per study: a second is a repeated statement', () => {
  assert.deepEqual(
    diagnose(studyWith('measures map', 'measures recip_rank')).filter((d) => !d.endsWith('missing-statement')),
    ['10:3-10:11 repeated-statement'],
  );
});

test('a study without measures has none (the view shows its default measures)', () => {
  const { studies } = resolveStudies(parseStudyFile(studyWith()), '/work/s.assess');
  assert.equal(studies[0]!.measures, undefined);
});

test('measures with nothing after it: expected measure names, at the end of the line', () => {
  const found = problems(studyWith('measures'));
  assert.equal(found.length >= 1, true);
  assert.match(found.find((d) => d.code !== 'missing-statement')!.message, /expected measure names after `measures`/);
});

test('unknown and malformed measure names: positioned, with did-you-mean and the rule', () => {
  const text = studyWith(
    'measures mapp "alpha_ndgc@20" "err@x" "rbp@1" "P.0" irs "alpha_ndcg@20" "alpha_ndcg@7" map map',
  );
  const found = problems(text).filter((d) => d.code === 'unknown-measure');
  const shown = found.map((d) => [text.slice(d.range.start, d.range.end), d.severity, d.message] as const);
  assert.deepEqual(
    shown.map(([name, severity]) => `${name} ${severity}`),
    [
      'mapp error',
      '"alpha_ndgc@20" error',
      '"err@x" error',
      '"rbp@1" error',
      '"P.0" error',
      'irs error',
      '"alpha_ndcg@20" error',
      '"alpha_ndcg@7" error',
      'map warning',
    ],
  );
  const message = (i: number) => shown[i]![2];
  assert.match(message(0), /^unknown measure 'mapp'.*did you mean `map`\?$/);
  assert.match(message(1), /did you mean `alpha_ndcg@20`\?$/);
  assert.match(message(2), /expected a depth \(an integer ≥ 1\) after @, found 'x'/);
  assert.match(message(3), /expected a persistence between 0 and 1 after @ \(as in rbp@0\.8\), found '1'/);
  assert.match(message(4), /cutoff '0' is not a positive integer/);
  assert.match(message(5), /instruction-following measure/);
  assert.match(message(6), /diversity measure .*needs diversity qrels/);
  assert.match(message(7), /ndeval computes alpha_ndcg at depths 5, 10, 20 only, found 7/);
  assert.match(message(8), /listed twice/);
});

test('completion after measures: trec_eval names, sets and the named measures, quoted where they must be', () => {
  const text = studyWith('measures map ');
  const offset = text.indexOf('measures map ') + 'measures map '.length;
  const items = completionsAt(parseStudyFile(text), offset);
  const byLabel = new Map(items.map((c) => [c.label, c]));
  for (const name of ['recip_rank', 'official', 'err@20', 'rbp@0.8', 'ndcg_cut.10', 'ndcg_gd@20']) {
    assert.ok(byLabel.has(name), name);
  }
  assert.equal(byLabel.get('err@20')!.insertText, '"err@20"');
  assert.equal(byLabel.get('recip_rank')!.insertText, undefined);
  assert.match(byLabel.get('rbp@0.8')!.detail!, /^rbp_eval: /);
});

test('hover on a measure name: what it is and which tool it equals', () => {
  const text = studyWith('measures map "err@20" "rbp@0.8"');
  const hover = (word: string) => hoverAt(parseStudyFile(text), text.indexOf(word) + 1);
  assert.match(
    hover('map ')!.markdown,
    /^\*\*map\*\* — Mean Average Precision.*\n\nEquals trec_eval 10's `-m map`\.$/s,
  );
  const err = hover('err@')!;
  assert.equal(text.slice(err.range.start, err.range.end), '"err@20"');
  assert.match(
    err.markdown,
    /^\*\*err@20\*\* — Expected Reciprocal Rank .*Equals gdeval's err@K \(gdeval\.pl -k K\)\.$/s,
  );
  assert.match(hover('rbp@')!.markdown, /The view shows `rbp@0\.8` and `rbp_residual@0\.8`\./);
});
