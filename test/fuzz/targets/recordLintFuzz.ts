// Proves, on mutated JSONL (BEIR corpus and queries, CRUMB runs, generic records, JSON nested up to 10,000 deep),
// CSV and TSV with headers, and TREC lookalikes, with or without a forced format, kind and study mapping:
// lintRecordText never throws, answers within the time bound, and every diagnostic has a valid range, in order.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { lintRecordText } from '../../../core/lint/records/lintRecordText.ts';
import { type RecordLintOptions, recordKinds } from '../../../core/lint/records/types.ts';
import { type FuzzTarget, fuzzParameters, type InputRecorder, timed } from '../harness.ts';
import { mutatedDocument } from '../mutations.ts';
import { checkLintRanges } from '../rangeChecks.ts';
import { syntheticDelimited, syntheticJsonl, trecLikeLines } from '../seeds.ts';

export const recordLintRuns = 15_000;

/** JSONL lines nesting arrays or objects, closed or not, inside a record or as the record. */
const deeplyNestedJsonl = fc
  .record({
    prefix: fc.constantFrom('', '{"_id":"1","text":', '{"query":{"id":"q"},"items":', '{"_id":', '{"query":'),
    nest: fc.constantFrom(
      { open: '[', close: ']' },
      { open: '{"a":', close: '}' },
      { open: '[{"id":', close: '}]' },
      { open: '{"id":', close: '}' },
    ),
    depth: fc.constantFrom(2, 100, 1000, 10_000),
    closed: fc.boolean(),
    copies: fc.integer({ min: 1, max: 3 }),
  })
  .map(({ prefix, nest, depth, closed, copies }) => {
    const line = prefix + nest.open.repeat(depth) + (closed ? `1${nest.close.repeat(depth)}${prefix ? '}' : ''}` : '');
    return Array.from({ length: copies }, () => line);
  });

const recordLines = fc.oneof(
  { weight: 5, arbitrary: syntheticJsonl },
  { weight: 4, arbitrary: syntheticDelimited },
  { weight: 1, arbitrary: trecLikeLines },
  { weight: 1, arbitrary: deeplyNestedJsonl },
);

const fieldName = fc.constantFrom(
  '_id',
  'id',
  'qid',
  'text',
  'title',
  'query',
  'query.id',
  'a.b',
  '__proto__',
  'constructor',
  '',
);

const options: fc.Arbitrary<RecordLintOptions> = fc.record(
  {
    file: fc.constantFrom('data.jsonl', 'data.csv', 'data.tsv', 'data.txt', '<text>'),
    format: fc.constantFrom('jsonl' as const, 'csv' as const, 'tsv' as const),
    kind: fc.constantFrom(...recordKinds),
    mapping: fc.dictionary(fc.constantFrom('id', 'text', 'title', 'body', 'parent'), fieldName, { maxKeys: 3 }),
  },
  { requiredKeys: [] },
);

export const recordLintFuzz: FuzzTarget = {
  async run(recorder: InputRecorder) {
    await recorder.property('lintRecordText', () =>
      fc.assert(
        fc.property(mutatedDocument(recordLines), options, (text, lintOptions) => {
          recorder.start('lintRecordText', text);
          const result = timed('lintRecordText', text.length, () => lintRecordText(text, lintOptions));
          assert.ok(['jsonl', 'csv', 'tsv', 'unknown'].includes(result.format), `format ${result.format}`);
          if (lintOptions.format !== undefined && result.format !== 'unknown') {
            assert.equal(result.format, lintOptions.format, 'a forced format is the format linted');
          }
          checkLintRanges(text, result.diagnostics, 'line-column');
        }),
        fuzzParameters(4, recordLintRuns),
      ),
    );
    return recorder.report();
  },
};
