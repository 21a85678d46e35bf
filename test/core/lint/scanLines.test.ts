// LintSession.addLines splits whole lines itself while it finds their ends (the fast path lintFile and lintText
// take); addLine takes one line at a time through the session's general path. Both must give the same diagnostics
// on any text: random lines with odd whitespace, CR, control bytes, comments, non-ASCII ids, repeats and queries
// that come back. And a file whose first lines fill more than one read block must be typed from those lines as
// they were (the sample keeps copies, not views of a buffer read into again).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { lintFile } from '../../../core/lint/lintFile.ts';
import { LintSession } from '../../../core/lint/lintSession.ts';
import { lintText } from '../../../core/lint/lintText.ts';
import type { LintFileType, LintResult } from '../../../core/lint/types.ts';
import { scratchDir } from '../../helpers.ts';

/** The text fed one line at a time through addLine (the general path), again keeping every pair if need be. */
function lintLineByLine(text: string, type?: LintFileType): LintResult {
  const first = new LintSession('<text>', { type });
  const result = feedLineByLine(first, text);
  return first.needsEveryPair ? feedLineByLine(first.again(), text) : result;
}

function feedLineByLine(session: LintSession, text: string): LintResult {
  const bytes = Buffer.from(text, 'utf8');
  let lineNumber = 0;
  let position = 0;
  for (;;) {
    const newline = bytes.indexOf(10, position);
    if (newline === -1) break;
    if (!session.addLine(bytes, position, newline, ++lineNumber)) break;
    position = newline + 1;
  }
  const endsWithNewline = position === bytes.length;
  if (!endsWithNewline && !session.hasStopped) session.addLine(bytes, position, bytes.length, ++lineNumber);
  return session.finish({ lines: lineNumber, endsWithNewline });
}

function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const separators = [' ', ' ', ' ', ' ', '  ', '\t', ' \t'];
const oddBits = ['', '', '', '', '', '', ' ', '\t', '\r', '\v', '\f', '\x01', ' extra', 'é'];

function randomText(next: () => number, kind: 'qrels' | 'run'): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const lines: string[] = [];
  const count = 150 + Math.floor(next() * 150);
  let query = 1;
  for (let i = 0; i < count; i++) {
    if (next() < 0.05)
      query = 1 + Math.floor(next() * 6); // queries come back now and then
    else if (next() < 0.08) query++;
    const roll = next();
    if (roll < 0.02) lines.push('');
    else if (roll < 0.04) lines.push(pick(['# a comment', '  # indented', '#', ' ', '\t']));
    else {
      const sep = () => (next() < 0.85 ? ' ' : pick(separators));
      const docid = `${next() < 0.05 ? 'dé' : 'd'}${Math.floor(next() * 40)}`;
      const lead = next() < 0.03 ? pick([' ', '\t', '\r']) : '';
      const fields =
        kind === 'qrels'
          ? [`q${query}`, '0', docid, pick(['0', '1', '2', '-1', 'x', '1.5'])]
          : [
              `q${query}`,
              'Q0',
              docid,
              String(1 + Math.floor(next() * 20)),
              pick(['1.5', '2', '-0.25', 'nan', 'x']),
              'tag',
            ];
      if (next() < 0.04) fields.pop();
      lines.push(lead + fields.map((field, k) => (k === 0 ? field : sep() + field)).join('') + pick(oddBits));
    }
  }
  return lines.join('\n') + (next() < 0.7 ? '\n' : '');
}

test('whole lines at once (addLines) and one at a time (addLine) give the same diagnostics on random text', () => {
  for (let seed = 1; seed <= 120; seed++) {
    const next = generator(seed);
    const kind = seed % 2 === 0 ? 'qrels' : 'run';
    const text = randomText(next, kind);
    for (const type of [undefined, kind] as const) {
      const fast = lintText(text, type);
      const general = lintLineByLine(text, type);
      assert.deepEqual(fast, general, `seed ${seed}, type ${type ?? 'detected'}:\n${text.slice(0, 400)}`);
    }
  }
});

test('a clean file gives the same through both paths, and a duplicate past the first lines is found by both', () => {
  let text = '';
  for (let q = 0; q < 30; q++) for (let d = 0; d < 40; d++) text += `${1000 + q} 0 msmarco_passage_00_${d} ${d % 3}\n`;
  text += '1003 0 msmarco_passage_00_7 1\n';
  const fast = lintText(text, 'qrels');
  assert.deepEqual(fast, lintLineByLine(text, 'qrels'));
  assert.deepEqual(
    fast.diagnostics.map((d) => [d.line, d.rule, d.related?.line]),
    [[1201, 'duplicate-pair', 128]],
  );
});

test('first lines that fill more than one read block are typed and linted as they were read', async () => {
  // 700 comment lines of 1,000 bytes (more than the 512 KiB read block) before the judgments: the file type is
  // decided from lines of the first and second blocks.
  const comment = `#${'c'.repeat(998)}\n`;
  let text = comment.repeat(700);
  for (let i = 0; i < 200; i++) text += `q${i % 3} 0 d${i} ${i % 2}\n`;
  const file = join(scratchDir(), 'commented.qrels');
  writeFileSync(file, text);
  const fromDisk = await lintFile(file, { name: '<text>' });
  assert.deepEqual(fromDisk, lintLineByLine(text));
  assert.equal(fromDisk.type, 'qrels');
});
