// Seed 002, MultiConIR (a small version of its workflow, end to end through the CLI as a real process): a query of
// k conditions (`m1#2`, `m1#3`: the first 2 and the first 3 of one instance's conditions), a positive satisfying all
// of them and hard negatives d_j satisfying the first j; an LLM judge (the real `openai` SDK against the test server
// on 127.0.0.1) answers per condition and the study's `derive label = count(conditions)` makes the label; two
// annotators label the sampled pairs of m1#3 from a label file; `agree` over the people (the judge joins only with
// --include-llm); the judge's qrels exported; `eval` with the paper's win rate WR_k, adjacent win rate WR_{k,k−1} and
// flip rate (ties are losses), taking the instance's last step themselves.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { startOpenAiServer } from '../../core/judge/openAiServer.ts';
import { runCliProcess, scratchDir } from '../../helpers.ts';
import { cli, cliAsync, value } from './seedCli.ts';

// MultiConIR §3's movie domain, one instance: c1 released after 2000, c2 set in Japan, c3 directed by a woman.
const conditions = ['released after 2000', 'set in Japan', 'directed by a woman'];
// Each candidate and the number of the instance's conditions (in order) it satisfies: d_j satisfies c1 … c_j.
const satisfied: Record<string, number> = { pos: 3, hn2: 2, hn1: 1, hn0: 0 };

const studyFile = `study "multiconir" {
  queries "data/queries.jsonl" { id: qid  text: query  instruction: conditions }
  corpus  "data/corpus.jsonl"  { id: _id  body: text }
  pool    "runs/inst.run" depth 10
  scale ordinal { 0 "None" key "0"  1 "One" key "1"  2 "Two" key "2"  3 "Three" key "3" }
  conditions from instruction
  derive label = count(conditions) > 3 ? 3 : count(conditions)
  annotators alice bob
  judge "judge-m" {}
  export qrels "qrels/judge.qrels" from judge
}
`;

function workspace(): string {
  const root = scratchDir();
  mkdirSync(join(root, 'data'));
  mkdirSync(join(root, 'runs'));
  writeFileSync(join(root, 'multiconir.assess'), studyFile);
  const listed = (k: number) =>
    conditions
      .slice(0, k)
      .map((c, i) => `${i + 1}. ${c}`)
      .join(' ');
  writeFileSync(
    join(root, 'data', 'queries.jsonl'),
    [2, 3].map((k) => `${JSON.stringify({ qid: `m1#${k}`, query: 'a film', conditions: listed(k) })}\n`).join(''),
  );
  const texts: Record<string, string> = {
    pos: 'Candidate pos: a 2004 film set in Kyoto, directed by Naomi Kawase.',
    hn2: 'Candidate hn2: a 2004 film set in Kyoto, directed by Hirokazu Kore-eda.',
    hn1: 'Candidate hn1: a 2004 film set in Lyon, directed by Jacques Audiard.',
    hn0: 'Candidate hn0: a 1994 film set in Lyon, directed by Jacques Audiard.',
  };
  writeFileSync(
    join(root, 'data', 'corpus.jsonl'),
    Object.entries(texts)
      .map(([id, text]) => `${JSON.stringify({ _id: id, text })}\n`)
      .join(''),
  );
  // The instruction-style run: it pools m1#2's pos, hn1, hn0 and m1#3's four candidates. hn1 and hn0 tie on m1#3.
  writeFileSync(
    join(root, 'runs', 'inst.run'),
    'm1#2 Q0 pos 1 0.9 inst\nm1#2 Q0 hn0 2 0.6 inst\nm1#2 Q0 hn1 3 0.5 inst\n' +
      'm1#3 Q0 hn2 1 0.8 inst\nm1#3 Q0 pos 2 0.7 inst\nm1#3 Q0 hn1 3 0.6 inst\nm1#3 Q0 hn0 4 0.6 inst\n',
  );
  // The descriptive-style run of the last step (the other query style, for the flip rate).
  writeFileSync(
    join(root, 'runs', 'desc.run'),
    'm1#3 Q0 pos 1 0.9 desc\nm1#3 Q0 hn2 2 0.8 desc\nm1#3 Q0 hn1 3 0.45 desc\nm1#3 Q0 hn0 4 0.4 desc\n',
  );
  // The two annotators' labels of m1#3's pairs (conditions met); bob counts hn1's Lyon as a second one.
  writeFileSync(
    join(root, 'people.jsonl'),
    [
      ['alice', 'pos', 3],
      ['alice', 'hn2', 2],
      ['alice', 'hn1', 1],
      ['alice', 'hn0', 0],
      ['bob', 'pos', 3],
      ['bob', 'hn2', 2],
      ['bob', 'hn1', 2],
      ['bob', 'hn0', 0],
    ]
      .map(([annotator, docid, label]) => `${JSON.stringify({ qid: 'm1#3', docid, label, annotator })}\n`)
      .join(''),
  );
  return root;
}

/** The CLI as a process that does not block this one (the test server must keep answering). */

test('MultiConIR: per-condition judge → count(conditions) labels → agreement → qrels → WR_k, WR_{k,k−1}, flip rate', async (t) => {
  const root = workspace();
  const lint = runCliProcess(['lint', 'multiconir.assess'], { cwd: root });
  assert.equal(lint.status, 0, lint.stdout + lint.stderr);
  cli(root, 'import', 'multiconir.assess');
  cli(root, 'import', 'multiconir.assess', '--labels', 'people.jsonl');

  // The judge sees the query's numbered conditions and answers one boolean each: candidate d_j meets c1 … c_j.
  const seen: string[] = [];
  const server = await startOpenAiServer({
    respond: ({ body }) => {
      const prompt = body.messages?.map((m) => m.content).join('\n') ?? '';
      const candidate = /Candidate (\w+):/.exec(prompt)?.[1] ?? '';
      const k = prompt.includes(`3. ${conditions[2]}`) ? 3 : 2;
      assert.ok(prompt.includes(`1. ${conditions[0]}`) && prompt.includes(`2. ${conditions[1]}`), prompt);
      seen.push(`${k}:${candidate}`);
      const met = Array.from({ length: k }, (_, i) => i < satisfied[candidate]!);
      return { content: JSON.stringify({ rationale: 'checked each condition', conditions: met }) };
    },
  });
  t.after(() => server.close());
  const env: NodeJS.ProcessEnv = { ...process.env, QRELS_STUDIO_CONFIG_DIR: scratchDir() };
  delete env.OPENAI_API_KEY;
  delete env.OPENAI_BASE_URL;
  const judged = await cliAsync(
    ['judge', 'multiconir.assess', '--endpoint', server.baseURL, '--allow-endpoint', server.baseURL],
    root,
    env,
  );
  assert.equal(judged.status, 0, judged.stderr);
  // 7 pooled pairs, one call each.
  assert.deepEqual(seen.sort(), ['2:hn0', '2:hn1', '2:pos', '3:hn0', '3:hn1', '3:hn2', '3:pos']);
  assert.match(judged.stdout, /^suggestions: 7 written$/m);

  // Agreement over the people only: m1#3's 4 units, alice and bob agree on 3 (hn1: 1 vs 2) → percent 0.75.
  // Cohen κ: p_o = 0.75; alice's marginals ¼ each of 0,1,2,3, bob's 0:¼ 2:½ 3:¼ → p_e = 1/16 + 0 + 1/8 + 1/16 = 0.25;
  // κ = (0.75 − 0.25) / 0.75 = 0.6667. Fleiss κ: pooled p = 0:2/8 1:1/8 2:3/8 3:2/8, P_e = (4+1+9+4)/64 = 0.28125,
  // P̄ = 0.75 → κ = 0.46875 / 0.71875 = 0.6522.
  const people = JSON.parse(cli(root, 'agree', 'multiconir.assess', '--json'));
  assert.equal(people.cohen.length, 3, 'alice–bob, and each with the judge (Cohen is given for every pair)');
  const aliceBob = people.cohen.find(
    (pair: { a: string; b: string }) => [pair.a, pair.b].sort().join() === 'alice,bob',
  );
  assert.ok(aliceBob, JSON.stringify(people.cohen));
  assert.equal(aliceBob.n, 4);
  assert.equal(aliceBob.percent_agreement, 0.75);
  assert.equal(Number(aliceBob.unweighted.toFixed(4)), 0.6667);
  assert.equal(Number(people.percent_agreement.toFixed(4)), 0.75);
  assert.equal(Number(people.fleiss.kappa.toFixed(4)), 0.6522);
  // Krippendorff's α (nominal): n = 8 values, n_c = 2 1 3 2; the one disagreement gives D_o = 2/8; D_e = (64 − 18) /
  // 56 → α = 1 − 0.25 / (46/56) = 0.6957.
  assert.equal(Number(people.krippendorff.nominal.toFixed(4)), 0.6957);
  // With the judge (labels 3 2 1 0 on m1#3 as alice; m1#2's units have one label each and drop out): equal pairs of
  // labels per unit pos 3/3, hn2 3/3, hn1 1/3 (alice = judge), hn0 3/3 → 10/12 = 0.8333.
  const all = JSON.parse(cli(root, 'agree', 'multiconir.assess', '--include-llm', '--json'));
  assert.equal(Number(all.percent_agreement.toFixed(4)), 0.8333);

  // The judge's labels as qrels: count(conditions), at most 3 — m1#2 pos 2, hn1 1, hn0 0; m1#3 pos 3, hn2 2, hn1 1,
  // hn0 0.
  const exported = cli(
    root,
    'export',
    'multiconir.assess',
    '--qrels',
    'judge.qrels',
    '--from',
    'llm:judge-m',
    '--answers',
    'answers.jsonl',
  );
  assert.match(exported, /^judge\.qrels: 7 judgments/);
  const qrels = readFileSync(join(root, 'judge.qrels'), 'utf8').trim().split('\n').sort();
  assert.deepEqual(qrels, [
    'm1#2 0 hn0 0',
    'm1#2 0 hn1 1',
    'm1#2 0 pos 2',
    'm1#3 0 hn0 0',
    'm1#3 0 hn1 1',
    'm1#3 0 hn2 2',
    'm1#3 0 pos 3',
  ]);

  // The study's own export (no output named) writes the same judge qrels.
  cli(root, 'export', 'multiconir.assess');
  assert.equal(
    readFileSync(join(root, 'qrels', 'judge.qrels'), 'utf8'),
    readFileSync(join(root, 'judge.qrels'), 'utf8'),
  );

  // The paper's per-condition vectors next to the qrels: the judge's verdicts, d_j true on c1 … c_j; the people's
  // labels came from a file, without answers.
  const answers = readFileSync(join(root, 'answers.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  const vectors = Object.fromEntries(
    answers
      .filter((a) => a.kind === 'judge')
      .map((a) => [`${a.query_id} ${a.doc_id}`, a.conditions.map((c: boolean) => (c ? 1 : 0)).join('')]),
  );
  assert.deepEqual(vectors, {
    'm1#2 pos': '11',
    'm1#2 hn1': '10',
    'm1#2 hn0': '00',
    'm1#3 pos': '111',
    'm1#3 hn2': '110',
    'm1#3 hn1': '100',
    'm1#3 hn0': '000',
  });
  assert.deepEqual(
    answers.filter((a) => a.kind !== 'judge').map((a) => a.conditions),
    Array.from({ length: 8 }, () => []),
  );

  // WR_k: the positive strictly above d_{k−1}: m1#2 pos 0.9 > hn1 0.5 won; m1#3 pos 0.7 < hn2 0.8 lost → 0.5,
  // k:2 1, k:3 0. WR_{k,k−1} over the last step m1#3: (3,2) lost, (2,1) 0.8 > 0.6 won, (1,0) 0.6 = 0.6 a tie, lost
  // → 1/3. Flip rate against the descriptive run (won, won, won 0.45 > 0.4): (3,2) and (1,0) flip → 2/3.
  const evaluated = cli(
    root,
    'eval',
    '-m',
    'win_rate',
    '-m',
    'adjacent_win_rate',
    '-m',
    'flip_rate',
    '--baseline',
    'runs/desc.run',
    'judge.qrels',
    'runs/inst.run',
  );
  assert.equal(value(evaluated, 'win_rate', 'all'), 0.5);
  assert.equal(value(evaluated, 'win_rate', 'k:2'), 1);
  assert.equal(value(evaluated, 'win_rate', 'k:3'), 0);
  assert.equal(value(evaluated, 'adjacent_win_rate', 'all'), 0.3333);
  assert.equal(value(evaluated, 'flip_rate', 'all'), 0.6667);
});
