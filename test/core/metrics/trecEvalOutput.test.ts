import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readQrels } from '../../../core/formats/trecQrels.ts';
import { evaluateRunFile, perQueryValuesOf } from '../../../core/metrics/evaluate.ts';
import { selectMeasures } from '../../../core/metrics/measureSelection.ts';
import {
  formatFixed4,
  formatTrecEvalText,
  writeQueryLineBytes,
  writeTrecEvalBytes,
  writeTrecEvalText,
} from '../../../core/metrics/trecEvalOutput.ts';
import { scratchDir } from '../../helpers.ts';

/** printf("%.4f") by exact rational arithmetic: the double's exact value, rounded half to even. */
function referenceFixed4(x: number): string {
  const negative = x < 0 || Object.is(x, -0);
  const magnitude = Math.abs(x);
  // magnitude = mantissa · 2^exponent exactly.
  const buffer = new DataView(new ArrayBuffer(8));
  buffer.setFloat64(0, magnitude);
  const bits = buffer.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  const mantissa = biased === 0 ? fraction : fraction | (1n << 52n);
  const exponent = (biased === 0 ? 1 : biased) - 1075;
  let numerator = mantissa * 10000n;
  let denominator = 1n;
  if (exponent >= 0) numerator <<= BigInt(exponent);
  else denominator <<= BigInt(-exponent);
  let quotient = numerator / denominator;
  const twice = (numerator % denominator) * 2n;
  if (twice > denominator || (twice === denominator && quotient % 2n === 1n)) quotient += 1n;
  const digits = quotient.toString().padStart(5, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -4)}.${digits.slice(-4)}`;
}

test('exact ties round half to even like C printf, not up like toFixed', () => {
  assert.equal(formatFixed4(5 / 32), '0.1562'); // 0.15625
  assert.equal((5 / 32).toFixed(4), '0.1563', 'JavaScript rounds this tie up');
  assert.equal(formatFixed4(1 / 32), '0.0312'); // 0.03125
  assert.equal(formatFixed4(3 / 32), '0.0938'); // 0.09375: 937.5 → 938 (even)
  assert.equal(formatFixed4(27 / 32), '0.8438'); // 0.84375
  assert.equal(formatFixed4(1 + 1 / 32), '1.0312');
  assert.equal(formatFixed4(-5 / 32), '-0.1562');
});

test('values near a tie that are not exact ties round to the nearer side', () => {
  assert.equal(formatFixed4(0.15625000000000003), '0.1563');
  assert.equal(formatFixed4(0.15624999999999997), '0.1562');
  assert.equal(formatFixed4(0.00005), '0.0001'); // 0.00005 is slightly above 5e-5 in binary
  assert.equal(formatFixed4(1 / 3), '0.3333');
  assert.equal(formatFixed4(2 / 3), '0.6667');
  assert.equal(formatFixed4(0), '0.0000');
  assert.equal(formatFixed4(1), '1.0000');
  assert.equal(formatFixed4(1234.5), '1234.5000');
});

test('matches exact rational rounding on 200,000 ratios that metrics produce (k/n) and on every multiple of 1/64', () => {
  for (let n = 1; n <= 400; n++) {
    for (let k = 0; k <= n; k += n > 200 ? 1 : 1) {
      const x = k / n;
      assert.equal(formatFixed4(x), referenceFixed4(x), `${k}/${n}`);
    }
  }
  for (let k = 0; k < 6400; k++) assert.equal(formatFixed4(k / 64), referenceFixed4(k / 64), `${k}/64`);
  let seed = 7;
  for (let i = 0; i < 100000; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const x = seed / 2147483648;
    assert.equal(formatFixed4(x), referenceFixed4(x), String(x));
  }
});

test('the fast path agrees with exact rounding on large values, counts, and values a few ulps from a half', () => {
  const nextAfter = (x: number, direction: 1 | -1): number => {
    const view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, x);
    view.setBigUint64(0, view.getBigUint64(0) + BigInt(direction * (x >= 0 ? 1 : -1)));
    return view.getFloat64(0);
  };
  let seed = 11;
  const next = (): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  for (let i = 0; i < 50000; i++) {
    const x = next() * 10 ** Math.floor(next() * 7); // 0 … 1e6: both sides of the fast path's 1e5 bound
    assert.equal(formatFixed4(x), referenceFixed4(x), String(x));
    const half = (Math.floor(next() * 2e8) + 0.5) / 10000; // near n + ½ at the 4th decimal, up to 2e4
    for (const y of [half, nextAfter(half, 1), nextAfter(half, -1), nextAfter(nextAfter(half, 1), 1)]) {
      assert.equal(formatFixed4(y), referenceFixed4(y), String(y));
    }
  }
  for (const x of [0, 1, 99999, 99999.99995, 100000, 123456.78905, 2 ** 40 + 0.5]) {
    assert.equal(formatFixed4(x), referenceFixed4(x), String(x));
  }
});

test('-q output is written in pieces of about 64 KiB from the compact values, the same text as from the queries', async () => {
  const dir = scratchDir();
  const qrels: string[] = [];
  const run: string[] = [];
  for (let q = 0; q < 300; q++) {
    for (let d = 0; d < 20; d++) {
      qrels.push(`q${q} 0 d${d} ${(q + d) % 3}`);
      run.push(`q${q} Q0 d${(d * 7) % 25} ${d + 1} ${(20 - d + (q % 3)) / 4} tag`);
    }
  }
  writeFileSync(join(dir, 'qrels'), `${qrels.join('\n')}\n`);
  writeFileSync(join(dir, 'run'), `${run.join('\n')}\n`);
  const evaluation = await evaluateRunFile(await readQrels(join(dir, 'qrels')), join(dir, 'run'), {
    measures: selectMeasures(['all_trec', 'relstring.5']).measures,
    relevanceLevel: 1,
    maxRetrieved: Number.POSITIVE_INFINITY,
    complete: false,
  });
  assert.ok(perQueryValuesOf(evaluation), 'evaluateRunFile keeps its per-query values compactly');
  const options = { perQuery: true, runidLine: 'summary' as const };
  const pieces: string[] = [];
  writeTrecEvalText(evaluation, options, (text) => pieces.push(text));
  assert.ok(pieces.length > 10, `${pieces.length} pieces`);
  for (const piece of pieces) assert.ok(piece.length < (1 << 16) + 20000, `a piece of ${piece.length} characters`);
  const compactText = pieces.join('');
  // The same evaluation read through its queries (a copy has no compact values: the object path prints it).
  const copy = { ...evaluation };
  assert.equal(perQueryValuesOf(copy), undefined);
  assert.equal(formatTrecEvalText(copy, options), compactText);
  // As bytes: pieces kept as given (each its own buffer), or copied when the buffer is said to be released and
  // filled again; and the per-query lines in two halves of the queries, one after the other.
  const kept: Uint8Array[] = [];
  writeTrecEvalBytes(evaluation, options, (bytes) => kept.push(bytes));
  assert.equal(Buffer.concat(kept).toString('latin1'), compactText);
  assert.equal(new Set(kept.map((bytes) => bytes.buffer)).size, kept.length, 'a buffer of its own per piece');
  const copied: Buffer[] = [];
  writeTrecEvalBytes(
    evaluation,
    options,
    (bytes) => copied.push(Buffer.from(bytes)),
    () => true,
  );
  assert.equal(Buffer.concat(copied).toString('latin1'), compactText);
  const values = perQueryValuesOf(evaluation)!;
  const halves: Uint8Array[] = [];
  writeQueryLineBytes(values, '', 0, 150, (bytes) => halves.push(bytes));
  writeQueryLineBytes(values, '', 150, 300, (bytes) => halves.push(bytes));
  const perQueryText = formatTrecEvalText(evaluation, { perQuery: true, runidLine: 'none', summary: false });
  assert.equal(Buffer.concat(halves).toString('latin1'), perQueryText);
  assert.match(compactText, /^relstring_5 {11}\tq0\t'[^']*'$/m);
  assert.match(compactText, /^map {19}\tq299\t\d\.\d{4}$/m);
  assert.match(compactText, /^num_q {17}\tall\t300$/m);
});
