// `qrels-studio export REVIEW.assess --review OUT --summary` as a process: the review's items imported on the way,
// the accepted items (latest version, verdict history) as JSONL, the summary per type with reviewer agreement — on
// a study of each store kind (cliStore.ts).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseStudyFile, resolveStudies } from '../../core/dsl/index.ts';
import { ReviewSession } from '../../core/review/reviewSession.ts';
import { verdictOn } from '../core/review/reviewStudy.ts';
import { scratchDir } from '../helpers.ts';
import { storeKinds } from '../storeKinds.ts';
import { cliStore } from './cliStore.ts';

for (const kind of storeKinds)
  test(`export --review and --summary of a review block (${kind})`, async () => {
    const kindStore = await cliStore(kind);
    const root = scratchDir();
    writeFileSync(
      join(root, 'items.jsonl'),
      '{"iid": "i1", "text": "Find medal tables.", "type": "C1"}\n{"iid": "i2", "text": "Find rivers.", "type": "S1"}\n',
    );
    const text =
      'review "gen" {\n  items "items.jsonl" { id: iid  text: text  type: type }\n  annotators alice bob\n}\n';
    kindStore.writeStudy(join(root, 'gen.assess'), text);
    const first = kindStore.cli(['export', 'gen.assess', '--summary'], { cwd: root });
    assert.equal(first.status, 0, first.stderr);
    assert.match(first.stdout, /review 'gen': 2 items\n {2}C1 {9}unreviewed 1\n {2}S1 {9}unreviewed 1\n/);
    // Verdicts by two reviewers (the view's session, on the same record).
    const file = join(root, 'gen.assess');
    const model = resolveStudies(parseStudyFile(text), file);
    const store = await kindStore.open(file);
    await store.studies.sync(model);
    const review = model.reviews[0]!;
    for (const annotator of ['alice', 'bob']) {
      const session = await ReviewSession.open(store, { studyFile: file, review, annotator });
      await verdictOn(session, 0, { verdict: 'accept' });
      await verdictOn(session, 1, { verdict: annotator === 'alice' ? 'accept' : 'reject', reason: 'vague' });
    }
    await store.close();
    const result = kindStore.cli(['export', 'gen.assess', '--review', 'accepted.jsonl', '--summary'], { cwd: root });
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
    const json = JSON.parse(kindStore.cli(['export', 'gen.assess', '--summary', '--json'], { cwd: root }).stdout);
    assert.equal(json.agreement.percent_agreement, 0.5);
    const refused = kindStore.cli(['export', 'gen.assess', '--review', 'x.jsonl', '--labels', 'y.csv'], { cwd: root });
    assert.equal(refused.status, 2);
  });

for (const kind of storeKinds)
  test(`a review's declared \`export verdicts\` is written with no output named; its agreement target is reported; an unknown type is refused (${kind})`, async () => {
    const kindStore = await cliStore(kind);
    const root = scratchDir();
    writeFileSync(
      join(root, 'items.jsonl'),
      '{"iid": "i1", "text": "Find medal tables.", "type": "C1"}\n{"iid": "i2", "text": "Find rivers.", "type": "S1"}\n',
    );
    const text =
      'review "gen" {\n  items "items.jsonl" { id: iid  text: text  type: type }\n  taxonomy { C1 "Boundary"  S1 "Attribute" }\n' +
      '  annotators alice bob\n  agreement percent target 0.9\n  export verdicts "out/accepted.jsonl"\n}\n';
    kindStore.writeStudy(join(root, 'gen.assess'), text);
    const file = join(root, 'gen.assess');
    const model = resolveStudies(parseStudyFile(text), file);
    const store = await kindStore.open(file);
    await store.studies.sync(model);
    const review = model.reviews[0]!;
    assert.equal(kindStore.cli(['export', 'gen.assess', '--summary'], { cwd: root }).status, 0, 'imports the items');
    for (const annotator of ['alice', 'bob']) {
      const session = await ReviewSession.open(store, { studyFile: file, review, annotator });
      await verdictOn(session, 0, { verdict: 'accept' });
      await verdictOn(session, 1, { verdict: annotator === 'alice' ? 'accept' : 'reject', reason: 'vague' });
    }
    await store.close();
    const declared = kindStore.cli(['export', 'gen.assess'], { cwd: root });
    assert.equal(declared.status, 0, declared.stderr);
    assert.equal(
      declared.stdout,
      'out/accepted.jsonl: 1 accepted items (the accepted text, versions, verdict history)\n',
    );
    assert.equal(JSON.parse(readFileSync(join(root, 'out', 'accepted.jsonl'), 'utf8')).item_id, 'i1');
    const summary = kindStore.cli(['export', 'gen.assess', '--summary'], { cwd: root });
    assert.match(
      summary.stdout,
      /^ {2}percent agreement 0\.5000, target 0\.9000: not yet \(n = 2, 95 % interval \[0\.0000, 1\.0000\]\)$/m,
    );
    const json = JSON.parse(kindStore.cli(['export', 'gen.assess', '--summary', '--json'], { cwd: root }).stdout);
    assert.deepEqual(json.agreement.target, {
      statistic: 'percent agreement',
      value: 0.5,
      target: 0.9,
      verdict: { target: 0.9, units: 2, level: 0.95, state: 'not-yet', interval: [0, 1] },
    });
    // A value above the target is not a target met on two items: the interval's lower bound decides.
    kindStore.writeStudy(join(root, 'gen.assess'), text.replace('target 0.9', 'target 0.4'));
    const early = kindStore.cli(['export', 'gen.assess', '--summary'], { cwd: root });
    assert.match(
      early.stdout,
      /^ {2}percent agreement 0\.5000, target 0\.4000: not yet \(n = 2, 95 % interval \[0\.0000, 1\.0000\]\)$/m,
    );
    kindStore.writeStudy(join(root, 'gen.assess'), text);
    assert.deepEqual(json.outcomes, ['accept', 'edit', 'reject', 'disputed', 'pending', 'unreviewed']);
    // A file where the declared export's folder should be: a clear error, nothing written.
    writeFileSync(join(root, 'blocked'), 'not a folder\n');
    kindStore.writeStudy(join(root, 'gen.assess'), text.replace('"out/accepted.jsonl"', '"blocked/accepted.jsonl"'));
    const blocked = kindStore.cli(['export', 'gen.assess'], { cwd: root });
    assert.equal(blocked.status, 1, blocked.stderr);
    assert.equal(
      blocked.stderr.trim(),
      'cannot write blocked/accepted.jsonl: a file stands where its folder should be',
    );
    kindStore.writeStudy(join(root, 'gen.assess'), text);

    // A type the taxonomy does not declare: an error at the item's line, nothing imported.
    writeFileSync(
      join(root, 'items.jsonl'),
      '{"iid": "i1", "text": "Find medal tables.", "type": "C1"}\n{"iid": "i3", "text": "x", "type": "X9"}\n',
    );
    const unknown = kindStore.cli(['export', 'gen.assess', '--summary'], { cwd: root });
    assert.equal(unknown.status, 1);
    assert.match(
      unknown.stderr,
      /items\.jsonl:2:1: expected a type the taxonomy declares \(C1, S1\) for item 'i3', found 'X9'/,
    );
    // Without `export verdicts`, naming nothing is a usage error.
    kindStore.writeStudy(join(root, 'gen.assess'), text.replace('  export verdicts "out/accepted.jsonl"\n', ''));
    const none = kindStore.cli(['export', 'gen.assess'], { cwd: root });
    assert.equal(none.status, 2);
    assert.match(none.stderr, /nothing to export: review 'gen' declares no `export verdicts "FILE"`/);
  });
