// `qrels-studio judges` and the judge gate on `export … from human-else-llm`, as users run them: the built CLI as a
// real process on a study of either store kind (cliStore.ts). The study's four runs are pooled by `import`; the
// people's labels come in through `import --labels` (a long-format label file, as a team merges its work); the
// judge labels through `qrels-studio judge` itself (three votes a pair, the real `openai` SDK against a server on
// 127.0.0.1 this test starts). Hand counts: over the 16 pairs the people labelled (d5 of each query they did not),
// the judge is right on d1 and d4, wrong on d2 (says 0, people 1) and d3 (says 1, people 0): accuracy 0.5,
// κ = (0.5 − 0.375) / 0.625 = 0.2; by P.1 the people rank the runs a > b > c > d (1, .75, .5, .25), the judge
// a > b = c > d (1, .75, .75, .25): τ_b = 5/√30 = 0.9129, τ_ap = 2/3 · 2.75 − 1 = 0.8333.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { type ChatBody, startOpenAiServer } from '../core/judge/openAiServer.ts';
import { runCliAsync, scratchDir } from '../helpers.ts';
import { storeKinds } from '../storeKinds.ts';
import { type CliStore, cliStore } from './cliStore.ts';

const apiKey = 'sk-test-judges-0123456789';

/** Each run's top document per query q1…q4; the other documents follow in order. */
const runTops: Record<string, number[]> = {
  a: [1, 1, 1, 1],
  b: [1, 2, 1, 3],
  c: [2, 3, 3, 1],
  d: [3, 4, 5, 2],
};
/** The people's label of document d (none for d5). */
const peopleLabel = (d: number): number | undefined => [undefined, 2, 1, 0, 0, undefined][d];
/** The judge's three votes for document d (it says 1 on d5, which no person labelled). */
const judgeVotes = (d: number): number[] => [[], [2, 2, 2], [0, 0, 1], [1, 1, 0], [0, 0, 0], [1, 1, 1]][d]!;

function studyText(judgeOptions: string, server: string): string {
  return `study "wqt" {
  queries "data/queries.jsonl" { id: qid  text: query }
  corpus  "data/corpus.jsonl"  { id: _id  body: text }
${Object.keys(runTops)
  .map((r) => `  pool "runs/${r}.run" depth 5\n`)
  .join('')}  scale ordinal { 0 "No" key "0"  1 "Partly" key "1"  2 "Yes" key "2" }
  annotators alice bob
  measures "P.1" map
  judge "m" { endpoint "${server}" votes 3 temperature 0.7 ${judgeOptions}}
  export qrels "out/final.qrels" from human-else-llm
}
`;
}

function workspace(store: CliStore, server: string): string {
  const root = scratchDir();
  for (const folder of ['data', 'runs']) mkdirSync(join(root, folder));
  store.writeStudy(join(root, 'wqt.assess'), studyText('accept when tau >= 0.9 and kappa >= 0.6 ', server));
  const queries: string[] = [];
  const corpus: string[] = [];
  const labels = ['query_id,doc_id,annotator,label,created_at'];
  for (let q = 1; q <= 4; q++) {
    queries.push(JSON.stringify({ qid: `q${q}`, query: `query ${q}` }));
    for (let d = 1; d <= 5; d++) {
      corpus.push(JSON.stringify({ _id: `d${q}-${d}`, text: `document number ${d} of query ${q}` }));
      const label = peopleLabel(d);
      if (label !== undefined) labels.push(`q${q},d${q}-${d},alice,${label},2026-01-01T00:00:0${d}Z`);
    }
  }
  // bob agrees with alice on q1.
  for (let d = 1; d <= 4; d++) labels.push(`q1,d1-${d},bob,${peopleLabel(d)},2026-01-02T00:00:0${d}Z`);
  writeFileSync(join(root, 'data', 'queries.jsonl'), `${queries.join('\n')}\n`);
  writeFileSync(join(root, 'data', 'corpus.jsonl'), `${corpus.join('\n')}\n`);
  writeFileSync(join(root, 'people.csv'), `${labels.join('\n')}\n`);
  for (const [run, tops] of Object.entries(runTops)) {
    let text = '';
    tops.forEach((top, q) => {
      [top, ...[1, 2, 3, 4, 5].filter((d) => d !== top)].forEach((d, i) => {
        text += `q${q + 1} Q0 d${q + 1}-${d} ${i + 1} ${10 - i} ${run}\n`;
      });
    });
    writeFileSync(join(root, 'runs', `${run}.run`), text);
  }
  return root;
}

for (const kind of storeKinds)
  test(`judges reports each judge against the people; a judge that fails its gate fills no pair of a human-else-llm export (${kind})`, async (t) => {
    const store = await cliStore(kind);
    const votesSeen = new Map<string, number>();
    const server = await startOpenAiServer({
      respond: ({ body }: { body: ChatBody }) => {
        const match = /document number (\d+) of query (\d+)/.exec(body.messages?.[0]?.content ?? '');
        assert.ok(match, 'a prompt holds its document');
        const key = `${match[2]}-${match[1]}`;
        const n = votesSeen.get(key) ?? 0;
        votesSeen.set(key, n + 1);
        return {
          content: JSON.stringify({ rationale: 'because', label: judgeVotes(Number(match[1]))[n] }),
          usage: { prompt_tokens: 100, completion_tokens: 10 },
        };
      },
    });
    t.after(() => server.close());
    const root = workspace(store, server.baseURL);
    const env = { ...process.env, ...store.env, QRELS_STUDIO_CONFIG_DIR: scratchDir(), OPENAI_API_KEY: apiKey };
    const cli = async (...args: string[]) => runCliAsync(args, root, env);
    for (const step of [
      ['import', 'wqt.assess'],
      ['import', 'wqt.assess', '--labels', 'people.csv'],
      ['judge', 'wqt.assess', '--allow-endpoint', server.baseURL, '--price', 'm=2,8'],
    ]) {
      const result = await cli(...step);
      assert.equal(result.status, 0, `${step.join(' ')}: ${result.stderr}`);
    }
    assert.equal(server.requests(), 60);

    // The gate fails: exit 1 for CI, the failing condition with both numbers on stderr.
    const shown = await cli('judges', 'wqt.assess');
    assert.equal(shown.status, 1, shown.stderr);
    const judge = /judge (llm:m@[0-9a-f]{8}): 16 pairs labelled by both/.exec(shown.stdout)?.[1];
    assert.ok(judge, shown.stdout);
    for (const line of [
      "study 'wqt': 16 pairs with a people's label (adjudicated, else majority); 1 LLM judge",
      '  gate              FAILED: kappa 0.2 < 0.6 (the gate needs kappa >= 0.6)',
      '  accuracy          0.5000',
      // Eight pairs at confidence 1, all right (d1, d4): 0; eight at 2/3, all wrong (d2, d3): 8/16 · 2/3.
      '  calibration (ECE) 0.3333  (16 pairs, 10 bins)',
      // 60 calls × (100 · $2 + 10 · $8) per million = $0.0168, over 20 pairs.
      '  cost              $0.0168 for 60 calls (60 answered, 0 failed); per 1,000 pairs: $0.8400',
      "  system rankings   4 runs by P.1; qrels: the people's qrels, the judge's labels on the same pairs (16 / 16 labels)",
      "    Kendall's τ_b   0.9129",
      "    τ_ap            0.8333  (the people's ranking as truth)",
      '    runs/a.run    1.0000    1    1.0000    1',
      '    runs/c.run    0.5000    3    0.7500  2.5',
      '  confusion matrix (rows: people, columns: judge)',
      `${' '.repeat(13)}0    1    2`,
      '        0    4    4    0',
      '        1    4    0    0',
      '        2    0    0    4',
    ]) {
      assert.ok(shown.stdout.includes(`${line}\n`), `expected the line\n${line}\nin\n${shown.stdout}`);
    }
    assert.equal(shown.stderr, `judge ${judge} fails its gate: kappa 0.2 < 0.6 (the gate needs kappa >= 0.6)\n`);
    assert.match(shown.stdout, /Cohen's κ {9}0\.2000 {2}\[-?\d\.\d{4}, \d\.\d{4}\] \(95 %, 1000 resamples, seed 1\)\n/);

    const json = await cli(
      'judges',
      'wqt.assess',
      '--json',
      '--measure',
      'map',
      '--tau-ap',
      'symmetric',
      '--bootstrap',
      '0',
    );
    assert.equal(json.status, 1, json.stderr);
    const report = JSON.parse(json.stdout);
    assert.equal(report.gatePassed, false);
    assert.equal(report.judges[0].gate.passed, false);
    assert.equal(report.judges[0].cost.pricedCalls, 60);
    assert.equal(report.options.measure, 'map');
    assert.equal(report.options.tauAp, 'symmetric');
    assert.equal(report.judges[0].judge, judge);
    assert.ok(Math.abs(report.judges[0].kappa.value - 0.2) < 1e-12);
    assert.equal(report.judges[0].kappa.interval, null);
    assert.equal(report.judges[0].rankings.systems.length, 4);

    const badMeasure = await cli('judges', 'wqt.assess', '--measure', 'P');
    assert.equal(badMeasure.status, 1);
    assert.match(
      badMeasure.stderr,
      /^--measure P: systems are ranked by one value, and 'P' gives several \(name one cutoff, as in P\.5\)\n$/,
    );
    const badRule = await cli('judges', 'wqt.assess', '--pairs', 'some');
    assert.equal(badRule.status, 2);
    assert.match(badRule.stderr, /--pairs takes people, common, each, not 'some'/);

    // The gate refuses both the declared export and --from human-else-llm; nothing is written.
    const refusal =
      `export from human-else-llm refused: judge ${judge} fails its gate: kappa 0.2 < 0.6 (the gate needs ` +
      "kappa >= 0.6). Only a judge that passes the study's `accept when …` gate may fill the pairs no person " +
      `labelled; check it with \`qrels-studio judges\`, or take it anyway with --accept-judge ${judge}\n`;
    const declared = await cli('export', 'wqt.assess');
    assert.equal(declared.status, 1);
    assert.equal(declared.stderr, refusal);
    assert.equal(existsSync(join(root, 'out', 'final.qrels')), false);
    const named = await cli('export', 'wqt.assess', '--qrels', 'named.qrels', '--from', 'human-else-llm');
    assert.equal(named.status, 1);
    assert.equal(named.stderr, refusal);
    assert.equal(existsSync(join(root, 'named.qrels')), false);
    // Other sources are not gated.
    assert.equal((await cli('export', 'wqt.assess', '--qrels', 'people.qrels', '--from', 'majority')).status, 0);

    // --accept-judge takes it anyway: the people's labels, and the judge's 1 on every d5.
    const expected = [];
    for (let q = 1; q <= 4; q++) {
      for (let d = 1; d <= 5; d++) expected.push(`q${q} 0 d${q}-${d} ${peopleLabel(d) ?? 1}`);
    }
    const accepted = await cli('export', 'wqt.assess', '--accept-judge', 'm');
    assert.equal(accepted.status, 0, accepted.stderr);
    assert.equal(readFileSync(join(root, 'out', 'final.qrels'), 'utf8'), `${expected.join('\n')}\n`);

    // A gate the judge passes, and no gate at all, export without a flag.
    for (const options of ['accept when tau >= 0.9 and kappa >= 0.2 ', '']) {
      store.writeStudy(join(root, 'wqt.assess'), studyText(options, server.baseURL));
      const result = await cli('export', 'wqt.assess', '--qrels', 'passed.qrels', '--from', 'human-else-llm');
      assert.equal(result.status, 0, `${options}: ${result.stderr}`);
      assert.equal(readFileSync(join(root, 'passed.qrels'), 'utf8'), `${expected.join('\n')}\n`);
    }
    const passing = await cli('judges', 'wqt.assess');
    assert.equal(passing.status, 0, passing.stderr);
    assert.match(passing.stdout, /gate {14}none declared/);
    store.writeStudy(join(root, 'wqt.assess'), studyText('accept when tau >= 0.9 and kappa >= 0.2 ', server.baseURL));
    const passed = await cli('judges', 'wqt.assess', '--json');
    assert.equal(passed.status, 0, passed.stderr);
    assert.equal(passed.stderr, '');
    assert.equal(JSON.parse(passed.stdout).gatePassed, true);
    assert.equal(server.requests(), 60, 'reports and exports call no endpoint');
  });

for (const kind of storeKinds)
  test(`a gated judge with no people's labels to be checked against fills nothing (${kind})`, async (t) => {
    const store = await cliStore(kind);
    const server = await startOpenAiServer({
      respond: () => ({ content: JSON.stringify({ rationale: 'because', label: 1 }) }),
    });
    t.after(() => server.close());
    const root = workspace(store, server.baseURL);
    const env = { ...process.env, ...store.env, QRELS_STUDIO_CONFIG_DIR: scratchDir(), OPENAI_API_KEY: apiKey };
    const cli = async (...args: string[]) => runCliAsync(args, root, env);
    assert.equal((await cli('import', 'wqt.assess')).status, 0);
    const judged = await cli('judge', 'wqt.assess', '--allow-endpoint', server.baseURL);
    assert.equal(judged.status, 0, judged.stderr);
    const refused = await cli('export', 'wqt.assess');
    assert.equal(refused.status, 1);
    assert.match(
      refused.stderr,
      /fails its gate: tau is undefined \(the people have labelled no pair: there is no ranking to compare with\), so `tau >= 0\.9` cannot hold; kappa is undefined \(no pair both the judge and the people labelled\), so `kappa >= 0\.6` cannot hold\./,
    );
    const shown = await cli('judges', 'wqt.assess');
    assert.equal(shown.status, 1, shown.stderr);
    assert.match(shown.stderr, /fails its gate: tau is undefined .*; kappa is undefined /);
    assert.match(shown.stdout, /0 pairs with a people's label/);
    // Judged without --price: the cost is unknown ("no price for m"), not $0.
    const noPrice =
      'no price for m: none of its 60 calls was recorded with a cost (judge with --price m=INPUT,OUTPUT in USD per ' +
      'million tokens, and an endpoint that reports tokens)';
    assert.ok(
      shown.stdout.includes(
        `  cost              unknown for 60 calls (60 answered, 0 failed); per 1,000 pairs: —  (${noPrice})\n`,
      ),
      shown.stdout,
    );
    const report = JSON.parse((await cli('judges', 'wqt.assess', '--json', '--bootstrap', '0')).stdout);
    assert.deepEqual(report.judges[0].cost.costPer1000Pairs, { value: null, reason: noPrice });
    assert.equal(report.judges[0].cost.pricedCalls, 0);
    assert.equal(report.gatePassed, false);
    assert.match(shown.stdout, /Cohen's κ {9}— {2}\(no pair both the judge and the people labelled\)/);
  });
