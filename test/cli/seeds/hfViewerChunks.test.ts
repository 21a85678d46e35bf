// Seed 003, the Hugging Face dataset-viewer copy of arXiv chunks (a small version of the workflow InfoDeepSeek and
// Text-to-Pipeline describe, end to end through the CLI as a real process): the copy itself is the study's corpus
// (100 chunks of 512 words, `text`/`source` columns, ids `<source>#<ordinal>`, the paper as each chunk's parent);
// a person labels the pooled chunks from a label file and an LLM judge (the real `openai` SDK against the test
// server on 127.0.0.1) labels them too; the judge's agreement with the person (InfoDeepSeek compares LLM judges
// with humans by agreement; Text-to-Pipeline reports κ); the person's qrels exported per paper (max, any); `eval`
// nDCG@10 with MaxP through the corpus's declared parent, and on the chunks as labelled.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { startOpenAiServer } from '../../core/judge/openAiServer.ts';
import { fixturesDir, runCliProcess, scratchDir } from '../../helpers.ts';
import { cli, cliAsync, value } from './seedCli.ts';

const studyFile = `study "arxiv" {
  queries "data/queries.jsonl" { id: qid  text: query }
  corpus  "data/chunks.txt" from hf-viewer { body: text  parent: source }
  pool    "runs/bm25.trec" depth 4
  scale ordinal { 0 "Not relevant" key "0"  1 "Partly" key "1"  2 "Relevant" key "2" }
  annotators alice
  judge "judge-h" {}
}
`;

const paper = (id: string) => `https://arxiv.org/abs/${id}`;
const infoDeepSeek = paper('2505.15872v2');
const textToPipeline = paper('2505.15874v1');
const promptable = paper('2505.15877v1');
const grit = paper('2505.15879v1');

// Each pooled chunk, a passage of it that names it in a prompt, and alice's label for each query.
const chunks: Record<string, string> = {
  [`${infoDeepSeek}#0`]: 'InfoDeepSeek: Benchmarking Agentic Information Seeking',
  [`${infoDeepSeek}#1`]: 'Agentic RAG should be to assess the effectiveness',
  [`${textToPipeline}#0`]: 'Text-to-Pipeline: Bridging Natural Language and Data Preparation',
  [`${textToPipeline}#1`]: '/gid00008/gid00019/gid00016',
  [`${promptable}#0`]: 'Highlighting What Matters: Promptable Embeddings',
  [`${grit}#0`]: 'GRIT: Teaching MLLMs to Think with Images',
};
const queries: Record<string, string> = {
  q1: 'a benchmark of agentic information seeking for retrieval-augmented generation',
  q2: 'turning natural language instructions into data preparation pipelines',
};
const alice: [string, string, number][] = [
  ['q1', `${infoDeepSeek}#0`, 2],
  ['q1', `${textToPipeline}#0`, 0],
  ['q1', `${infoDeepSeek}#1`, 1],
  ['q1', `${promptable}#0`, 0],
  ['q2', `${infoDeepSeek}#0`, 0],
  ['q2', `${textToPipeline}#1`, 1],
  ['q2', `${grit}#0`, 0],
  ['q2', `${textToPipeline}#0`, 2],
];
// The judge agrees with alice but on two chunks: InfoDeepSeek's second (motivation only) it calls relevant for q1,
// and Text-to-Pipeline's second (PDF glyph ids, no words) not relevant for q2.
const judgeLabel = (qid: string, docid: string, label: number): number =>
  qid === 'q1' && docid === `${infoDeepSeek}#1` ? 2 : qid === 'q2' && docid === `${textToPipeline}#1` ? 0 : label;

function workspace(): string {
  const root = scratchDir();
  mkdirSync(join(root, 'data'));
  mkdirSync(join(root, 'runs'));
  writeFileSync(join(root, 'arxiv.assess'), studyFile);
  copyFileSync(join(fixturesDir, 'seeds', 'hf-viewer-arxiv-chunks.txt'), join(root, 'data', 'chunks.txt'));
  writeFileSync(
    join(root, 'data', 'queries.jsonl'),
    Object.entries(queries)
      .map(([qid, query]) => `${JSON.stringify({ qid, query })}\n`)
      .join(''),
  );
  // A chunk run; the pool (depth 4) takes all of it.
  writeFileSync(
    join(root, 'runs', 'bm25.trec'),
    [
      `q1 Q0 ${infoDeepSeek}#0 1 9 bm25`,
      `q1 Q0 ${textToPipeline}#0 2 8 bm25`,
      `q1 Q0 ${infoDeepSeek}#1 3 7 bm25`,
      `q1 Q0 ${promptable}#0 4 6 bm25`,
      `q2 Q0 ${infoDeepSeek}#0 1 9 bm25`,
      `q2 Q0 ${textToPipeline}#1 2 8.5 bm25`,
      `q2 Q0 ${grit}#0 3 7 bm25`,
      `q2 Q0 ${textToPipeline}#0 4 6 bm25`,
    ]
      .map((line) => `${line}\n`)
      .join(''),
  );
  writeFileSync(
    join(root, 'alice.jsonl'),
    alice.map(([qid, docid, label]) => `${JSON.stringify({ qid, docid, label, annotator: 'alice' })}\n`).join(''),
  );
  return root;
}

test('HF-viewer arXiv chunks: the copy as corpus → person and judge labels → agreement → per-paper qrels → nDCG@10 with MaxP', async (t) => {
  const root = workspace();
  const lint = runCliProcess(['lint', 'arxiv.assess'], { cwd: root });
  assert.equal(lint.status, 0, lint.stdout + lint.stderr);
  const imported = cli(root, 'import', 'arxiv.assess');
  assert.match(imported, /data\/chunks\.txt.*100/);
  cli(root, 'import', 'arxiv.assess', '--labels', 'alice.jsonl');

  const server = await startOpenAiServer({
    respond: ({ body }) => {
      const prompt = body.messages?.map((m) => m.content).join('\n') ?? '';
      const qid = Object.entries(queries).find(([, text]) => prompt.includes(text))?.[0];
      const docid = Object.entries(chunks).find(([, passage]) => prompt.includes(passage))?.[0];
      const label = alice.find(([q, d]) => q === qid && d === docid)?.[2];
      assert.ok(label !== undefined, `a pooled pair in the prompt:\n${prompt}`);
      return { content: JSON.stringify({ rationale: 'read the chunk', label: judgeLabel(qid!, docid!, label) }) };
    },
  });
  t.after(() => server.close());
  const env: NodeJS.ProcessEnv = { ...process.env, QRELS_STUDIO_CONFIG_DIR: scratchDir() };
  delete env.OPENAI_API_KEY;
  delete env.OPENAI_BASE_URL;
  const judged = await cliAsync(
    ['judge', 'arxiv.assess', '--endpoint', server.baseURL, '--allow-endpoint', server.baseURL],
    root,
    env,
  );
  assert.equal(judged.status, 0, judged.stderr);
  assert.match(judged.stdout, /^suggestions: 8 written$/m);

  // alice and the judge on the 8 pooled chunks: equal on 6 → 0.75. Cohen κ: alice 0:4 1:2 2:2, the judge 0:5 2:3 →
  // p_e = (4·5 + 0 + 2·3) / 64 = 0.40625; κ = (0.75 − 0.40625) / 0.59375 = 0.5789.
  const agreement = JSON.parse(cli(root, 'agree', 'arxiv.assess', '--include-llm', '--json'));
  assert.equal(agreement.percent_agreement, 0.75);
  const [pair] = agreement.cohen;
  assert.equal(agreement.cohen.length, 1);
  assert.equal(pair.a, 'alice');
  assert.match(pair.b, /^llm:judge-h@/);
  assert.equal(pair.n, 8);
  assert.equal(Number(pair.unweighted.toFixed(4)), 0.5789);

  // alice's labels per paper through the corpus's parent (the source column): by max, q1 InfoDeepSeek max(2, 1) = 2,
  // Text-to-Pipeline 0, Promptable 0; q2 InfoDeepSeek 0, Text-to-Pipeline max(1, 2) = 2, GRIT 0. By any: 1 where a
  // chunk is ≥ 1. (--per and --rollup pair with the --qrels outputs in order, as --from does.)
  const exported = cli(
    root,
    'export',
    'arxiv.assess',
    '--from',
    'annotator:alice',
    '--qrels',
    'papers.qrels',
    '--per',
    'document',
    '--rollup',
    'max',
    '--qrels',
    'papers-any.qrels',
    '--per',
    'document',
    '--rollup',
    'any',
  );
  assert.match(exported, /^papers\.qrels: 6 judgments/m);
  const sorted = (file: string) => readFileSync(join(root, file), 'utf8').trim().split('\n').sort();
  const byPaper = (labels: number[]) =>
    [
      `q1 0 ${infoDeepSeek} ${labels[0]}`,
      `q1 0 ${textToPipeline} ${labels[1]}`,
      `q1 0 ${promptable} ${labels[2]}`,
      `q2 0 ${infoDeepSeek} ${labels[3]}`,
      `q2 0 ${textToPipeline} ${labels[4]}`,
      `q2 0 ${grit} ${labels[5]}`,
    ].sort();
  assert.deepEqual(sorted('papers.qrels'), byPaper([2, 0, 0, 0, 2, 0]));
  assert.deepEqual(sorted('papers-any.qrels'), byPaper([1, 0, 0, 0, 1, 0]));

  // nDCG@10 per paper, MaxP through the study's corpus parent: q1 InfoDeepSeek 9, Text-to-Pipeline 8, Promptable 6
  // → gains 2 0 0, ideal → 1; q2 InfoDeepSeek 9, Text-to-Pipeline max(8.5, 6), GRIT 7 → gains 0 2 0: (2/log2 3) / 2 =
  // 0.63093. Mean 0.8155.
  const maxp = cli(
    root,
    'eval',
    '--study',
    'arxiv.assess',
    '--maxp',
    '-m',
    'ndcg_cut.10',
    'papers.qrels',
    'runs/bm25.trec',
  );
  assert.equal(value(maxp, 'ndcg_cut_10'), 0.8155);
  // The chunks as labelled, no MaxP: q1 gains 2 0 1 0: (2 + 1/2) / (2 + 1/log2 3) = 2.5 / 2.63093 = 0.95023; q2 gains
  // 0 1 0 2: (1/log2 3 + 2/log2 5) / 2.63093 = 1.49228 / 2.63093 = 0.56721. Mean 0.7587.
  cli(root, 'export', 'arxiv.assess', '--from', 'annotator:alice', '--qrels', 'chunks.qrels');
  assert.deepEqual(
    readFileSync(join(root, 'chunks.qrels'), 'utf8').trim().split('\n').sort(),
    alice.map(([q, d, l]) => `${q} 0 ${d} ${l}`).sort(),
  );
  const passages = cli(root, 'eval', '-m', 'ndcg_cut.10', 'chunks.qrels', 'runs/bm25.trec');
  assert.equal(value(passages, 'ndcg_cut_10'), 0.7587);
});
