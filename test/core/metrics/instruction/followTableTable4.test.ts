// FollowTable's Table 4 (test/fixtures/seeds/followtable-table4.txt, an excerpt of the FollowTable paper): its "Average" column should be the macro
// mean of the four subset columns (WQT, WTR, TArX, IndusTR) for every model and measure (nDCG Q, nDCG +I, p-MRR,
// IRS), within ±0.05 for the rounding of the printed one-decimal values. One cell is not: BM25's p-MRR, whose
// subsets (2.4, 3.8, −8.0, 0.8) average −0.25 while the paper prints −0.5. The test finds that cell and no other.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fixturesDir } from '../../../helpers.ts';

test('FollowTable Table 4: every Average is the mean of its four subsets, but BM25 p-MRR (−0.25, printed −0.5)', (t) => {
  const text = readFileSync(join(fixturesDir, 'seeds', 'followtable-table4.txt'), 'utf8');
  const start = text.indexOf('Table 4. Comprehensive evaluation');
  const end = text.indexOf('5.1. Experimental Setup', start);
  const columns = ['nDCG(Q)', 'nDCG(+I)', 'p-MRR', 'IRS'];
  const rows = text
    .slice(start, end)
    .split('\n')
    .map((line) => /^(.+?)\s+((?:-?\d+\.\d\s*){20})$/.exec(line.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ model: m[1]!, values: m[2]!.trim().split(/\s+/).map(Number) }));
  assert.equal(rows.length, 15, `the 15 models of Table 4 (${rows.map((r) => r.model).join('; ')})`);
  const mismatches: string[] = [];
  for (const { model, values } of rows) {
    columns.forEach((column, c) => {
      const subsets = [0, 1, 2, 3].map((s) => values[s * 4 + c]!);
      const mean = subsets.reduce((sum, v) => sum + v, 0) / 4;
      const printed = values[16 + c]!;
      if (Math.abs(mean - printed) > 0.05 + 1e-9) {
        mismatches.push(`${model} ${column}: mean ${mean.toFixed(3)} of ${subsets.join(', ')}, printed ${printed}`);
      }
    });
  }
  for (const mismatch of mismatches) t.diagnostic(mismatch);
  assert.equal(mismatches.length, 1, mismatches.join('\n'));
  assert.match(mismatches[0]!, /^BM25\s.*p-MRR: mean -0\.250 of 2\.4, 3\.8, -8, 0\.8, printed -0\.5$/);
});
