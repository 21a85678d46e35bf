// The warnings about a run that does not fit the study (issue 19, item 10): pooled documents the corpus lacks, a
// run whose query ids match none of the study's.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunRanking } from '../../../core/pooling/runRanking.ts';
import { noMatchingQueryWarning, notInCorpusWarning } from '../../../core/pooling/runWarnings.ts';

function ranking(qids: string[]): RunRanking {
  return { tag: 'bm25', lines: qids.length, queries: new Map(qids.map((qid) => [qid, []])) };
}

test('pooled documents not in the corpus: counted, the first ids named; nothing before the corpus is imported', () => {
  assert.equal(
    notInCorpusWarning('runs/bm25.trec', { corpusSize: 5, missing: 4, examples: ['doc1', 'doc2', 'doc3'] }),
    "warning: runs/bm25.trec: 4 pooled documents are not in the corpus ('doc1', 'doc2', 'doc3', …): they are " +
      'pooled but cannot be shown to annotators; is the run over another corpus, or are its ids in another form?',
  );
  assert.match(
    notInCorpusWarning('r', { corpusSize: 5, missing: 1, examples: ['d9'] })!,
    /: 1 pooled document is not in the corpus \('d9'\):/,
  );
  assert.equal(notInCorpusWarning('r', { corpusSize: 5, missing: 0, examples: [] }), undefined);
  assert.equal(notInCorpusWarning('r', { corpusSize: 0, missing: 30, examples: ['d1'] }), undefined);
});

test('a run none of whose query ids is a study query is named; one match is enough to say nothing', () => {
  const study = new Set(['q1', 'q2', 'q3', 'q4']);
  assert.equal(
    noMatchingQueryWarning('run.trec', ranking(['1', '2']), study),
    "warning: run.trec: none of its 2 query ids ('1', '2') is a query of the study ('q1', 'q2', 'q3', …): every " +
      'value below is over queries the study does not have',
  );
  assert.equal(noMatchingQueryWarning('run.trec', ranking(['7', 'q4']), study), undefined);
  assert.equal(noMatchingQueryWarning('run.trec', ranking(['1']), new Set()), undefined);
});
