import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hashBytes } from '../../../core/formats/byteKeyTable.ts';
import { blockHash } from '../../../core/lint/pairIndex.ts';
import { findings, where } from './lintTestHelpers.ts';

/**
 * Two docids whose 32-bit hashes are equal (found by the birthday bound): under the current block's hash, or under
 * the index over every pair's hash for query group `group`.
 */
function collidingDocids(group: number | 'block'): [string, string] {
  const seen = new Map<number, string>();
  for (let i = 0; ; i++) {
    const docid = `doc${i}`;
    const bytes = Buffer.from(docid);
    const hash = group === 'block' ? blockHash(bytes, 0, bytes.length) : hashBytes(bytes, 0, bytes.length, group);
    const other = seen.get(hash);
    if (other !== undefined) return [other, docid];
    seen.set(hash, docid);
  }
}

test('docids whose hashes collide are told apart by their bytes, in a query block', () => {
  const [a, b] = collidingDocids('block');
  const text = `q1 0 ${a} 1\nq1 0 ${b} 1\nq1 0 ${b} 0\nq1 0 ${a} 0\n`;
  assert.deepEqual(
    findings(text, 'duplicate-pair').map((d) => [where(d), d.related?.line]),
    [
      [`3:6-3:${6 + b.length} error duplicate-pair`, 2],
      [`4:6-4:${6 + a.length} error duplicate-pair`, 1],
    ],
  );
});

test('docids whose hashes collide are told apart once queries come back (the index over every pair)', () => {
  const [a, b] = collidingDocids(0);
  const text = `q1 0 ${a} 1\nq2 0 x 1\nq1 0 ${b} 1\nq1 0 ${a} 0\n`;
  assert.deepEqual(
    findings(text, 'duplicate-pair').map((d) => [d.line, d.related?.line]),
    [[4, 1]],
  );
});

test('big query blocks grow their table without losing pairs', () => {
  let text = '';
  for (let i = 0; i < 3000; i++) text += `q1 0 d${i} 1\n`;
  for (let i = 0; i < 3000; i += 1000) text += `q1 0 d${i} 0\n`;
  assert.deepEqual(
    findings(text, 'duplicate-pair').map((d) => [d.line, d.related?.line]),
    [
      [3001, 1],
      [3002, 1001],
      [3003, 2001],
    ],
  );
});

test('interleaved queries: every duplicate is found, none invented', () => {
  let text = '';
  for (let i = 0; i < 2000; i++) text += `q${i % 7} 0 d${i % 300} 1\n`;
  // q(i%7) with d(i%300): the pair repeats every lcm(7, 300) = 2100 lines, so there is none in 2000.
  assert.deepEqual(findings(text, 'duplicate-pair'), []);
  text += 'q3 0 d3 1\n'; // line 4 held (q3, d3)
  assert.deepEqual(
    findings(text, 'duplicate-pair').map((d) => [d.line, d.related?.line]),
    [[2001, 4]],
  );
});
