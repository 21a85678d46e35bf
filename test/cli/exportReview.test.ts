// `qrels-studio export REVIEW.assess --review OUT --summary` as a process: the review's items imported on the way,
// the accepted items (latest version, verdict history) as JSONL, the summary per type with reviewer agreement.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseStudyFile, resolveStudies } from '../../core/dsl/index.ts';
import { ReviewSession } from '../../core/review/reviewSession.ts';
import { locateNativeBinding } from '../../core/store/sqliteDatabase.ts';
import { StudyDatabase, studyDatabasePath } from '../../core/store/studyDatabase.ts';
import { verdictOn } from '../core/review/reviewStudy.ts';
import { nativeDir, runCliProcess, scratchDir } from '../helpers.ts';

test('export --review and --summary of a review block', () => {
  const root = scratchDir();
  writeFileSync(
    join(root, 'items.jsonl'),
    '{"iid": "i1", "text": "Find medal tables.", "type": "C1"}\n{"iid": "i2", "text": "Find rivers.", "type": "S1"}\n',
  );
  const text = 'review "gen" {\n  items "items.jsonl" { id: iid  text: text  type: type }\n  annotators alice bob\n}\n';
  writeFileSync(join(root, 'gen.assess'), text);
  const first = runCliProcess(['export', 'gen.assess', '--summary'], { cwd: root });
  assert.equal(first.status, 0, first.stderr);
  assert.match(first.stdout, /review 'gen': 2 items\n {2}C1 {9}unreviewed 1\n {2}S1 {9}unreviewed 1\n/);
  // Verdicts by two reviewers (the view's session, on the same SQLite file).
  const file = join(root, 'gen.assess');
  const model = resolveStudies(parseStudyFile(text), file);
  const database = StudyDatabase.open(studyDatabasePath(file), { nativeBinding: locateNativeBinding(nativeDir) });
  database.syncStudies(model);
  const review = model.reviews[0]!;
  for (const annotator of ['alice', 'bob']) {
    const session = ReviewSession.open(database, { studyFile: file, review, annotator });
    verdictOn(session, 0, { verdict: 'accept' });
    verdictOn(session, 1, { verdict: annotator === 'alice' ? 'accept' : 'reject', reason: 'vague' });
  }
  database.close();
  const result = runCliProcess(['export', 'gen.assess', '--review', 'accepted.jsonl', '--summary'], { cwd: root });
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /accepted\.jsonl: 1 accepted items/);
  assert.match(result.stdout, /C1 {9}accept 1\n {2}S1 {9}disputed 1/);
  assert.match(result.stdout, /reviewer agreement on verdicts: 2 items, 2 reviewers, percent 0\.5000/);
  const accepted = readFileSync(join(root, 'accepted.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    accepted.map((a) => [a.item_id, a.text, a.verdicts.length]),
    [['i1', 'Find medal tables.', 2]],
  );
  const json = JSON.parse(runCliProcess(['export', 'gen.assess', '--summary', '--json'], { cwd: root }).stdout);
  assert.equal(json.agreement.percent_agreement, 0.5);
  const refused = runCliProcess(['export', 'gen.assess', '--review', 'x.jsonl', '--labels', 'y.csv'], { cwd: root });
  assert.equal(refused.status, 2);
});
