import assert from 'node:assert/strict';
import { test } from 'node:test';
import { excludedEntities, queryTerms, termsNotExcluded } from '../../../core/labelling/highlightTerms.ts';

test('queryTerms: lower-cased content words in first-occurrence order, stop words and 1-char words dropped', () => {
  assert.deepEqual(queryTerms('What were the medal counts of the 2008 Summer Olympics in Beijing?'), [
    'medal',
    'counts',
    '2008',
    'summer',
    'olympics',
    'beijing',
  ]);
});

test('queryTerms: duplicates (any case) kept once; numbers kept even when short, with their separators', () => {
  assert.deepEqual(queryTerms('Top 5 GDP: gdp per capita 1,000.5 USD vs 2.5 x'), [
    'top',
    '5',
    'gdp',
    'per',
    'capita',
    '1,000.5',
    'usd',
    'vs',
    '2.5',
  ]);
});

test("queryTerms: Unicode letters are words; apostrophes split (women's → women)", () => {
  assert.deepEqual(queryTerms("Ölpreis Entwicklung in Ägypten, women's 3rd-place São Paulo 東京"), [
    'ölpreis',
    'entwicklung',
    'ägypten',
    'women',
    '3rd',
    'place',
    'são',
    'paulo',
    '東京',
  ]);
});

test('queryTerms: a query of stop words and punctuation has nothing to highlight', () => {
  assert.deepEqual(queryTerms('What is it, and why? - / !'), []);
  assert.deepEqual(queryTerms(''), []);
});

/** Instructions written in FollowTable's style (C2 exclusive topic and others), with the entities they exclude. */
const instructions: { instruction: string; excluded: string[] }[] = [
  { instruction: 'Exclude any tables about the 2008 Olympics.', excluded: ['2008 Olympics'] },
  {
    instruction: 'Only list medal tables for European nations, excluding results from Germany and France.',
    excluded: ['Germany', 'France'],
  },
  {
    instruction: 'Find tables of Nobel laureates in physics, except those about the 1901–1950 period.',
    excluded: ['1901–1950 period'],
  },
  {
    instruction: 'Return tables on electric vehicle sales that are not related to Tesla or BYD.',
    excluded: ['Tesla', 'BYD'],
  },
  {
    instruction:
      'Focus on football clubs other than Real Madrid, Barcelona, and Atlético Madrid; include only league titles.',
    excluded: ['Real Madrid', 'Barcelona', 'Atlético Madrid'],
  },
  { instruction: 'Show population tables for Asian cities without Tokyo.', excluded: ['Tokyo'] },
  {
    instruction: 'Retrieve tables listing album releases by the Beatles but not "Abbey Road".',
    excluded: ['Abbey Road'],
  },
  {
    instruction: 'Do not include tables about the Summer Paralympics, and focus on the Winter Games.',
    excluded: ['Summer Paralympics'],
  },
  {
    instruction: 'Exclude tables about Germany, focusing on Scandinavian countries instead.',
    excluded: ['Germany'],
  },
  {
    instruction:
      'Tables about COVID-19 vaccination rates are relevant, except for rows from the United States (which use a different definition).',
    excluded: ['United States'],
  },
  { instruction: 'Excluding any mention of the 1994 World Cup', excluded: ['1994 World Cup'] },
  {
    instruction: 'List Olympic host cities other than London; exclude Paris as well.',
    excluded: ['London', 'Paris'],
  },
  // No exclusion at all: C1 boundaries and S1–S3 schema constraints.
  {
    instruction: 'The table must include a column for GDP per capita measured in US dollars.',
    excluded: [],
  },
  { instruction: 'Only tables that report quarterly revenue for 2019 are relevant.', excluded: [] },
  {
    instruction: 'Relevant tables list each player as a row, with goals and assists as separate columns.',
    excluded: [],
  },
  { instruction: '', excluded: [] },
];

for (const { instruction, excluded } of instructions) {
  test(`excludedEntities: ${JSON.stringify(instruction)}`, () => {
    assert.deepEqual(excludedEntities(instruction), excluded);
  });
}

test('excludedEntities: several cues in one instruction each give their entities, duplicates once', () => {
  assert.deepEqual(
    excludedEntities('Exclude Brazil. Tables on South American exports other than brazil or Argentina are fine.'),
    ['Brazil', 'Argentina'],
  );
});

test('excludedEntities: cue words inside other words are not cues', () => {
  assert.deepEqual(excludedEntities('Tables about the Exceptionalism debate and Nothingness studies.'), []);
});

test('termsNotExcluded: terms that are words of an excluded entity are left to the excluded highlight', () => {
  const terms = queryTerms('medal table of the 2008 Summer Olympics in Beijing');
  const excluded = excludedEntities('Exclude any tables about the 2008 Olympics.');
  assert.deepEqual(termsNotExcluded(terms, excluded), ['medal', 'table', 'summer', 'beijing']);
  assert.deepEqual(termsNotExcluded(terms, []), terms);
});
