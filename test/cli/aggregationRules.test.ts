// Aggregation rules beyond majority (issue 19 item 3), declared in the study and named on the CLI: `mean > T`
// (QUEST: the mean of the people's labels, thresholded to binary) and `human-else-llm` (FollowTable's final qrels:
// the people's label where a person labelled the pair, else the LLM's). Numbers by hand in the comments. On a study
// of each store kind (cliStore.ts).
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCliProcess, scratchDir } from '../helpers.ts';
import { storeKinds } from '../storeKinds.ts';
import { type CliStore, cliStore } from './cliStore.ts';

/** The store of each workspace (its study file's record). */
const workspaceStores = new Map<string, CliStore>();

function cli(cwd: string, ...args: string[]) {
  const result = runCliProcess(args, { cwd, env: workspaceStores.get(cwd)?.env ?? {} });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 *        alice bob carol | gpt52 (kind llm) | gold (kind gold)
 *   d1     2    2    1   |   0              |
 *   d2     1    2        |                  |   3
 *   d3     3             |                  |
 *   d4     0    1    1   |                  |
 *   d5                   |   2              |
 *   d6                   |                  |   3
 */
function workspace(store: CliStore): string {
  const root = scratchDir();
  workspaceStores.set(root, store);
  mkdirSync(join(root, 'data'));
  writeFileSync(join(root, 'data', 'queries.jsonl'), '{"qid": "q1", "query": "medal tables"}\n');
  writeFileSync(
    join(root, 'data', 'corpus.jsonl'),
    `${['d1', 'd2', 'd3', 'd4', 'd5', 'd6'].map((id) => JSON.stringify({ _id: id, text: `text of ${id}` })).join('\n')}\n`,
  );
  writeFileSync(join(root, 'alice.qrels'), 'q1 0 d1 2\nq1 0 d2 1\nq1 0 d3 3\nq1 0 d4 0\n');
  writeFileSync(join(root, 'bob.qrels'), 'q1 0 d1 2\nq1 0 d2 2\nq1 0 d4 1\n');
  writeFileSync(join(root, 'carol.qrels'), 'q1 0 d1 1\nq1 0 d4 1\n');
  writeFileSync(join(root, 'gpt.qrels'), 'q1 0 d1 0\nq1 0 d5 2\n');
  writeFileSync(join(root, 'gold.qrels'), 'q1 0 d2 3\nq1 0 d6 3\n');
  store.writeStudy(
    join(root, 'quest.assess'),
    `study "quest" {
  queries "data/queries.jsonl" { id: qid  text: query }
  corpus  "data/corpus.jsonl"  { id: _id  body: text }
  scale ordinal { 0 "No" key "0"  1 "Marginal" key "1"  2 "Relevant" key "2"  3 "Perfect" key "3" }
  import qrels "alice.qrels" as alice
  import qrels "bob.qrels" as bob
  import qrels "carol.qrels" as carol kind crowd
  import qrels "gpt.qrels" as gpt52 kind llm
  import qrels "gold.qrels" as gold kind gold
  export qrels "out/quest.qrels" from mean > 1.5
  export qrels "out/final.qrels" from human-else-llm
}
`,
  );
  mkdirSync(join(root, 'out'));
  return root;
}

// mean > 1.5 over the people (alice, bob, carol — crowd counts as people; gpt52 and gold do not):
//   d1 (2+2+1)/3 = 1.67 → 1;  d2 (1+2)/2 = 1.5, not above → 0 (with gold's 3 it would be 2 → 1);
//   d3 3 → 1;  d4 (0+1+1)/3 = 0.67 → 0;  d5, d6: no person → left out.
const quest = 'q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 1\nq1 0 d4 0\n';
// human-else-llm: the people's majority (tie → lower), else gpt52's label:
//   d1 2 (2,2,1; gpt52's 0 ignored);  d2 1 (1 vs 2, tie → 1; gold does not vote);  d3 3;  d4 1 (0,1,1);
//   d5 gpt52's 2;  d6 only gold → left out.
const final = 'q1 0 d1 2\nq1 0 d2 1\nq1 0 d3 3\nq1 0 d4 1\nq1 0 d5 2\n';

for (const kind of storeKinds)
  test(`the study declares mean > 1.5 and human-else-llm: export writes both, as --from does (${kind})`, async () => {
    const root = workspace(await cliStore(kind));
    const imported = cli(root, 'import', 'quest.assess');
    assert.equal(imported.status, 0, imported.stderr);
    const declared = cli(root, 'export', 'quest.assess');
    assert.equal(declared.status, 0, declared.stderr);
    assert.equal(readFileSync(join(root, 'out', 'quest.qrels'), 'utf8'), quest);
    assert.equal(readFileSync(join(root, 'out', 'final.qrels'), 'utf8'), final);

    const named = cli(root, 'export', 'quest.assess', '--qrels', 'a.qrels', '--from', 'mean>1.5');
    assert.equal(named.status, 0, named.stderr);
    assert.equal(readFileSync(join(root, 'a.qrels'), 'utf8'), quest);
    // A lower threshold: d2's 1.5 is above 1 → 1; d4's 0.67 is not.
    assert.equal(cli(root, 'export', 'quest.assess', '--qrels', 'b.qrels', '--from', 'mean > 1').status, 0);
    assert.equal(readFileSync(join(root, 'b.qrels'), 'utf8'), 'q1 0 d1 1\nq1 0 d2 1\nq1 0 d3 1\nq1 0 d4 0\n');
    assert.equal(cli(root, 'export', 'quest.assess', '--qrels', 'c.qrels', '--from', 'human-else-llm').status, 0);
    assert.equal(readFileSync(join(root, 'c.qrels'), 'utf8'), final);
    // The imported LLM labels alone, by the name they were imported under.
    assert.equal(cli(root, 'export', 'quest.assess', '--qrels', 'd.qrels', '--from', 'llm:gpt52').status, 0);
    assert.equal(readFileSync(join(root, 'd.qrels'), 'utf8'), 'q1 0 d1 0\nq1 0 d5 2\n');
  });

for (const kind of storeKinds)
  test(`--from: a misspelt rule is named with the nearest; mean needs a number (${kind})`, async () => {
    const root = workspace(await cliStore(kind));
    assert.equal(cli(root, 'import', 'quest.assess').status, 0);
    const typo = cli(root, 'export', 'quest.assess', '--qrels', 'x.qrels', '--from', 'human-else-lm');
    assert.notEqual(typo.status, 0);
    assert.match(
      typo.stderr,
      /unknown label source 'human-else-lm' .*mean>T.*human-else-llm.*did you mean 'human-else-llm'\?/,
    );
    const word = cli(root, 'export', 'quest.assess', '--qrels', 'x.qrels', '--from', 'mean>high');
    assert.notEqual(word.status, 0);
    assert.match(word.stderr, /mean>: expected a number after '>', found 'high'/);
    assert.doesNotMatch(typo.stderr + word.stderr, /at .*\.ts:\d+/, 'no stack trace');
  });
