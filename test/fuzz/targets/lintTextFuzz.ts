// Proves, on mutated qrels, runs, BEIR qrels and prels: lintText never throws, answers within the time bound,
// reports the forced type when given one, and every diagnostic (of every rule, detected or forced type, with or
// without a study) has a valid, sorted range.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { lintText } from '../../../core/lint/lintText.ts';
import { type LintFileType, lintFileTypes } from '../../../core/lint/types.ts';
import { type FuzzTarget, fuzzParameters, type InputRecorder, timed } from '../harness.ts';
import { mutatedDocument } from '../mutations.ts';
import { checkLintRanges, TextLines } from '../rangeChecks.ts';
import { trecLikeLines } from '../seeds.ts';
import { fuzzStudy } from './studyContext.ts';

export const lintTextRuns = 14_000;

const detectedTypes = new Set(['qrels', 'run', 'beir-qrels', 'prels', 'empty', 'unknown']);

export const lintTextFuzz: FuzzTarget = {
  async run(recorder: InputRecorder) {
    await recorder.property('lintText', () =>
      fc.assert(
        fc.property(
          mutatedDocument(trecLikeLines),
          fc.option(fc.constantFrom<LintFileType>(...lintFileTypes), { nil: undefined }),
          fc.boolean(),
          (text, forced, withStudy) => lintOnce(recorder, text, forced, withStudy),
        ),
        fuzzParameters(1, lintTextRuns),
      ),
    );
    return recorder.report();
  },
};

function lintOnce(recorder: InputRecorder, text: string, forced: LintFileType | undefined, withStudy: boolean): void {
  recorder.start('lintText', text);
  const study = withStudy ? fuzzStudy : undefined;
  const lines = new TextLines(text);
  const detected = timed('lintText (detected type)', text.length, () => lintText(text, undefined, '<text>', study));
  assert.ok(detectedTypes.has(detected.type), `unknown type ${detected.type}`);
  checkLintRanges(lines, detected.diagnostics);
  if (forced === undefined) return;
  const result = timed(`lintText (as ${forced})`, text.length, () => lintText(text, forced, '<text>', study));
  assert.equal(result.type, forced, 'a forced type is the type linted');
  checkLintRanges(lines, result.diagnostics);
}
