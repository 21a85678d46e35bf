// Seed 004, CRUMB (a small version of its workflow, end to end through the CLI as a real process): two of its tasks
// in one study — Clinical Trial (TREC CT: 0 not relevant, 1 excluded, 2 eligible), whose trials are cut into
// heading-aware chunks `<docid>:<n>` and judged per document, and Theorem Retrieval, whose theorems are not chunked.
// An expert's labels come from a label file, the crowd's earlier round from a qrels file of kind crowd (mixed
// provenance, both people to agreement); `agree` between them; the label file keeps each one's kind; the expert's
// qrels exported per document and per chunk (CRUMB: every chunk of a relevant trial is relevant); and `eval` with the paper's nDCG@10, MaxP on the clinical queries only (their `type`, read
// from the study) and the theorem queries as ranked, one run for both.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCliProcess, scratchDir } from '../../helpers.ts';
import { cli, value } from './seedCli.ts';

const studyFile = `study "crumb" {
  queries "data/queries.jsonl" { id: qid  text: query  type: task }
  corpus  "data/corpus.jsonl"  { id: doc_id  body: text  parent: parent }
  scale ordinal { 0 "Not relevant" key "0"  1 "Excluded" key "1"  2 "Eligible" key "2" }
  annotators alice
  import qrels "data/crowd.qrels" as crowd kind crowd
}
`;

const aliceLabels: [string, string, number][] = [
  ['c1', 'NCT01', 2],
  ['c1', 'NCT02', 1],
  ['c1', 'NCT03', 0],
  ['c2', 'NCT02', 2],
  ['c2', 'NCT03', 1],
  ['t1', 'thm_pigeonhole', 2],
  ['t1', 'thm_fermat', 0],
];

function workspace(): string {
  const root = scratchDir();
  mkdirSync(join(root, 'data'));
  writeFileSync(join(root, 'crumb.assess'), studyFile);
  const queries = [
    { qid: 'c1', task: 'clinical', query: 'A 58-year-old woman with type 2 diabetes and hypertension, HbA1c 9.1 %.' },
    { qid: 'c2', task: 'clinical', query: 'A 12-year-old boy with asthma exacerbations despite inhaled steroids.' },
    { qid: 't1', task: 'theorem', query: 'Show that among any 13 people two were born in the same month.' },
  ];
  writeFileSync(join(root, 'data', 'queries.jsonl'), queries.map((q) => `${JSON.stringify(q)}\n`).join(''));
  // Chunks carry their heading path (CRUMB §3.2); the theorems are documents of their own (parent null).
  const corpus = [
    ['NCT01:0', 'NCT01', '# Metformin add-on in type 2 diabetes\n## Eligibility\nAdults 40–70 with HbA1c > 8 %.'],
    ['NCT01:1', 'NCT01', '# Metformin add-on in type 2 diabetes\n## Outcomes\nChange in HbA1c at 24 weeks.'],
    ['NCT02:0', 'NCT02', '# Blood pressure targets in diabetes\n## Eligibility\nAdults with hypertension.'],
    ['NCT02:1', 'NCT02', '# Blood pressure targets in diabetes\n## Exclusion\nPregnancy; age over 55.'],
    ['NCT03:0', 'NCT03', '# Paediatric asthma biologics\n## Eligibility\nChildren 6–17 with severe asthma.'],
    ['thm_pigeonhole', null, '# Pigeonhole principle\nIf n + 1 objects go into n boxes, a box holds two.'],
    ['thm_fermat', null, "# Fermat's little theorem\na^p ≡ a (mod p) for a prime p."],
    ['thm_euler', null, "# Euler's theorem\na^φ(n) ≡ 1 (mod n) when gcd(a, n) = 1."],
  ];
  writeFileSync(
    join(root, 'data', 'corpus.jsonl'),
    corpus.map(([doc_id, parent, text]) => `${JSON.stringify({ doc_id, text, parent })}\n`).join(''),
  );
  // The expert (alice) judges trials and theorems as documents.
  writeFileSync(
    join(root, 'alice.jsonl'),
    aliceLabels.map(([qid, docid, label]) => `${JSON.stringify({ qid, docid, label, annotator: 'alice' })}\n`).join(''),
  );
  // The crowd's round on the clinical trials: it misses c1's age exclusion of NCT02 (2, not 1) and c2's NCT03 (0).
  writeFileSync(
    join(root, 'data', 'crowd.qrels'),
    'c1 0 NCT01 2\nc1 0 NCT02 2\nc1 0 NCT03 0\nc2 0 NCT02 2\nc2 0 NCT03 0\n',
  );
  // One passage run over both tasks: clinical queries rank chunks, the theorem query ranks theorems.
  writeFileSync(
    join(root, 'passages.run'),
    [
      'c1 Q0 NCT02:1 1 0.9 r',
      'c1 Q0 NCT01:0 2 0.8 r',
      'c1 Q0 NCT03:0 3 0.7 r',
      'c1 Q0 NCT01:1 4 0.6 r',
      'c1 Q0 NCT02:0 5 0.5 r',
      'c2 Q0 NCT03:0 1 0.9 r',
      'c2 Q0 NCT02:0 2 0.8 r',
      'c2 Q0 NCT01:1 3 0.7 r',
      'c2 Q0 NCT02:1 4 0.6 r',
      't1 Q0 thm_fermat 1 0.9 r',
      't1 Q0 thm_pigeonhole 2 0.8 r',
      't1 Q0 thm_euler 3 0.7 r',
    ]
      .map((line) => `${line}\n`)
      .join(''),
  );
  return root;
}

test('CRUMB: expert and crowd labels → agreement → document and chunk qrels → nDCG@10 with MaxP on the chunked task', () => {
  const root = workspace();
  const lint = runCliProcess(['lint', 'crumb.assess'], { cwd: root });
  assert.equal(lint.status, 0, lint.stdout + lint.stderr);
  cli(root, 'import', 'crumb.assess');
  cli(root, 'import', 'crumb.assess', '--labels', 'alice.jsonl');

  // alice and the crowd share c1's three trials and c2's two: equal on c1 NCT01, c1 NCT03, c2 NCT02 → 3/5 = 0.6.
  // Cohen κ: alice's marginals 0:1 1:2 2:2, the crowd's 0:2 2:3 (of 5) → p_e = (1·2 + 2·0 + 2·3) / 25 = 0.32;
  // κ = (0.6 − 0.32) / 0.68 = 0.4118.
  const agreement = JSON.parse(cli(root, 'agree', 'crumb.assess', '--json'));
  assert.equal(agreement.cohen.length, 1);
  const [pair] = agreement.cohen;
  assert.deepEqual([pair.a, pair.b].sort(), ['alice', 'crowd']);
  assert.equal(pair.n, 5);
  assert.equal(pair.percent_agreement, 0.6);
  assert.equal(Number(pair.unweighted.toFixed(4)), 0.4118);

  // Mixed provenance kept: the label file says who is a person and who the crowd (5 + 7 labels).
  cli(root, 'export', 'crumb.assess', '--labels', 'labels.csv');
  const [header, ...rows] = readFileSync(join(root, 'labels.csv'), 'utf8').trim().split('\n');
  const columns = header!.split(',');
  const kinds = rows.map((row) => {
    const cells = row.split(',');
    return `${cells[columns.indexOf('annotator')]}:${cells[columns.indexOf('kind')]}`;
  });
  assert.deepEqual([...new Set(kinds)].sort(), ['alice:person', 'crowd:crowd']);
  assert.equal(kinds.length, 12);

  // The expert's qrels: per document as labelled (7), and per chunk — each trial's label on each of its chunks, a
  // theorem (no chunks) as it is: c1 NCT01:0,1 2, NCT02:0,1 1, NCT03:0 0; c2 NCT02:0,1 2, NCT03:0 1; t1 2 and 0 → 10.
  const exported = cli(
    root,
    'export',
    'crumb.assess',
    '--from',
    'annotator:alice',
    '--qrels',
    'documents.qrels',
    '--per',
    'document',
    '--qrels',
    'chunks.qrels',
    '--per',
    'chunk',
  );
  assert.match(exported, /^documents\.qrels: 7 judgments/m);
  assert.match(exported, /^chunks\.qrels: 10 judgments/m);
  const lines = (file: string) => readFileSync(join(root, file), 'utf8').trim().split('\n').sort();
  assert.deepEqual(lines('documents.qrels'), aliceLabels.map(([q, d, l]) => `${q} 0 ${d} ${l}`).sort());
  assert.deepEqual(lines('chunks.qrels'), [
    'c1 0 NCT01:0 2',
    'c1 0 NCT01:1 2',
    'c1 0 NCT02:0 1',
    'c1 0 NCT02:1 1',
    'c1 0 NCT03:0 0',
    'c2 0 NCT02:0 2',
    'c2 0 NCT02:1 2',
    'c2 0 NCT03:0 1',
    't1 0 thm_fermat 0',
    't1 0 thm_pigeonhole 2',
  ]);

  // Binary qrels for the binary measures by QUEST's rule (CRUMB's SetOps comes from QUEST): 1 where the mean of the
  // people's labels (alice and the crowd) is above 1.5. c1 NCT01 (2+2)/2 = 2 → 1, NCT02 (1+2)/2 = 1.5 not above → 0,
  // NCT03 0 → 0; c2 NCT02 2 → 1, NCT03 (1+0)/2 → 0; t1 pigeonhole alice's 2 → 1, fermat 0 → 0.
  cli(root, 'export', 'crumb.assess', '--qrels', 'binary.qrels', '--from', 'mean > 1.5');
  assert.deepEqual(lines('binary.qrels'), [
    'c1 0 NCT01 1',
    'c1 0 NCT02 0',
    'c1 0 NCT03 0',
    'c2 0 NCT02 1',
    'c2 0 NCT03 0',
    't1 0 thm_fermat 0',
    't1 0 thm_pigeonhole 1',
  ]);

  // nDCG@10 on the document qrels, MaxP on the clinical queries only (gain = label, discount log2(rank + 1)):
  // c1's trials by their best chunk NCT02 0.9, NCT01 0.8, NCT03 0.7 → gains 1 2 0: DCG = 1 + 2/log2 3 = 2.26186,
  // ideal 2 1 0: 2 + 1/log2 3 = 2.63093 → 0.85972; c2 NCT03 0.9, NCT02 0.8, NCT01 0.7 → gains 1 2 0, the same
  // 0.85972; t1 as ranked: fermat 0, pigeonhole 2 → (2/log2 3) / 2 = 0.63093. Mean 2.35037 / 3 = 0.7835.
  const maxp = cli(
    root,
    'eval',
    '--study',
    'crumb.assess',
    '--maxp-type',
    'clinical',
    '-m',
    'ndcg_cut.10',
    'documents.qrels',
    'passages.run',
  );
  assert.equal(value(maxp, 'ndcg_cut_10'), 0.7835);
  // The passage version instead (the chunk qrels, no MaxP): c1 gains 1 2 0 2 1: DCG = 1 + 1.26186 + 0 + 2/log2 5
  // (0.86135) + 1/log2 6 (0.38685) = 3.51006, ideal 2 2 1 1 0: 2 + 1.26186 + 0.5 + 0.43068 = 4.19254 → 0.83722;
  // c2 gains 1 2 0 2: 1 + 1.26186 + 0 + 0.86135 = 3.12321, ideal 2 2 1: 3.76186 → 0.83023; t1 0.63093.
  // Mean 2.29838 / 3 = 0.7661.
  const passages = cli(root, 'eval', '-m', 'ndcg_cut.10', 'chunks.qrels', 'passages.run');
  assert.equal(value(passages, 'ndcg_cut_10'), 0.7661);
});
