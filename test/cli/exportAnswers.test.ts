// `qrels-studio export --answers` as users run it (the built CLI as a real process): a small MultiConIR-like study
// (queries with numbered conditions, a yes/no and a graded aspect, a label derived from the conditions), a person who
// ticks conditions and aspects through the Label view's session, and an LLM judge run by `qrels-studio judge`
// through the real `openai` SDK against a server on 127.0.0.1, answering per condition. The sidecar next to the
// qrels file carries each label's condition vector and aspect answers; every expected vector is written out by hand.
// On a study of each store kind (cliStore.ts).
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseStudyFile, resolveStudies } from '../../core/dsl/index.ts';
import { LabelSession } from '../../core/labelling/labelSession.ts';
import { startOpenAiServer } from '../core/judge/openAiServer.ts';
import { runCliAsync as cli, scratchDir } from '../helpers.ts';
import { storeKinds } from '../storeKinds.ts';
import { cliStore } from './cliStore.ts';

const apiKey = 'sk-test-secret-0123456789abcdef';

function studyText(endpoint: string): string {
  return `study "mc" {
  queries "queries.jsonl" { id: qid  text: query  instruction: conditions }
  corpus  "corpus.jsonl"  { id: _id  body: text }
  pool    "run.trec" depth 2
  scale ordinal { 0 "None" key "0"  1 "Some" key "1"  2 "All" key "2" }
  conditions from instruction
  aspect topical "On topic?"
  aspect coverage "How much of the topic" levels 0 1 2
  derive label = all(conditions) ? 2 : any(conditions) ? 1 : 0
  judge "judge-c" { endpoint "${endpoint}/" }
}
`;
}

for (const kind of storeKinds)
  test(`export --answers: the ticks a person made and the judge’s per-condition verdicts leave with the qrels (${kind})`, async (t) => {
    const verdicts: Record<string, boolean[]> = {
      'summer medal table': [true, false, true],
      'winter medal table': [false, false, false],
      'the Nile': [true, true],
    };
    const server = await startOpenAiServer({
      respond: ({ body }) => {
        const content = body.messages![0]!.content;
        const text = Object.keys(verdicts).find((body) => content.includes(body))!;
        return { content: JSON.stringify({ rationale: 'checked each', conditions: verdicts[text] }) };
      },
    });
    t.after(() => server.close());
    const kindStore = await cliStore(kind);
    const root = scratchDir();
    const studyFile = join(root, 'mc.assess');
    kindStore.writeStudy(studyFile, studyText(server.baseURL));
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
    const imported = kindStore.cli(['import', 'mc.assess'], { cwd: root });
    assert.equal(imported.status, 0, imported.stderr);

    // The person labels as the Label view does: through a labelling session on the task database.
    const text = readFileSync(studyFile, 'utf8');
    const study = resolveStudies(parseStudyFile(text), studyFile).studies[0]!;
    const store = await kindStore.open(studyFile);
    try {
      const session = await LabelSession.open(store, { studyFile, study, annotator: 'ann' });
      const tick = async (
        position: number,
        label: number,
        conditions: boolean[],
        aspects: Record<string, boolean | number>,
      ) => {
        const pair = (await session.pairAt(position, 1, true))!;
        await session.commit({ position, pairId: pair.pairId, label, conditions, aspects, queueVersion: 1 });
      };
      await tick(0, 2, [true, true, true], { topical: true, coverage: 2 });
      await tick(1, 1, [false, true, false], { topical: true, coverage: 1 });
      await tick(2, 0, [false, false], { topical: false, coverage: 0 });
    } finally {
      await store.close();
    }

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...kindStore.env,
      QRELS_STUDIO_CONFIG_DIR: scratchDir(),
      OPENAI_API_KEY: apiKey,
    };
    delete env.OPENAI_BASE_URL;
    const judged = await cli(['judge', 'mc.assess', '--allow-endpoint', server.baseURL], root, env);
    assert.equal(judged.status, 0, judged.stderr);
    assert.match(judged.stdout, /^suggestions: 3 written$/m);
    const judge = /^judge (llm:judge-c@[0-9a-f]{8}) /m.exec(judged.stdout)![1]!;

    mkdirSync(join(root, 'out'));
    const exported = await cli(
      [
        'export',
        'mc.assess',
        '--qrels',
        'out/ann.qrels',
        '--from',
        'annotator:ann',
        '--answers',
        'out/ann.answers.jsonl',
      ],
      root,
      env,
    );
    assert.equal(exported.status, 0, exported.stderr);
    assert.equal(
      exported.stdout,
      'out/ann.qrels: 3 judgments (annotator:ann)\nout/ann.answers.jsonl: 6 labels with their condition and aspect answers\n',
    );
    assert.equal(readFileSync(join(root, 'out', 'ann.qrels'), 'utf8'), 'q1 0 d1 2\nq1 0 d2 1\nq2 0 d3 0\n');
    const records = readFileSync(join(root, 'out', 'ann.answers.jsonl'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => {
        const { created_at: _, ...record } = JSON.parse(line) as Record<string, unknown>;
        return record;
      });
    const ann = { annotator: 'ann', kind: 'person', source: 'manual' };
    const llm = { annotator: judge, kind: 'judge', source: 'suggestion', aspects: {} };
    assert.deepEqual(records, [
      {
        query_id: 'q1',
        doc_id: 'd1',
        ...ann,
        label: 2,
        conditions: [true, true, true],
        aspects: { topical: true, coverage: 2 },
      },
      // The judge's label is the study's rule over its verdicts: some conditions met → 1, none → 0, all → 2.
      { query_id: 'q1', doc_id: 'd1', ...llm, label: 1, conditions: [true, false, true] },
      {
        query_id: 'q1',
        doc_id: 'd2',
        ...ann,
        label: 1,
        conditions: [false, true, false],
        aspects: { topical: true, coverage: 1 },
      },
      { query_id: 'q1', doc_id: 'd2', ...llm, label: 0, conditions: [false, false, false] },
      {
        query_id: 'q2',
        doc_id: 'd3',
        ...ann,
        label: 0,
        conditions: [false, false],
        aspects: { topical: false, coverage: 0 },
      },
      { query_id: 'q2', doc_id: 'd3', ...llm, label: 2, conditions: [true, true] },
    ]);
    // The same answers in the label file (two more columns, JSON text) and in the judgment history (two more fields).
    const withAnswers = await cli(
      ['export', 'mc.assess', '--labels', 'out/labels.csv', '--jsonl', 'out/all.jsonl', '--with-answers'],
      root,
      env,
    );
    assert.equal(withAnswers.status, 0, withAnswers.stderr);
    assert.equal(
      withAnswers.stdout,
      'out/labels.csv: 6 judgments (label file, with their answers)\n' +
        'out/all.jsonl: 3 judgments with provenance and their answers\n',
    );
    const labelLines = readFileSync(join(root, 'out', 'labels.csv'), 'utf8')
      .trimEnd()
      .split('\n');
    assert.match(labelLines[0]!, /^query_id,doc_id,annotator,label,.*,conditions,aspects$/);
    assert.match(labelLines[1]!, /^q1,d1,ann,2,.*,"\[true,true,true\]","\{""coverage"":2,""topical"":true\}"$/);
    assert.match(labelLines[2]!, new RegExp(`^q1,d1,${judge},1,.*,"\\[true,false,true\\]",\\{\\}$`));
    assert.deepEqual(
      readFileSync(join(root, 'out', 'all.jsonl'), 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => {
          const { doc_id, conditions, aspects } = JSON.parse(line);
          return { doc_id, conditions, aspects };
        }),
      [
        { doc_id: 'd1', conditions: [true, true, true], aspects: { topical: true, coverage: 2 } },
        { doc_id: 'd2', conditions: [false, true, false], aspects: { topical: true, coverage: 1 } },
        { doc_id: 'd3', conditions: [false, false], aspects: { topical: false, coverage: 0 } },
      ],
    );
    const alone = await cli(
      ['export', 'mc.assess', '--qrels', 'out/x.qrels', '--from', 'majority', '--with-answers'],
      root,
      env,
    );
    assert.equal(alone.status, 2);
    assert.match(alone.stderr, /--with-answers adds the condition and aspect answers to --jsonl and --labels outputs/);
  });
