// The words the Studies view, the status bar and the import command show: thousands separators, an annotator's
// total (assigned, else every pair), and an import summary that names only what happened.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ImportReport } from '../../../core/store/studyDatabase.ts';
import type { StudyProgress } from '../../../core/store/studyProgress.ts';
import {
  annotatorProgressText,
  importSummary,
  judgedText,
  ownJudgedText,
  ownProgress,
  studyProgressText,
} from '../../../extension/studies/progressText.ts';

test('"412 / 2,000 judged" and "alice — 200 / 1,000", with thousands separators', () => {
  assert.equal(judgedText(412, 2000), '412 / 2,000 judged');
  assert.equal(judgedText(1_234_567, 10_000_000), '1,234,567 / 10,000,000 judged');
  assert.equal(
    annotatorProgressText({ name: 'alice', kind: 'human', assigned: 1000, judged: 200 }, 5000),
    'alice — 200 / 1,000',
  );
  assert.equal(
    annotatorProgressText({ name: 'bob', kind: 'human', assigned: null, judged: 7 }, 5000),
    'bob — 7 / 5,000',
  );
});

test("the annotator's own progress: judged / assigned, else / pairs; someone who has not judged has 0", () => {
  const unassigned: StudyProgress = {
    pairs: 2000,
    judgedByAnyone: 500,
    judgedByHumans: 450,
    annotators: [{ name: 'alice', kind: 'human', assigned: null, judged: 412 }],
  };
  assert.deepEqual(ownProgress(unassigned, 'alice'), { judged: 412, total: 2000 });
  assert.deepEqual(ownProgress(unassigned, 'newcomer'), { judged: 0, total: 2000 });
  const assigned: StudyProgress = {
    ...unassigned,
    annotators: [{ name: 'alice', kind: 'human', assigned: 700, judged: 412 }],
  };
  assert.deepEqual(ownProgress(assigned, 'alice'), { judged: 412, total: 700 });
  assert.deepEqual(
    ownProgress(assigned, 'newcomer'),
    { judged: 0, total: 0 },
    'the study assigns, and nothing to them',
  );
});

test('an import summary names what was imported and what was new', () => {
  const report: ImportReport = {
    files: [],
    queries: { added: 0, updated: 0, unchanged: 20 },
    documents: { added: 49_000, updated: 1000, unchanged: 0 },
    judgments: { added: 0, updated: 0, unchanged: 0 },
    pools: [
      { run: 'a.trec', depth: 10, queries: 20, pooled: 200, added: 200, pairs: 200 },
      { run: 'b.trec', depth: 10, queries: 20, pooled: 200, added: 50, pairs: 250 },
    ],
  };
  assert.equal(
    importSummary('wqt', report),
    "imported into 'wqt': 20 queries, 50,000 documents (49,000 new, 1,000 updated), 250 pairs from 2 runs (250 new)",
  );
  const empty: ImportReport = {
    ...report,
    queries: { added: 0, updated: 0, unchanged: 0 },
    documents: { added: 0, updated: 0, unchanged: 0 },
    pools: [],
  };
  assert.equal(importSummary('wqt', empty), "imported into 'wqt': nothing");
});

test("a study's line says whose each number is; the status bar says it is yours", () => {
  const progress: StudyProgress = {
    pairs: 19,
    judgedByAnyone: 19,
    judgedByHumans: 15,
    annotators: [
      { name: 'alice', kind: 'human', assigned: null, judged: 4 },
      { name: 'bob', kind: 'human', assigned: null, judged: 15 },
      { name: 'llm:gpt@1', kind: 'llm', assigned: null, judged: 19 },
    ],
  };
  assert.equal(studyProgressText(progress, 'alice'), '15 / 19 judged by people · 4 / 19 by you');
  assert.equal(studyProgressText(progress, 'carol'), '15 / 19 judged by people · 0 / 19 by you');
  assert.equal(ownJudgedText(1234, 2000), '1,234 / 2,000 judged by you');
  // A study that assigns: someone with no share of their own (the adjudicator) counts every pair, as their Label
  // view does; someone it does not list has 0 to judge.
  const assigning: StudyProgress = {
    ...progress,
    annotators: [
      { name: 'alice', kind: 'human', assigned: 10, judged: 4 },
      { name: 'carol', kind: 'human', assigned: null, judged: 1 },
    ],
  };
  assert.deepEqual(ownProgress(assigning, 'carol'), { judged: 1, total: 19 });
  assert.deepEqual(ownProgress(assigning, 'erin'), { judged: 0, total: 0 });
});
