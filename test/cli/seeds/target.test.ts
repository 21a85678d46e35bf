// Seed 001, TARGET (a small version of its table-retrieval workflow, end to end through the CLI as a real process):
// a corpus of tables as nested arrays (first row the header) with their titles and databases — Spider's
// concert_singer, a BIRD-like database whose question needs 11 tables, two Wikipedia tables as OTTQA has — the
// source data set's ground-truth tables listed in the queries file (`gold: FIELD`, labels of kind gold); an LLM
// table-relevance judge (the real `openai` SDK against the test server on 127.0.0.1) that sees each table as
// Markdown with its database; agreement, which leaves the gold out; the ground truth and the judge's labels
// exported; and one `eval` printing TARGET Table 3's R@10 and capped R@10 (CR@10, denominator min(k, |T_i|))
// together, on each.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { startOpenAiServer } from '../../core/judge/openAiServer.ts';
import { scratchDir } from '../../helpers.ts';
import { cli, cliAsync, value } from './seedCli.ts';

const studyFile = `study "target" {
  queries "data/queries.jsonl" { id: query_id  text: query  gold: tables }
  corpus  "data/tables.jsonl"  { id: table_id  body: table  title: table_name  database: database_id  format: json }
  pool    "runs/dense.run" depth 3
  scale binary { 0 "Not needed" key "0"  1 "Needed" key "1" }
  judge "judge-t" {}
}
`;

const retail = Array.from({ length: 12 }, (_, i) => `t${String(i + 1).padStart(2, '0')}`);
// The ground truth: s1 needs singer; s2 concert and stadium; b1 eleven of retail's twelve tables (t01 … t11).
const gold: Record<string, string[]> = {
  s1: ['concert_singer#singer'],
  s2: ['concert_singer#concert', 'concert_singer#stadium'],
  b1: retail.slice(0, 11).map((t) => `retail#${t}`),
};

function workspace(): string {
  const root = scratchDir();
  mkdirSync(join(root, 'data'));
  mkdirSync(join(root, 'runs'));
  writeFileSync(join(root, 'target.assess'), studyFile);
  const queries = [
    { query_id: 's1', query: 'How many singers do we have?' },
    { query_id: 's2', query: 'Show the stadium name and the number of concerts in each stadium.' },
    { query_id: 'b1', query: 'Total revenue per region of the customers who returned an order shipped late.' },
  ];
  // Each query lists its ground-truth tables, as TARGET's files do.
  writeFileSync(
    join(root, 'data', 'queries.jsonl'),
    queries.map((q) => `${JSON.stringify({ ...q, tables: gold[q.query_id] })}\n`).join(''),
  );
  const table = (database: string, name: string, header: string[], row: unknown[], id = name) => ({
    table_id: `${database}#${id}`,
    table_name: name,
    database_id: database,
    table: [header, row],
  });
  const tables = [
    table('concert_singer', 'stadium', ['Stadium_ID', 'Name', 'Capacity'], [1, 'Stark Park', 10104]),
    table('concert_singer', 'singer', ['Singer_ID', 'Name', 'Country'], [1, 'Joe Sharp', 'Netherlands']),
    table('concert_singer', 'concert', ['concert_ID', 'concert_Name', 'Stadium_ID'], [1, 'Auditions', 1]),
    table('concert_singer', 'singer_in_concert', ['concert_ID', 'Singer_ID'], [1, 2]),
    ...retail.map((t, i) => table('retail', t, ['id', `column_${i + 1}`], [1, `value ${i + 1}`])),
    table('wiki', '2008 Summer Olympics medal table', ['Nation', 'Gold'], ['China', 48], 'medals_2008'),
    table('wiki', 'List of tallest buildings', ['Building', 'Height (m)'], ['Burj Khalifa', 828], 'tallest'),
  ];
  writeFileSync(join(root, 'data', 'tables.jsonl'), tables.map((t) => `${JSON.stringify(t)}\n`).join(''));
  // A dense retriever's top 10 per query. s1 finds singer (rank 1); s2 concert (rank 1) but not stadium; b1 nine of
  // its eleven tables (t01 … t09) and t12.
  const ranked: Record<string, string[]> = {
    s1: [
      'concert_singer#singer',
      'concert_singer#singer_in_concert',
      'concert_singer#concert',
      'concert_singer#stadium',
      'wiki#medals_2008',
      ...retail.slice(0, 5).map((t) => `retail#${t}`),
    ],
    s2: [
      'concert_singer#concert',
      'concert_singer#singer_in_concert',
      'concert_singer#singer',
      'wiki#tallest',
      ...retail.slice(0, 6).map((t) => `retail#${t}`),
    ],
    b1: [...retail.slice(0, 9), 't12'].map((t) => `retail#${t}`),
  };
  writeFileSync(
    join(root, 'runs', 'dense.run'),
    Object.entries(ranked)
      .flatMap(([q, ids]) => ids.map((id, i) => `${q} Q0 ${id} ${i + 1} ${20 - i} dense\n`))
      .join(''),
  );
  return root;
}

test('TARGET: tables → ground truth + table judge (Markdown) → agreement → qrels → R@10 and CR@10 in one eval', async (t) => {
  const root = workspace();
  cli(root, 'import', 'target.assess');

  // The judge says a table is needed when it is in the ground truth, but it takes s2's join table singer_in_concert
  // for needed and misses b1's t11.
  const prompts: string[] = [];
  const server = await startOpenAiServer({
    respond: ({ body }) => {
      const prompt = body.messages?.map((m) => m.content).join('\n') ?? '';
      prompts.push(prompt);
      const query = queriesByText.find(([, text]) => prompt.includes(text))?.[0] ?? '';
      const database = /Database: (\S+)/.exec(prompt)?.[1];
      const title = /Title: (.+)/.exec(prompt)?.[1];
      const id = `${database}#${tableIds[`${database}#${title}`] ?? title}`;
      const needed =
        (gold[query]!.includes(id) && id !== 'retail#t11') ||
        (query === 's2' && id === 'concert_singer#singer_in_concert');
      return { content: JSON.stringify({ rationale: 'read the table', label: needed ? 1 : 0 }) };
    },
  });
  t.after(() => server.close());
  const tableIds: Record<string, string> = {
    'wiki#2008 Summer Olympics medal table': 'medals_2008',
    'wiki#List of tallest buildings': 'tallest',
  };
  const queriesByText: [string, string][] = [
    ['s1', 'How many singers'],
    ['s2', 'number of concerts in each stadium'],
    ['b1', 'Total revenue per region'],
  ];
  const env: NodeJS.ProcessEnv = { ...process.env, QRELS_STUDIO_CONFIG_DIR: scratchDir() };
  delete env.OPENAI_API_KEY;
  delete env.OPENAI_BASE_URL;
  const judged = await cliAsync(
    ['judge', 'target.assess', '--endpoint', server.baseURL, '--allow-endpoint', server.baseURL],
    root,
    env,
  );
  assert.equal(judged.status, 0, judged.stderr);
  // The pairs: the pool's top 3 (s1 singer, singer_in_concert, concert; s2 concert, singer_in_concert, singer; b1
  // t01–t03) and the ground truth's others (s2 stadium, b1 t04–t11): 9 + 1 + 8 = 18 calls.
  assert.match(judged.stdout, /^suggestions: 18 written$/m);
  assert.equal(prompts.length, 18);
  // The table reaches the judge as Markdown after its database line, never as the JSON array.
  const singer = prompts.find((p) => p.includes('Title: singer\n'));
  assert.ok(singer);
  assert.match(
    singer,
    /Database: concert_singer\n\n\| Singer_ID \| Name \| Country \|\n\|---\|---\|---\|\n\| 1 \| Joe Sharp \| Netherlands \|/,
  );
  assert.doesNotMatch(singer, /\[\["Singer_ID"/);

  // The ground truth is of kind gold: it is no annotator, so agreement has only the judge to go on (before
  // kinds, this positives-only file was a "person" and gave the judge a Cohen κ of 0 at 13/14 agreement). How the
  // judge's labels compare with the ground truth shows in eval below, on each one's qrels.
  const agreement = JSON.parse(cli(root, 'agree', 'target.assess', '--include-llm', '--json'));
  assert.deepEqual(
    agreement.all_annotators.map((a: { kind: string }) => a.kind),
    ['llm'],
  );
  assert.equal(agreement.n_annotators, 1);
  assert.equal(agreement.percent_agreement, null);
  assert.deepEqual(agreement.cohen, []);

  // The ground truth as qrels, as the queries file lists it: 14 judgments at the scale's top value.
  const exported = cli(root, 'export', 'target.assess', '--qrels', 'gold.out.qrels', '--from', 'annotator:gold');
  assert.equal(exported, 'gold.out.qrels: 14 judgments (annotator:gold)\n');
  assert.equal(
    readFileSync(join(root, 'gold.out.qrels'), 'utf8').trim().split('\n').sort().join('\n'),
    Object.entries(gold)
      .flatMap(([q, ids]) => ids.map((id) => `${q} 0 ${id} 1`))
      .sort()
      .join('\n'),
  );
  // R@10: s1 1/1, s2 1/2, b1 9/11 → (1 + 0.5 + 0.81818) / 3 = 0.7727. CR@10 divides by min(10, |T_i|): b1 9/10 →
  // (1 + 0.5 + 0.9) / 3 = 0.8; micro (1 + 1 + 9) / (1 + 2 + 10) = 0.8462.
  const evaluated = cli(root, 'eval', '-m', 'recall.10', '-m', 'capped_recall.10', 'gold.out.qrels', 'runs/dense.run');
  assert.equal(value(evaluated, 'recall_10'), 0.7727);
  assert.equal(value(evaluated, 'capped_recall_10'), 0.8);
  assert.equal(value(evaluated, 'capped_recall_10_micro'), 0.8462);
  // The judge's qrels instead (its 18 labels): s2 needs concert, stadium, singer_in_concert (2 of 3 retrieved), b1
  // t01–t10 (9 of 10), s1 singer → R@10 = (1 + 2/3 + 0.9) / 3 = 0.8556, and CR@10 the same (no query needs > 10).
  cli(root, 'export', 'target.assess', '--qrels', 'judge.qrels', '--from', 'llm:judge-t');
  const byJudge = cli(root, 'eval', '-m', 'recall.10', '-m', 'capped_recall.10', 'judge.qrels', 'runs/dense.run');
  assert.equal(value(byJudge, 'recall_10'), 0.8556);
  assert.equal(value(byJudge, 'capped_recall_10'), 0.8556);
});
