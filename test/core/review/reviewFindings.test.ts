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

test('a one-sentence rewrite is flagged for the fact it changed; the source as its own rewrite has no finding', () => {
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

/** The findings of rewriting `source` as `rewrite` (one sentence declared, length bound wide), as "check: message". */
const findingsOf = (source: string, rewrite: string) =>
  rewriteFindings(
    { source, rewrite, declaredChanges: 1 },
    { lengthDrift: 0.5, labelWords: [], minimumCompliant: 3, minimumViolating: 3 },
  ).map((f) => `${f.check}: ${f.message}`);

test('numbers and dates by meaning: the same value written another way is kept; a changed sign, month or value is not', () => {
  const kept: [string, string][] = [
    ['He was sentenced to five years.', 'He was sentenced to 5 years.'],
    ['It cost 12,000 dollars.', 'It cost 12000 dollars.'],
    ['The rate was 3.5 percent.', 'The rate was 3.50 percent.'],
    ['It opened on 2019-03-05 downtown.', 'It opened on 5 March 2019 downtown.'],
    ['It was the 1st edition.', 'It was the first edition.'],
    ['Twenty-five people came.', '25 people came.'],
    ['Between 2010-2012 sales grew.', 'Sales grew between 2010-2012.'],
    ['You may go in May 2020.', 'You may go in May 2020.'],
    ['Sales grew in 2010-2012 overall.', 'Sales grew in 2010–2012 overall.'],
    ['Once the contract is signed, pay.', 'After the contract is signed, pay.'],
  ];
  for (const [source, rewrite] of kept) assert.deepEqual(findingsOf(source, rewrite), [], rewrite);
  assert.deepEqual(findingsOf('March 2019 saw the launch.', 'April 2019 saw the launch.'), [
    "dropped-number: the rewrite changed 'March' (it has 'April' instead)",
  ]);
  assert.deepEqual(findingsOf('Temperatures fell to -3.5 degrees.', 'Temperatures fell to 3.5 degrees.'), [
    "dropped-number: the rewrite changed '-3.5' (it has '3.5' instead)",
  ]);
  assert.deepEqual(findingsOf('The study ran for 12 weeks.', 'The study ran for several weeks.'), [
    "dropped-number: the rewrite dropped '12'",
  ]);
});

test('names as whole words, not a single word starting a sentence; "Dr." ends no sentence', () => {
  assert.deepEqual(findingsOf('They flew to India last year.', 'They flew to Indiana last year.'), [
    "dropped-entity: the rewrite dropped 'India'",
  ]);
  assert.deepEqual(
    findingsOf('The patient saw Dr. Smith today. He was fine.', 'The client saw Dr. Jones today. He was fine.'),
    ["dropped-entity: the rewrite dropped 'Smith'"],
  );
  assert.deepEqual(findingsOf('Shares of Microsoft Corporation fell.', 'Shares of Google fell.'), [
    "dropped-entity: the rewrite dropped 'Microsoft Corporation'",
  ]);
  // A single capitalised word starting a sentence is no name here (MultiConIR's changed condition words are the
  // diff's to show): the price is that "Microsoft bought it" → "Google bought it" goes unflagged too.
  assert.deepEqual(findingsOf('Microsoft bought it.', 'Google bought it.'), []);
  assert.deepEqual(findingsOf('Moderate carotid artery stenosis.', 'Severe carotid artery stenosis.'), []);
});

test('citations: author–year in parentheses, a section written in either case, a § before a full stop', () => {
  assert.deepEqual(findingsOf('As shown by Smith et al. (2020), it works.', 'As shown before, it works.'), [
    "dropped-number: the rewrite dropped '2020'",
    "dropped-citation: the rewrite dropped the citation 'Smith et al. (2020)'",
    "dropped-entity: the rewrite dropped 'Smith'",
  ]);
  assert.deepEqual(
    findingsOf('This falls under section 420 of the code.', 'This falls under Section 420 of the code.'),
    [],
  );
  assert.deepEqual(findingsOf('As Özdemir et al. 2020 showed, it works.', 'As earlier work showed, it works.'), [
    "dropped-number: the rewrite dropped '2020'",
    "dropped-citation: the rewrite dropped the citation 'Özdemir et al. 2020'",
    "dropped-entity: the rewrite dropped 'Özdemir'",
  ]);
  assert.deepEqual(findingsOf('The claim arises under § 1983.', 'The claim arises under § 1983 alone.'), []);
  assert.deepEqual(findingsOf('The claim arises under § 1983.', 'The claim arises under federal law.'), [
    "dropped-number: the rewrite dropped '1983'",
    "dropped-citation: the rewrite dropped the citation '§ 1983'",
  ]);
});

test('sentences: lower-case ones are split; abbreviations and initials are not ends', () => {
  assert.deepEqual(sentences('the patient improved. the drug worked.'), ['the patient improved.', 'the drug worked.']);
  assert.deepEqual(sentences('He lived at No. 5 Baker Street. It was small.'), [
    'He lived at No. 5 Baker Street.',
    'It was small.',
  ]);
  assert.deepEqual(sentences('J. R. R. Tolkien wrote it, e.g. in 1937. Then? More!'), [
    'J. R. R. Tolkien wrote it, e.g. in 1937.',
    'Then?',
    'More!',
  ]);
  assert.deepEqual(sentences('The meeting ended at 5 p.m. and adjourned. The U.S. law applies.'), [
    'The meeting ended at 5 p.m. and adjourned.',
    'The U.S. law applies.',
  ]);
  assert.deepEqual(findingsOf('the patient improved. the drug worked.', 'the patient worsened. the drug failed.'), [
    'sentences-changed: 2 sentences changed, 1 declared',
  ]);
});

test('an excluded entity is matched as a whole word: excluding Java says nothing of JavaScript tables', () => {
  const findings = instructionFindings({
    instruction: 'Find tables of programming frameworks, excluding Java.',
    tables: [
      { id: 't1', label: 2, title: 'JavaScript frameworks by stars' },
      { id: 't2', label: 2, title: 'Spring and other java frameworks' },
    ],
  });
  assert.deepEqual(
    findings.filter((f) => f.check === 'contradiction').map((f) => f.message),
    ["table 't2' is labelled compliant but mentions 'Java', which the instruction excludes"],
  );
});

// Issue 19 item 13: findings that do not cry wolf.

test('an exclusion matches the entity, not the phrase: "2008 Summer Olympics (Beijing)" is the 2008 Beijing Olympics', () => {
  const contradictions = (instruction: string, title: string) =>
    instructionFindings({ instruction, tables: [{ id: 't1', label: 2, title }] })
      .filter((f) => f.check === 'contradiction')
      .map((f) => f.message);
  assert.deepEqual(
    contradictions('Medal tables, excluding the 2008 Beijing Olympics.', '2008 Summer Olympics (Beijing)'),
    ["table 't1' is labelled compliant but mentions '2008 Beijing Olympics', which the instruction excludes"],
  );
  // Every word of the entity must be there, in one title: 2008 without Beijing is another Games.
  assert.deepEqual(contradictions('Medal tables, excluding the 2008 Beijing Olympics.', '2008 Summer Paralympics'), []);
  assert.deepEqual(contradictions('Medal tables, excluding the 2008 Beijing Olympics.', '2012 London Olympics'), []);
});

test('an acronym in parentheses that the rewrite keeps is not dropped', () => {
  assert.deepEqual(
    findingsOf(
      'The World Health Organization (WHO) issued guidance in spring.',
      'The World Health Organization (WHO) published guidance in spring.',
    ),
    [],
  );
  // The acronym alone keeps the name it abbreviates, and the name keeps its acronym.
  assert.deepEqual(
    findingsOf('A transient ischemic attack (TIA) was ruled out by the team.', 'A TIA was ruled out by the team.'),
    [],
  );
  assert.deepEqual(
    findingsOf('The World Health Organization (WHO) issued guidance.', 'The WHO issued guidance today.'),
    [],
  );
  assert.deepEqual(findingsOf('The WHO (World Health Organization) issued guidance.', 'The WHO issued it.'), []);
  // Dropping both is still a dropped name.
  assert.deepEqual(
    findingsOf('The World Health Organization (WHO) issued guidance.', 'The agency issued guidance today.'),
    ["dropped-entity: the rewrite dropped 'World Health Organization', 'WHO'"],
  );
});

test('an ordinal word used as an adverb ("first heard") is not the number 1; "the first edition" still is', () => {
  assert.deepEqual(
    findingsOf(
      'Are eviction cases first heard in high court? In the state of Tennessee.',
      'Are eviction cases heard in high court? In the state of Tennessee.',
    ),
    [],
  );
  assert.deepEqual(findingsOf('It was the first edition.', 'It was the third edition.'), [
    "dropped-number: the rewrite changed 'first' (it has 'third' instead)",
  ]);
  assert.deepEqual(findingsOf('It was the 1st edition.', 'It was the first edition.'), []);
  assert.deepEqual(findingsOf('It was the first edition.', 'It was a first edition.'), []);
});

test('length drift: a query expansion is expected to grow, a rewrite that should keep its length is flagged', () => {
  const options = { lengthDrift: 0.25, labelWords: [], minimumCompliant: 3, minimumViolating: 3 };
  const source = 'eviction first hearing Tennessee';
  const expanded =
    'eviction first hearing Tennessee: which court hears an eviction case first in Tennessee, general sessions court';
  const drift = (item: Parameters<typeof rewriteFindings>[0]) =>
    rewriteFindings(item, options).filter((f) => f.check === 'length-drift');
  // Declared an expansion (the item's type says so): no drift finding.
  assert.deepEqual(drift({ source, rewrite: expanded, expansion: true }), []);
  // Not declared, but the rewrite keeps every word of its source and only adds: an expansion by what it is.
  assert.deepEqual(drift({ source, rewrite: `${source} general sessions court appeal circuit court` }), []);
  // A rewrite that replaces words and grows is still flagged.
  assert.equal(drift({ source, rewrite: 'landlord tenant dispute court process in the state of Tennessee' }).length, 1);
  // An expansion that shrinks is no expansion: flagged.
  assert.equal(drift({ source: expanded, rewrite: source, expansion: true }).length, 1);
});

test("an excluded entity's words must share one row of an HTML table, not be scattered over the table", () => {
  const contradictions = (text: string) =>
    instructionFindings({
      instruction: 'Medal tables, excluding the 2008 Beijing Olympics.',
      tables: [{ id: 't1', label: 2, title: 'Olympic host cities', text }],
    }).filter((f) => f.check === 'contradiction').length;
  const scattered =
    '<table><tr><th>Games</th><th>Host</th></tr><tr><td>2008 Summer Paralympics</td><td>London</td></tr>' +
    '<tr><td>2012 Olympics</td><td>Beijing</td></tr></table>';
  assert.equal(contradictions(scattered), 0);
  const together =
    '<table><tr><th>Games</th><th>Host</th></tr><tr><td>2008 Summer Olympics</td><td>Beijing</td></tr></table>';
  assert.equal(contradictions(together), 1);
});
