// `qrels-studio import STUDY --labels FILE` reads the condition ticks and aspect answers a label file carries (the
// `export --answers` sidecar, or `export --labels --with-answers`), checked against the study, and stores them as
// the Label view does: a person ticks through the Label view's session, the answers leave with `export --answers`,
// enter a fresh copy of the study with `import --labels`, and leave it again unchanged. Bad answers are positioned
// errors that leave the database as it was. Each test on a study of either store kind (cliStore.ts).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseStudyFile, resolveStudies } from '../../core/dsl/index.ts';
import { LabelSession } from '../../core/labelling/labelSession.ts';
import { scratchDir } from '../helpers.ts';
import { storeKinds } from '../storeKinds.ts';
import { type CliStore, cliStore } from './cliStore.ts';

const studyText = `study "mc" {
  queries "queries.jsonl" { id: qid  text: query  instruction: conditions }
  corpus  "corpus.jsonl"  { id: _id  body: text }
  pool    "run.trec" depth 2
  scale ordinal { 0 "None" key "0"  1 "Some" key "1"  2 "All" key "2" }
  conditions from instruction
  aspect topical "On topic?"
  aspect coverage "How much of the topic" levels 0 1 2
  derive label = all(conditions) ? 2 : any(conditions) ? 1 : 0
}
`;

/** A folder with the study (its record in `store`) and its data, imported (queries, corpus, pool); no labels yet. */
function studyFolder(store: CliStore): string {
  const root = scratchDir();
  store.writeStudy(join(root, 'mc.assess'), studyText);
  writeFileSync(
    join(root, 'queries.jsonl'),
    `${JSON.stringify({ qid: 'q1', query: 'medal tables', conditions: '1. after 2000 2. in Europe 3. summer games' })}\n` +
      `${JSON.stringify({ qid: 'q2', query: 'rivers', conditions: '1. longer than 1000 km 2. in Africa' })}\n`,
  );
  writeFileSync(
    join(root, 'corpus.jsonl'),
    ['summer medal table', 'winter medal table', 'the Nile']
      .map((text, i) => `${JSON.stringify({ _id: `d${i + 1}`, text })}\n`)
      .join(''),
  );
  writeFileSync(join(root, 'run.trec'), 'q1 Q0 d1 1 2 r\nq1 Q0 d2 2 1 r\nq2 Q0 d3 1 1 r\n');
  const imported = store.cli(['import', 'mc.assess'], { cwd: root });
  assert.equal(imported.status, 0, imported.stderr);
  return root;
}

function cli(store: CliStore, args: string[], cwd: string) {
  return store.cli(args, { cwd, env: { QRELS_STUDIO_CONFIG_DIR: scratchDir() } });
}

/** Exports the study's answers sidecar and returns its text. */
function exportAnswers(store: CliStore, root: string): string {
  const exported = cli(store, ['export', 'mc.assess', '--answers', 'answers.jsonl'], root);
  assert.equal(exported.status, 0, exported.stderr);
  return readFileSync(join(root, 'answers.jsonl'), 'utf8');
}

for (const kind of storeKinds)
  test(`import --labels: answers exported from the Label view come back into a fresh copy of the study unchanged (${kind})`, async () => {
    const kindStore = await cliStore(kind);
    const original = studyFolder(kindStore);
    const studyFile = join(original, 'mc.assess');
    const study = resolveStudies(parseStudyFile(studyText), studyFile).studies[0]!;
    const store = await kindStore.open(studyFile);
    try {
      for (const annotator of ['ann', 'bob']) {
        const session = await LabelSession.open(store, { studyFile, study, annotator });
        const tick = async (
          position: number,
          label: number,
          conditions?: boolean[],
          aspects?: Record<string, boolean | number>,
        ) => {
          const pair = (await session.pairAt(position, 1, true))!;
          await session.commit({
            position,
            pairId: pair.pairId,
            label,
            queueVersion: 1,
            ...(conditions && { conditions }),
            ...(aspects && { aspects }),
          });
        };
        if (annotator === 'ann') {
          await tick(0, 2, [true, true, true], { topical: true, coverage: 2 });
          await tick(1, 1, [false, true, false], { topical: true, coverage: 1 });
          await tick(2, 0, [false, false], { topical: false, coverage: 0 });
        } else {
          // A label given without ticks, and one with aspects only.
          await tick(0, 1);
          await tick(1, 0, undefined, { topical: false });
        }
      }
    } finally {
      await store.close();
    }
    const answers = exportAnswers(kindStore, original);
    assert.equal(answers.trimEnd().split('\n').length, 5);
    const labelFile = cli(kindStore, ['export', 'mc.assess', '--labels', 'labels.csv', '--with-answers'], original);
    assert.equal(labelFile.status, 0, labelFile.stderr);

    // The sidecar (JSON Lines) and the label file (conditions/aspects columns of JSON text) each give the same answers.
    for (const file of ['answers.jsonl', 'labels.csv']) {
      const copyStore = await cliStore(kind);
      const copy = studyFolder(copyStore);
      writeFileSync(join(copy, file), readFileSync(join(original, file)));
      const imported = cli(copyStore, ['import', 'mc.assess', '--labels', file], copy);
      assert.equal(imported.status, 0, imported.stderr);
      assert.equal(exportAnswers(copyStore, copy), answers, file);
    }
  });

for (const kind of storeKinds)
  test(`import --labels: answers the study does not accept are positioned errors, and nothing is imported (${kind})`, async () => {
    const kindStore = await cliStore(kind);
    const root = studyFolder(kindStore);
    const before = exportAnswers(kindStore, root);
    assert.equal(before, '');
    const row = (docid: string, conditions: unknown, aspects: unknown) =>
      `${JSON.stringify({ query_id: 'q1', doc_id: docid, annotator: 'ann', label: 1, conditions, aspects })}\n`;
    const cases: [string, string, RegExp][] = [
      [
        'length.jsonl',
        row('d1', [true, false, true], {}) + row('d2', [], { topical: true }) + row('d3', [true, false], {}),
        /^length\.jsonl:3:\d+: expected 3 condition answers for query 'q1', found 2$/m,
      ],
      [
        'aspect.jsonl',
        row('d1', [], { topical: true }) + row('d2', [], { topcal: true }),
        /^aspect\.jsonl:2:\d+: expected an aspect of study 'mc' \(topical, coverage\), found 'topcal'$/m,
      ],
      [
        'level.jsonl',
        row('d1', [], { coverage: 3 }),
        /^level\.jsonl:1:\d+: expected aspect 'coverage' to be one of its levels \(0, 1, 2\), found 3$/m,
      ],
      [
        'yesno.jsonl',
        row('d1', [], { topical: 1 }),
        /^yesno\.jsonl:1:\d+: expected aspect 'topical' to be true or false, found 1$/m,
      ],
      [
        'vector.csv',
        'query_id,doc_id,annotator,label,conditions,aspects\nq1,d1,ann,1,"[true,true,true]",{}\nq1,d2,ann,1,"[true,1,true]",{}\n',
        /^vector\.csv:3:\d+: expected an array of true\/false in 'conditions', found a number \(1\)$/m,
      ],
    ];
    for (const [file, text, error] of cases) {
      writeFileSync(join(root, file), text);
      const imported = cli(kindStore, ['import', 'mc.assess', '--labels', file], root);
      assert.equal(imported.status, 1, `${file}: ${imported.stdout}`);
      assert.match(imported.stderr, error, file);
      assert.doesNotMatch(imported.stderr, /\n\s+at /, file);
      assert.equal(exportAnswers(kindStore, root), before, file);
    }
  });
