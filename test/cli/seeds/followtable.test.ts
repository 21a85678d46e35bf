// Seed 000, FollowTable (a small version of its workflow, end to end through the CLI as a real process): one query
// ("Olympic medal tables") with two instructions of the taxonomy (C2 exclusive topic, S1 attribute-centric), keyed
// `{q}_{i}`; (query, instruction, table) triples labelled compliant (2) / violating (1) / off-topic (0) by two
// annotators from a label file, an LLM's labels imported (kind llm); the people's agreement (the paper reports 87 %
// and Cohen κ ≈ 0.73); the qrels exported, the final ones human-else-llm as the study declares them; and
// `eval` with the paper's measures: nDCG@10 where a violating table gains nothing (--gains 0:0,1:0,2:1), the
// Instruction Responsiveness Score (§4.3) and p-MRR against the query-only run, per instruction type.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCliProcess, scratchDir } from '../../helpers.ts';
import { cli, value } from './seedCli.ts';

// The labels come from the label file; in the Label view the two aspects make them by the derive rule (the lint
// checks the rule's values are on the scale).
const studyFile = `study "followtable" {
  queries "data/instructions.jsonl" { id: iid  text: query  instruction: instruction  type: type }
  corpus  "data/tables.jsonl"  { id: table_id  body: table  title: title  format: json }
  scale ordinal { 0 "Off-topic" key "0"  1 "Violating" key "1"  2 "Compliant" key "2" }
  aspect topical "Is the table about the query?"
  aspect follows "Does the table satisfy the instruction?"
  derive label = topical ? (follows ? 2 : 1) : 0
  annotators alice bob
  import qrels "data/gpt.qrels" as gpt kind llm
  export qrels "qrels/final.qrels" from human-else-llm
}
`;

// alice's labels. q1_1 "Summer Games only, excluding the 2008 Beijing Olympics": London 2012 compliant, Beijing 2008
// and Sochi 2014 (Winter) violating, the FIFA table off-topic. q1_2 "Winter Games only": Sochi 2014 compliant, the
// Summer Games violating. bob differs once: he takes Sochi 2014 for off-topic under q1_1.
const alice: [string, string, number][] = [
  ['q1_1', 'london2012', 2],
  ['q1_1', 'beijing2008', 1],
  ['q1_1', 'sochi2014', 1],
  ['q1_1', 'fifa', 0],
  ['q1_2', 'sochi2014', 2],
  ['q1_2', 'london2012', 1],
  ['q1_2', 'beijing2008', 1],
  ['q1_2', 'fifa', 0],
];

function workspace(): string {
  const root = scratchDir();
  mkdirSync(join(root, 'data'));
  writeFileSync(join(root, 'followtable.assess'), studyFile);
  const instructions = [
    {
      iid: 'q1_1',
      query: 'Olympic medal tables',
      instruction: 'Only Summer Games, excluding the 2008 Beijing Olympics.',
      type: 'C2',
    },
    { iid: 'q1_2', query: 'Olympic medal tables', instruction: 'Only tables of the Winter Games.', type: 'S1' },
  ];
  writeFileSync(join(root, 'data', 'instructions.jsonl'), instructions.map((i) => `${JSON.stringify(i)}\n`).join(''));
  const tables = [
    ['london2012', '2012 Summer Olympics medal table', ['Nation', 'Gold'], ['United States', 46]],
    ['beijing2008', '2008 Summer Olympics (Beijing) medal table', ['Nation', 'Gold'], ['China', 48]],
    ['sochi2014', '2014 Winter Olympics medal table', ['Nation', 'Gold'], ['Norway', 11]],
    ['fifa', 'FIFA World Cup winners', ['Year', 'Winner'], [2014, 'Germany']],
    ['euro2016', 'UEFA Euro 2016 final standings', ['Team', 'Result'], ['Portugal', 'Winner']],
  ];
  writeFileSync(
    join(root, 'data', 'tables.jsonl'),
    tables
      .map(([table_id, title, header, row]) => `${JSON.stringify({ table_id, title, table: [header, row] })}\n`)
      .join(''),
  );
  const bob = alice.map(([q, d, l]): [string, string, number] => [q, d, q === 'q1_1' && d === 'sochi2014' ? 0 : l]);
  writeFileSync(
    join(root, 'labels.jsonl'),
    [...alice.map((l) => [...l, 'alice'] as const), ...bob.map((l) => [...l, 'bob'] as const)]
      .map(([qid, docid, label, annotator]) => `${JSON.stringify({ qid, docid, label, annotator })}\n`)
      .join(''),
  );
  // An LLM's labels from elsewhere, of every triple and of the Euro 2016 table no person saw; it misses that Sochi
  // 2014 is a Winter Games (compliant under q1_1).
  writeFileSync(
    join(root, 'data', 'gpt.qrels'),
    [
      ...alice.map(([q, d, l]) => `${q} 0 ${d} ${q === 'q1_1' && d === 'sochi2014' ? 2 : l}`),
      'q1_1 0 euro2016 0',
      'q1_2 0 euro2016 0',
    ]
      .map((line) => `${line}\n`)
      .join(''),
  );
  // The query-only run (keyed by the query id) and the run with the instruction (keyed by the instruction id).
  writeFileSync(
    join(root, 'run_q.trec'),
    'q1 Q0 beijing2008 1 4 bm25\nq1 Q0 london2012 2 3 bm25\nq1 Q0 sochi2014 3 2 bm25\nq1 Q0 fifa 4 1 bm25\n',
  );
  writeFileSync(
    join(root, 'run_qi.trec'),
    'q1_1 Q0 london2012 1 0.9 qi\nq1_1 Q0 sochi2014 2 0.8 qi\nq1_1 Q0 beijing2008 3 0.7 qi\nq1_1 Q0 fifa 4 0.1 qi\n' +
      'q1_2 Q0 beijing2008 1 0.9 qi\nq1_2 Q0 sochi2014 2 0.8 qi\nq1_2 Q0 london2012 3 0.7 qi\nq1_2 Q0 fifa 4 0.1 qi\n',
  );
  writeFileSync(join(root, 'map.tsv'), 'instruction_id\tquery_id\ttype\nq1_1\tq1\tC2\nq1_2\tq1\tS1\n');
  return root;
}

test('FollowTable: two annotators → agreement → qrels → nDCG@10 with violating gain 0, IRS and p-MRR by type', () => {
  const root = workspace();
  const lint = runCliProcess(['lint', 'followtable.assess'], { cwd: root });
  assert.equal(lint.status, 0, lint.stdout + lint.stderr);
  cli(root, 'import', 'followtable.assess');
  cli(root, 'import', 'followtable.assess', '--labels', 'labels.jsonl');

  // The people only (the LLM's labels are of kind llm, in the pairwise κ alone): 8 triples, equal on 7 → 0.875.
  // Cohen κ: alice 0:2 1:4 2:2, bob 0:3 1:3 2:2 (of 8) → p_e = (6 + 12 + 4) / 64 = 0.34375; κ = (0.875 − 0.34375) /
  // 0.65625 = 0.8095.
  const agreement = JSON.parse(cli(root, 'agree', 'followtable.assess', '--json'));
  assert.equal(agreement.n_annotators, 2);
  assert.equal(agreement.percent_agreement, 0.875);
  const people = agreement.cohen.filter((c: { kind: string }) => c.kind === 'human-human');
  assert.equal(people.length, 1);
  assert.deepEqual([people[0].a, people[0].b].sort(), ['alice', 'bob']);
  assert.equal(people[0].n, 8);
  assert.equal(Number(people[0].unweighted.toFixed(4)), 0.8095);
  // The LLM with each person: it differs from alice only on q1_1 sochi2014 (2 vs 1), from bob there too (2 vs 0) →
  // 7/8 each.
  const withLlm = agreement.cohen.filter((c: { kind: string }) => c.kind === 'human-llm');
  assert.deepEqual(
    withLlm.map((c: { percent_agreement: number; n: number }) => [c.n, c.percent_agreement]),
    [
      [8, 0.875],
      [8, 0.875],
    ],
  );

  const exported = cli(root, 'export', 'followtable.assess', '--qrels', 'alice.qrels', '--from', 'annotator:alice');
  assert.equal(exported, 'alice.qrels: 8 judgments (annotator:alice)\n');
  assert.deepEqual(
    readFileSync(join(root, 'alice.qrels'), 'utf8').trim().split('\n').sort(),
    alice.map(([q, d, l]) => `${q} 0 ${d} ${l}`).sort(),
  );

  // nDCG@10, gain 1 for compliant only: q1_1's compliant table first → 1; q1_2's second → 1/log2 3 = 0.63093;
  // mean 0.8155. With the labels as gains (violating 1, compliant 2): q1_1 gains 2 1 1 0 is ideal → 1; q1_2 gains
  // 1 2 1 0: (1 + 2/log2 3 + 1/2) / (2 + 1/log2 3 + 1/2) = 2.76186 / 3.13093 = 0.88213; mean 0.9411.
  const gains = cli(root, 'eval', '-m', 'ndcg_cut.10', '--gains', '0:0,1:0,2:1', 'alice.qrels', 'run_qi.trec');
  assert.equal(value(gains, 'ndcg_cut_10'), 0.8155);
  const labelsAsGains = cli(root, 'eval', '-m', 'ndcg_cut.10', 'alice.qrels', 'run_qi.trec');
  assert.equal(value(labelsAsGains, 'ndcg_cut_10'), 0.9411);

  // IRS, w(r) = 1/log2(r + 1): w = 1, 0.63093, 0.5, 0.43068. The query-only ranking: beijing2008 london2012
  // sochi2014 fifa. q1_1 (T+ london2012; T− beijing2008, sochi2014): F(π_q) = w2 − w1 − w3 = −0.86907; F(π_qi) =
  // w1 − w3 − w2 = −0.13093; S = 0.73814; F(ideal) = w1 − w3 − w4 = 0.06932 → IRS = 0.73814 / 0.93839 = 0.7866.
  // q1_2 (T+ sochi2014; T− london2012, beijing2008): F(π_q) = w3 − w1 − w2 = −1.13093; F(π_qi) = w2 − w1 − w3 =
  // −0.86907; S = 0.26186 → IRS = 0.26186 / 1.20025 = 0.2182. Mean 0.5024.
  // p-MRR over the violating tables (og → new rank): q1_1 beijing2008 1 → 3 (down) 1 − 1/3, sochi2014 3 → 2 (up)
  // 2/3 − 1 → 0.1667; q1_2 london2012 2 → 3 1 − 2/3, beijing2008 1 → 1 0 → 0.1667; mean 0.1667.
  const instructions = cli(
    root,
    'eval',
    '-q',
    '-m',
    'irs',
    '-m',
    'p_mrr',
    '--baseline',
    'run_q.trec',
    '--instructions',
    'map.tsv',
    'alice.qrels',
    'run_qi.trec',
  );
  assert.equal(value(instructions, 'irs', 'q1_1'), 0.7866);
  assert.equal(value(instructions, 'irs', 'q1_2'), 0.2182);
  assert.equal(value(instructions, 'irs'), 0.5024);
  assert.equal(value(instructions, 'irs', 'type:C2'), 0.7866);
  assert.equal(value(instructions, 'irs', 'type:S1'), 0.2182);
  assert.equal(value(instructions, 'p_mrr', 'q1_1'), 0.1667);
  assert.equal(value(instructions, 'p_mrr', 'q1_2'), 0.1667);
  assert.equal(value(instructions, 'p_mrr'), 0.1667);

  // FollowTable's final qrels, as the study declares them (export with no output named): the people's label where
  // they audited — their majority, a tie going to the lower label (q1_1 sochi2014: alice 1, bob 0 → 0) — else the
  // LLM's (euro2016 0 under both instructions); the LLM's 2 for sochi2014 is not used.
  cli(root, 'export', 'followtable.assess');
  const final = readFileSync(join(root, 'qrels', 'final.qrels'), 'utf8')
    .trim()
    .split('\n')
    .sort();
  assert.deepEqual(
    final,
    [
      ...alice.map(([q, d, l]) => `${q} 0 ${d} ${q === 'q1_1' && d === 'sochi2014' ? 0 : l}`),
      'q1_1 0 euro2016 0',
      'q1_2 0 euro2016 0',
    ].sort(),
  );
  // On the final qrels q1_1 has one violating table (beijing2008): F(π_q) = w2 − w1 = −0.36907; F(π_qi) = w1 − w3 =
  // 0.5; F(ideal) = w1 − w4 = 0.56932 → IRS = 0.86907 / 0.93839 = 0.9261; q1_2 as before 0.2182; mean 0.5721.
  // p-MRR: q1_1 beijing2008 1 → 3: 0.6667; q1_2 0.1667; mean 0.4167.
  const onFinal = cli(
    root,
    'eval',
    '-q',
    '-m',
    'irs',
    '-m',
    'p_mrr',
    '--baseline',
    'run_q.trec',
    'qrels/final.qrels',
    'run_qi.trec',
  );
  assert.equal(value(onFinal, 'irs', 'q1_1'), 0.9261);
  assert.equal(value(onFinal, 'irs'), 0.5721);
  assert.equal(value(onFinal, 'p_mrr', 'q1_1'), 0.6667);
  assert.equal(value(onFinal, 'p_mrr'), 0.4167);
});
