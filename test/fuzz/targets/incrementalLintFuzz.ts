// Proves, on mutated qrels, runs and BEIR qrels edited line by line with mutated lines (CR, BOM, odd numbers,
// huge tokens, real lines spliced in, a study set or dropped between edits): after every edit IncrementalLint's
// findings and type equal lintText's on the whole text (with the declared type when the content cannot tell), it
// never throws, and each lint stays within the time bound.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { type DocumentLines, IncrementalLint } from '../../../core/lint/incrementalLint.ts';
import { lintText } from '../../../core/lint/lintText.ts';
import type { StudyLintContext } from '../../../core/lint/studyContext.ts';
import { type LintFileType, type LintResult, lintFileTypes } from '../../../core/lint/types.ts';
import { type FuzzTarget, fuzzParameters, type InputRecorder, timed } from '../harness.ts';
import { mutatedDocument } from '../mutations.ts';
import { checkLintRanges } from '../rangeChecks.ts';
import { realQrelsSlice, syntheticBeirQrels, syntheticQrels, syntheticRun } from '../seeds.ts';
import { fuzzStudy } from './studyContext.ts';

export const incrementalLintRuns = 800;

/** A document as the editor hands it over: lines split on '\n' (a '\r' stays in its line). */
function documentOf(text: string): DocumentLines {
  const lines = text.split('\n');
  return { lineCount: lines.length, line: (i) => lines[i]!, text: () => text };
}

/** Lines `[at, at + removeCount)` replaced by `added`, or the study swapped (which re-lints the whole text). */
type Step = { kind: 'edit'; at: number; removeCount: number; added: string } | { kind: 'study'; study: boolean };

const seedLines = fc.oneof(realQrelsSlice, syntheticQrels, syntheticRun, syntheticBeirQrels);
/** Text an edit inserts: mutated lines of the same shapes, split on '\n' into the added lines. */
const insertedText = mutatedDocument(
  fc.oneof(syntheticQrels, syntheticRun, syntheticBeirQrels).map((l) => l.slice(0, 3)),
);

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({
      kind: fc.constant('edit' as const),
      at: fc.nat(),
      removeCount: fc.integer({ min: 0, max: 4 }),
      added: insertedText,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('study' as const), study: fc.boolean() }) },
);

export const incrementalLintFuzz: FuzzTarget = {
  async run(recorder: InputRecorder) {
    await recorder.property('IncrementalLint', () =>
      fc.assert(
        fc.property(
          mutatedDocument(seedLines),
          fc.option(fc.constantFrom<LintFileType>(...lintFileTypes), { nil: undefined }),
          fc.boolean(),
          fc.array(step, { minLength: 1, maxLength: 6 }),
          (start, declared, withStudy, steps) => editAndCompare(recorder, start, declared, withStudy, steps),
        ),
        fuzzParameters(2, incrementalLintRuns),
      ),
    );
    return recorder.report();
  },
};

function editAndCompare(
  recorder: InputRecorder,
  start: string,
  declared: LintFileType | undefined,
  withStudy: boolean,
  steps: readonly Step[],
): void {
  let text = start;
  let study = withStudy ? fuzzStudy : undefined;
  const engine = new IncrementalLint('<text>', declared, study);
  const compare = (when: string) => {
    recorder.start('IncrementalLint', text);
    const result = timed('IncrementalLint.lint', text.length, () => engine.lint(documentOf(text)));
    const whole = wholeTextLint(text, declared, study);
    assert.deepEqual(result, whole, `incremental and whole-text lints differ ${when}`);
    checkLintRanges(text, result.diagnostics);
  };
  compare('on the first lint');
  steps.forEach((s, i) => {
    if (s.kind === 'study') {
      study = s.study ? fuzzStudy : undefined;
      engine.setStudy(study); // the next lint is whole
    } else {
      const lines = text.split('\n');
      const from = s.at % lines.length;
      const added = s.added.split('\n');
      const removed = lines.splice(from, Math.min(s.removeCount, lines.length - from), ...added);
      text = lines.join('\n');
      engine.applyChange({ from, removed, added });
    }
    compare(`after step ${i + 1}`);
  });
}

/** What linting the whole text finds, with the declared type when the content cannot tell (as the editor does). */
function wholeTextLint(
  text: string,
  declared: LintFileType | undefined,
  study: StudyLintContext | undefined,
): LintResult {
  // Diversity qrels are told only by their declared language (core/lint/fileFormats.ts): the declared type wins.
  if (declared === 'diversity-qrels')
    return timed('lintText', text.length, () => lintText(text, declared, '<text>', study));
  const detected = timed('lintText', text.length, () => lintText(text, undefined, '<text>', study));
  if (declared === undefined || detected.type !== 'unknown') return detected;
  return timed('lintText', text.length, () => lintText(text, declared, '<text>', study));
}
