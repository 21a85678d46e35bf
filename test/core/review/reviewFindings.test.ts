// The automatic review findings on real examples from the seeds: MultiConIR's Section 420 rewrite (§G.1) and its
// medical hard negative that changed two sentences where one was asked (Appendix table, Query 7), FollowTable-style
// label words in captions, an instruction contradicting its compliant table, and FollowTable's 3-and-3 rule; and no
// finding where the rewrite kept what it should.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { instructionFindings, rewriteFindings } from '../../../core/review/findings/registry.ts';
import { sentences, wordDiff } from '../../../core/review/textDiff.ts';

const checks = (findings: { check: string }[]) => findings.map((f) => f.check);

test('MultiConIR §G.1: "Section 420 … five years" → "found guilty … a prison sentence" is flagged for the number, the citation, the code and the length', () => {
  const findings = rewriteFindings({
    source:
      'The defendant was convicted of fraud under Section 420 of the Penal Code and sentenced to five years in prison.',
    rewrite: 'The defendant was found guilty of fraud and received a prison sentence.',
    declaredChanges: 1,
  });
  assert.deepEqual(checks(findings), ['dropped-number', 'dropped-citation', 'dropped-entity', 'length-drift']);
  assert.deepEqual(findings[0]!.terms, ['420', 'five']);
  assert.match(findings[0]!.message, /dropped '420', 'five'/);
  assert.deepEqual(findings[1]!.terms, ['Section 420']);
  assert.deepEqual(findings[2]!.terms, ['Penal Code']);
  assert.match(findings[3]!.message, /12 words, the source 20 \(−?-?40 %/);
});

test('MultiConIR Query 7, HN 1: two sentences changed where one was declared; the kept number is not flagged', () => {
  const source =
    'INDICATIONS FOR PROCEDURE: TIA, aortic stenosis, postoperative procedure. Moderate carotid artery stenosis. ' +
    'ESTIMATED BLOOD LOSS: 400 ml. After obtaining informed consent, the patient was brought to the cardiac ' +
    'catheterization suite in postabsorptive and nonsedated state. Using modified Seldinger technique, a 6-French ' +
    'sheath was placed into the right common femoral artery and vein without complication.';
  const rewrite =
    'INDICATIONS FOR PROCEDURE: TIA, aortic stenosis, postoperative procedure. Severe carotid artery stenosis. ' +
    'ESTIMATED BLOOD LOSS: 400 ml. After obtaining informed consent, the patient was brought to the cardiac ' +
    'catheterization suite in postabsorptive and nonsedated state. A 6-French sheath was used in the left femoral ' +
    'artery and vein with minor complications, employing the modified Seldinger technique.';
  const findings = rewriteFindings({ source, rewrite, declaredChanges: 1 });
  assert.deepEqual(checks(findings), ['sentences-changed']);
  assert.match(findings[0]!.message, /2 sentences changed, 1 declared/);
  const diff = wordDiff(source, rewrite);
  assert.ok(diff.some((p) => p.kind === 'removed' && p.text.includes('Moderate')));
  assert.ok(diff.some((p) => p.kind === 'added' && p.text.includes('Severe')));
  assert.equal(sentences(source).length, 5);
});

test('a faithful one-sentence rewrite has no finding', () => {
  const source = 'The film was directed by James Cameron. It was released in 1997 and won 11 Academy Awards.';
  const rewrite = 'The film was directed by James Cameron. It was released in 1997 and won no Academy Awards.';
  assert.deepEqual(checks(rewriteFindings({ source, rewrite, declaredChanges: 1 })), ['dropped-number']);
  assert.deepEqual(rewriteFindings({ source, rewrite: source, declaredChanges: 1 }), []);
});

test('instructions: label words in captions, a compliant table with an excluded entity, fewer than 3 and 3 tables', () => {
  const findings = instructionFindings({
    instruction: 'List Olympic medal tables by country, excluding the 2008 Beijing Olympics.',
    tables: [
      { id: 't1', label: 2, title: '2012 London Olympics medal table' },
      { id: 't2', label: 2, title: 'Medal table', caption: 'Medal counts excluding the 2008 Beijing Olympics' },
      { id: 't3', label: 1, title: '2008 Beijing Olympics medal table' },
      { id: 't4', label: 1, title: 'Winter medals', caption: 'not relevant to summer games' },
      { id: 't5', label: 1, title: '2008 Paralympics' },
    ],
  });
  assert.deepEqual(checks(findings), ['label-leak', 'label-leak', 'contradiction', 'table-count']);
  assert.match(findings[0]!.message, /table 't2' has 'excluding'/);
  assert.match(findings[1]!.message, /table 't4' has 'relevant'/);
  assert.match(findings[2]!.message, /table 't2' is labelled compliant but mentions '2008 Beijing Olympics'/);
  assert.match(findings[3]!.message, /2 compliant \(at least 3\) tables/);
  const fine = instructionFindings({
    instruction: 'Medal tables of summer games after 2000.',
    tables: [2, 2, 2, 1, 1, 1].map((label, i) => ({ id: `t${i}`, label, title: `Games ${2004 + 4 * i}` })),
  });
  assert.deepEqual(fine, []);
});
