// The answers behind each label leave the tool (exportAnswers, `export --answers`): a person's condition ticks and
// aspect answers as the Label view stored them (store → export equals what was ticked, a graded aspect's level as a
// number), and an LLM judge's per-condition verdicts, through the real `openai` SDK against a server on 127.0.0.1.
// Every expected vector below is written out by hand from what the test ticks and what the server answers.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { createChatClient } from '../../../core/judge/chatClient.ts';
import { judgeStudy } from '../../../core/judge/judgeStudy.ts';
import { promptTemplate } from '../../../core/judge/promptTemplate.ts';
import { exportAnswers, exportJudgmentsJsonl, exportLabelsWithAnswers } from '../../../core/store/studyExports.ts';
import { storeKinds } from '../../storeKinds.ts';
import { startOpenAiServer } from '../judge/openAiServer.ts';
import { labellingStudy } from '../labelling/labellingStudy.ts';

for (const kind of storeKinds)
  test(`export --answers: a person’s ticks and aspect answers round-trip, a judge’s per-condition verdicts are kept (${kind})`, async (t) => {
    const study = await labellingStudy(
      {
        queries: [
          { qid: 'q1', text: 'medal tables', instruction: '1. after 2000 2. in Europe 3. summer games' },
          { qid: 'q2', text: 'rivers', instruction: '1. longer than 1000 km 2. in Africa' },
        ],
        documents: [
          { docid: 'a', body: 'document 1 for query 1' },
          { docid: 'b', body: 'document 2 for query 1' },
          { docid: 'c', body: 'document 3 for query 2' },
        ],
        ranking: { q1: ['a', 'b'], q2: ['c'] },
        extra:
          '  conditions from instruction\n  aspect topical "On topic?"\n  aspect coverage "Coverage" levels 0 1 2\n' +
          '  derive label = all(conditions) ? 2 : any(conditions) ? 1 : 0\n  judge "judge-k" {}',
      },
      kind,
    );
    t.after(() => study.close());
    let now = Date.parse('2026-05-01T12:00:00.000Z');
    const session = await study.session('alice', () => {
      now += 1000;
      return new Date(now);
    });
    const commit = async (
      position: number,
      label: number,
      conditions: boolean[],
      aspects: Record<string, boolean | number>,
    ) => {
      const pair = (await session.pairAt(position, 1, true))!;
      await session.commit({ position, pairId: pair.pairId, label, conditions, aspects, queueVersion: 1 });
    };
    // q1/a ticked once, then changed: the export carries the current ticks, not the first ones.
    await commit(0, 1, [true, false, true], { topical: true, coverage: 1 });
    await commit(0, 2, [true, true, true], { topical: true, coverage: 2 });
    await commit(1, 0, [false, false, false], { topical: false, coverage: 0 });
    await commit(2, 1, [false, true], { topical: true, coverage: 1 });

    const verdicts: Record<string, boolean[]> = {
      'document 1 for query 1': [true, true, false],
      'document 2 for query 1': [false, false, false],
      'document 3 for query 2': [true, true],
    };
    const server = await startOpenAiServer({
      respond: ({ body }) => {
        const document = /Document: (document \d for query \d)/.exec(body.messages![0]!.content)![1]!;
        return { content: JSON.stringify({ rationale: 'checked', conditions: verdicts[document] }) };
      },
    });
    t.after(() => server.close());
    const report = await judgeStudy(study.store, study.study, {
      concurrency: 2,
      client: createChatClient({
        baseURL: server.baseURL,
        apiKey: 'sk-test-0123456789',
        timeoutMs: 2_000,
        maxAttempts: 1,
        backoff: { baseMs: 1, maxMs: 5 },
        breaker: { failures: 1_000, pauseMs: 1_000 },
      }),
      prompt: {
        ...promptTemplate(
          'prompts/conditions.md',
          'Query: {{query}}\nDocument: {{document}}\nConditions:\n{{conditions}}\n',
        ),
        output: 'conditions',
      },
      prices: {},
    });
    assert.equal(report.suggestions, 3);

    const file = join(study.folder, 'answers.jsonl');
    const graded = new Set(['coverage']);
    assert.equal(await exportAnswers(study.store, study.studyId, file, graded), 6);
    const records = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const record of records) assert.match(record.created_at as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const judge = report.judge;
    const person = { annotator: 'alice', kind: 'person', source: 'manual' };
    const llm = { annotator: judge, kind: 'judge', source: 'suggestion', aspects: {} };
    assert.deepEqual(
      records.map(({ created_at: _, ...rest }) => rest),
      [
        {
          query_id: 'q1',
          doc_id: 'a',
          ...person,
          label: 2,
          conditions: [true, true, true],
          aspects: { coverage: 2, topical: true },
        },
        { query_id: 'q1', doc_id: 'a', ...llm, label: 1, conditions: [true, true, false] },
        {
          query_id: 'q1',
          doc_id: 'b',
          ...person,
          label: 0,
          conditions: [false, false, false],
          aspects: { coverage: 0, topical: false },
        },
        { query_id: 'q1', doc_id: 'b', ...llm, label: 0, conditions: [false, false, false] },
        {
          query_id: 'q2',
          doc_id: 'c',
          ...person,
          label: 1,
          conditions: [false, true],
          aspects: { coverage: 1, topical: true },
        },
        { query_id: 'q2', doc_id: 'c', ...llm, label: 2, conditions: [true, true] },
      ],
    );
    // What the Label view shows the annotator (read back through the session) is what was exported.
    const shown = (await session.pairAt(0, 1, true))!.mine!;
    assert.deepEqual([shown.conditions, shown.aspects], [records[0]!.conditions, records[0]!.aspects]);

    // --jsonl with answers: every judgment, history included, with the answers it was stored with (alice's first
    // ticks of q1/a too); the judge made suggestions, not judgments.
    const history = join(study.folder, 'history.jsonl');
    assert.equal(await exportJudgmentsJsonl(study.store, study.studyId, history, graded), 4);
    assert.deepEqual(
      readFileSync(history, 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => {
          const { query_id, doc_id, annotator, current, conditions, aspects } = JSON.parse(line);
          return { query_id, doc_id, annotator, current, conditions, aspects };
        }),
      [
        {
          query_id: 'q1',
          doc_id: 'a',
          annotator: 'alice',
          current: false,
          conditions: [true, false, true],
          aspects: { topical: true, coverage: 1 },
        },
        {
          query_id: 'q1',
          doc_id: 'a',
          annotator: 'alice',
          current: true,
          conditions: [true, true, true],
          aspects: { topical: true, coverage: 2 },
        },
        {
          query_id: 'q1',
          doc_id: 'b',
          annotator: 'alice',
          current: true,
          conditions: [false, false, false],
          aspects: { topical: false, coverage: 0 },
        },
        {
          query_id: 'q2',
          doc_id: 'c',
          annotator: 'alice',
          current: true,
          conditions: [false, true],
          aspects: { topical: true, coverage: 1 },
        },
      ],
    );

    // --labels with answers: the label file's rows with two more columns, the answers as JSON text.
    const labels = join(study.folder, 'labels.csv');
    assert.equal(await exportLabelsWithAnswers(study.store, study.studyId, labels, graded), 6);
    const [header, ...lines] = readFileSync(labels, 'utf8').trimEnd().split('\n').map(csvCells);
    assert.deepEqual(header!.slice(0, 4), ['query_id', 'doc_id', 'annotator', 'label']);
    assert.deepEqual(header!.slice(-2), ['conditions', 'aspects']);
    assert.deepEqual(
      lines.map((cells) => [cells[0], cells[1], cells[3], ...cells.slice(-2)]),
      [
        ['q1', 'a', '2', '[true,true,true]', '{"coverage":2,"topical":true}'],
        ['q1', 'a', '1', '[true,true,false]', '{}'],
        ['q1', 'b', '0', '[false,false,false]', '{"coverage":0,"topical":false}'],
        ['q1', 'b', '0', '[false,false,false]', '{}'],
        ['q2', 'c', '1', '[false,true]', '{"coverage":1,"topical":true}'],
        ['q2', 'c', '2', '[true,true]', '{}'],
      ],
    );
  });

/** The cells of one CSV line (RFC 4180 quoting; no line breaks inside a cell here). */
function csvCells(line: string): string[] {
  const cells: string[] = [];
  for (const match of line.matchAll(/(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g)) {
    cells.push(match[1] !== undefined ? match[1].replaceAll('""', '"') : match[2]!);
  }
  return cells;
}
