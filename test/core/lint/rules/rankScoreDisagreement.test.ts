import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findings, runLines, where } from '../lintTestHelpers.ts';

test('a higher score at a later rank: one warning per query, at the first place, on rank and score', () => {
  const text = 'q1 Q0 a 1 0.9 t\nq1 Q0 b 2 0.95 t\nq1 Q0 c 3 0.5 t\nq1 Q0 d 4 0.6 t\nq2 Q0 a 1 0.9 t\n';
  const [d, ...more] = findings(text, 'rank-score-disagreement');
  assert.deepEqual(more, []);
  assert.equal(where(d!), '2:9-2:15 warning rank-score-disagreement');
  assert.equal(
    d!.message,
    "rank 2 of query 'q1' disagrees with the score order: its score 0.95 is higher than the 0.9 of rank 1 (line 1), " +
      'so trec_eval, which ignores ranks, ranks this document above it (1 more place like this in this query)',
  );
  assert.deepEqual(d!.related, { line: 1, column: 9, message: 'rank 1, score 0.9' });
});

test('equal scores: trec_eval breaks the tie by docid, highest first, so ascending docids disagree', () => {
  const [d] = findings('q1 Q0 d1 1 0.5 t\nq1 Q0 d2 2 0.5 t\n', 'rank-score-disagreement');
  assert.equal(where(d!), '2:10-2:15 warning rank-score-disagreement');
  assert.match(
    d!.message,
    /its score 0.5 ties with rank 1 \(line 1\) and trec_eval breaks ties by docid, highest first: 'd2' > 'd1'/,
  );
  assert.deepEqual(findings('q1 Q0 d2 1 0.5 t\nq1 Q0 d1 2 0.5 t\n', 'rank-score-disagreement'), []);
});

test('lines out of rank order are compared in rank order; interleaved queries are kept apart', () => {
  const text = 'q1 Q0 c 3 0.1 t\nq2 Q0 x 2 0.9 t\nq1 Q0 a 1 0.9 t\nq1 Q0 b 2 0.5 t\nq2 Q0 y 1 0.95 t\n';
  assert.deepEqual(findings(text, 'rank-score-disagreement'), []);
  const reversed = 'q1 Q0 c 3 0.1 t\nq1 Q0 a 1 0.9 t\nq1 Q0 b 2 0.05 t\n';
  assert.deepEqual(findings(reversed, 'rank-score-disagreement').map(where), [
    '1:9-1:14 warning rank-score-disagreement',
  ]);
});

test('equal ranks impose no order; runs in score order agree', () => {
  assert.deepEqual(findings('q1 Q0 a 0 0.1 t\nq1 Q0 b 0 0.9 t\nq1 Q0 c 0 0.5 t\n', 'rank-score-disagreement'), []);
  assert.deepEqual(findings(runLines('q1', 20), 'rank-score-disagreement'), []);
});
