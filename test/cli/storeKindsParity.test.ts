// The same work on a study of each store kind gives the same bytes: one workspace's files copied twice, its study
// file's record once in SQLite and once on PostgreSQL (cliStore.ts), the same CLI commands run in both — imports of
// declared sources, label files (a change of mind, an adjudication, an LLM's and a gold file's labels, a clock
// offset), pooling a run, review verdicts from a file, a refused label file — and every command's exit code, stdout
// and stderr, and every file it wrote, compared byte for byte; and an LLM judge run by the CLI (votes, a parse
// failure, retried server errors, the cache, prices) with its report, call totals and exports; and a review whose
// items file is regenerated, with verdicts, an adjudication and its LLM critic. Only what the commands take from
// the clock (a verdict file's times, a judge's elapsed time, progress lines and call times) is the same nowhere and
// is read out before comparing.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { startOpenAiServer } from '../core/judge/openAiServer.ts';
import { runCliAsync, scratchDir } from '../helpers.ts';
import { storeKinds } from '../storeKinds.ts';
import { type CliStore, cliStore } from './cliStore.ts';

const studyText = `study "wqt" {
  queries "data/queries.jsonl" { id: qid  text: query }
  corpus  "data/corpus.jsonl"  { id: _id  body: text  title: title }
  pool    "runs/bm25.trec" depth 2
  scale ordinal { 0 "No" key "0"  1 "Partly" key "1"  2 "Yes" key "2" }
  agreement krippendorff ordinal target 0.6
  export qrels "out/declared.qrels" from adjudicated
}

review "gen" {
  items "items.jsonl" { id: iid  text: text  type: type }
  taxonomy { C1 "Boundary"  S1 "Attribute" }
  annotators alice bob
  agreement percent target 0.5
}
`;

const labels = `query_id,doc_id,annotator,label,created_at,source,rationale,shown_label,kind
q1,d1,alice,2,2026-01-01T10:00:00Z,manual,,,person
q1,d2,alice,0,2026-01-01T10:01:00Z,manual,too short,,person
q1,d3,alice,1,2026-01-01T10:02:00.123Z,manual,,,person
q2,d4,alice,2,2026-01-01T10:03:00Z,manual,,,person
q1,d1,bob,2,2026-01-01T11:00:00+02:00,manual,,,person
q1,d2,bob,1,2026-01-01T11:01:00+02:00,manual,"a comma, and ""quotes""",1,person
q1,d3,bob,1,2026-01-01T11:02:00+02:00,manual,,,person
q2,d4,bob,0,2026-01-01T11:03:00+02:00,manual,,,person
q2,d5,bob,1,2026-01-01T11:04:00+02:00,manual,,,person
q1,d2,alice,1,2026-01-02T09:00:00Z,manual,looked again,0,person
q1,d2,judy,1,2026-01-03T09:00:00Z,adjudicated,settled,,person
q1,d1,llm:gpt-4.1-mini,1,2026-01-01T12:00:00Z,suggestion,said so,,judge
q1,d3,llm:gpt-4.1-mini,2,2026-01-01T12:00:01Z,suggestion,said so,,judge
q2,d5,llm:gpt-4.1-mini,0,2026-01-01T12:00:02Z,suggestion,,,judge
q1,d1,gold,2,2025-12-31T23:59:59.999Z,imported,,,gold
q2,d4,gold,2,2025-12-31T23:59:59.999Z,imported,,,gold
q2,d5,alice,1,2026-01-01T10:04:00.123456Z,manual,"line one
line two\ttab ✓ 😀 ""quoted""",,person
q3,d6,carol,0,1969-07-20T20:17:40-05:30,manual,  spaces kept  ,2,person
q3,d6,carol,2,2026-01-01T10:04:00.1239Z,manual,,,person
`;

function workspace(store: CliStore): string {
  const root = scratchDir();
  mkdirSync(join(root, 'data'));
  mkdirSync(join(root, 'runs'));
  store.writeStudy(join(root, 'wqt.assess'), studyText);
  writeFileSync(
    join(root, 'data', 'queries.jsonl'),
    '{"qid": "q1", "query": "medal tables"}\n{"qid": "q2", "query": "rivers of Asia"}\n{"qid": "q3", "query": "Straße ✓"}\n',
  );
  writeFileSync(
    join(root, 'data', 'corpus.jsonl'),
    `${['d1', 'd2', 'd3', 'd4', 'd5', 'd6'].map((id) => JSON.stringify({ _id: id, title: `T ${id}`, text: `text of ${id} — ünïcode` })).join('\n')}\n`,
  );
  writeFileSync(
    join(root, 'runs', 'bm25.trec'),
    'q1 Q0 d1 1 9.0 bm25\nq1 Q0 d2 2 8.0 bm25\nq1 Q0 d3 3 7.0 bm25\nq2 Q0 d4 1 5.0 bm25\nq2 Q0 d5 2 4.0 bm25\n',
  );
  writeFileSync(join(root, 'runs', 'dense.trec'), 'q1 Q0 d6 1 0.9 dense\nq2 Q0 d6 1 0.8 dense\nq2 Q0 d9 2 0.7 dense\n');
  writeFileSync(join(root, 'labels.csv'), labels);
  writeFileSync(
    join(root, 'bad.csv'),
    `${labels.split('\n').slice(0, 3).join('\n')}\nq1,d1,carol,7,2026-01-01T00:00:00Z,manual,,,person\n`,
  );
  writeFileSync(
    join(root, 'items.jsonl'),
    ['Find medal tables.', 'Find rivers.', 'Find tall buildings.']
      .map((text, i) => `${JSON.stringify({ iid: `i${i + 1}`, text, type: i === 0 ? 'C1' : 'S1' })}\n`)
      .join(''),
  );
  writeFileSync(
    join(root, 'verdicts.jsonl'),
    '{"item_id": "i1", "verdict": "accept", "reviewer": "alice"}\n' +
      '{"item_id": "i1", "verdict": "edit", "reason": "clearer", "reviewer": "bob", "text": "Find Olympic medal tables."}\n' +
      '{"item_id": "i2", "verdict": "accept", "reviewer": "alice"}\n' +
      '{"item_id": "i2", "verdict": "accept", "reviewer": "bob"}\n' +
      '{"item_id": "i3", "verdict": "reject", "reason": "vague", "reviewer": "alice"}\n',
  );
  return root;
}

const commands: string[][] = [
  ['import', 'wqt.assess'],
  ['import', 'wqt.assess', '--labels', 'labels.csv'],
  ['import', 'wqt.assess', '--labels', 'labels.csv'],
  ['import', 'wqt.assess', '--labels', 'bad.csv'],
  ['pool', 'wqt.assess', '--run', 'runs/dense.trec', '--depth', '2'],
  ['import', 'wqt.assess'],
  ['judged', 'wqt.assess', '--run', 'runs/bm25.trec', '--k', '2', '-q'],
  ['judged', 'wqt.assess', '--run', 'runs/dense.trec', '--k', '1'],
  ['export', 'wqt.assess'],
  ['export', 'wqt.assess', '--qrels', 'out/majority.qrels', '--from', 'majority'],
  ['export', 'wqt.assess', '--qrels', 'out/adjudicated.qrels', '--from', 'adjudicated'],
  ['export', 'wqt.assess', '--qrels', 'out/mean.qrels', '--from', 'mean>1'],
  ['export', 'wqt.assess', '--qrels', 'out/hell.qrels', '--from', 'human-else-llm'],
  ['export', 'wqt.assess', '--qrels', 'out/bob.qrels', '--from', 'annotator:bob'],
  ['export', 'wqt.assess', '--qrels', 'out/nobody.qrels', '--from', 'annotator:nobody'],
  ['export', 'wqt.assess', '--labels', 'out/labels.csv', '--jsonl', 'out/all.jsonl'],
  ['agree', 'wqt.assess', '--json'],
  ['agree', 'wqt.assess'],
  ['agree', 'wqt.assess', '--include-llm', '--per-query'],
  ['agree', 'wqt.assess', '--bootstrap', '200', '--seed', '7', '--json'],
  ['import', 'wqt.assess', '--verdicts', 'verdicts.jsonl'],
  ['import', 'wqt.assess', '--verdicts', 'verdicts.jsonl'],
  ['export', 'wqt.assess', '--summary'],
  ['export', 'wqt.assess', '--summary', '--json'],
  ['export', 'wqt.assess', '--review', 'out/accepted.jsonl'],
];

interface Run {
  command: string;
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Every file under `root` (but the SQLite folder) by its relative path. */
function files(root: string, dir = root, found: Record<string, string> = {}): Record<string, string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === '.qrels-studio') continue;
    if (statSync(path).isDirectory()) files(root, path, found);
    else found[relative(root, path)] = readFileSync(path, 'utf8');
  }
  return found;
}

/** The clock's times (a verdict file's) read out: the same nowhere. */
const clockTimes = (text: string) => text.replace(/"(at|created_at)":"[^"]*"/g, '"$1":"(now)"');

test('the same commands on a SQLite study and a PostgreSQL study: byte-identical outputs and files', async () => {
  const results: Record<string, { runs: Run[]; files: Record<string, string> }> = {};
  for (const kind of storeKinds) {
    const store = await cliStore(kind);
    const root = workspace(store);
    const runs = commands.map((args) => {
      const result = store.cli(args, { cwd: root });
      return { command: args.join(' '), status: result.status, stdout: result.stdout, stderr: result.stderr };
    });
    results[kind] = { runs, files: files(root) };
  }
  const sqlite = results.sqlite!;
  const postgres = results.postgres!;
  assert.equal(sqlite.runs.filter((r) => r.status === 0).length, commands.length - 2, JSON.stringify(sqlite.runs));
  for (const [i, run] of sqlite.runs.entries()) assert.deepEqual(postgres.runs[i], run, run.command);
  assert.deepEqual(Object.keys(postgres.files).sort(), Object.keys(sqlite.files).sort());
  for (const [path, text] of Object.entries(sqlite.files)) {
    if (path === 'wqt.assess') continue; // the store statement is the one difference
    const clocked = path === 'out/accepted.jsonl';
    assert.equal(
      clocked ? clockTimes(postgres.files[path]!) : postgres.files[path],
      clocked ? clockTimes(text) : text,
      path,
    );
  }
});

/**
 * The judge's clock read out — its elapsed seconds, its progress lines (written as time passes), the calls' and
 * suggestions' times: the only parts of a judge run that are not its record's.
 */
const judgeClock = (text: string) =>
  text
    .replace(/ · [\d.]+ s\n/g, ' · (elapsed) s\n')
    .replace(/^judge [^\n]* calls\/s [^\n]*\n/gm, '')
    .replace(/"created_at":"[^"]*"/g, '"created_at":"(now)"')
    .replace(/,\d{4}-\d\d-\d\dT[\d:.]+Z,suggestion,/g, ',(now),suggestion,');

test('an LLM judge run by the CLI on a SQLite study and a PostgreSQL study: the same report, totals and exports', async (t) => {
  // Document d% 3 is the label; d5's answer is no JSON (a parse failure, on record, no suggestion); d6 fails twice
  // with a 500 and then answers.
  const failures = new Map<string, number>();
  const server = await startOpenAiServer({
    respond: ({ body }) => {
      const content = body.messages?.[0]?.content ?? '';
      const d = Number(/text of d(\d)/.exec(content)?.[1]);
      const q = /Query: (.*)/.exec(content)?.[1] ?? '';
      const key = `${q}/${d}`;
      if (d === 5) return { content: 'I would say it is relevant.', usage: { prompt_tokens: 7, completion_tokens: 3 } };
      if (d === 6 && (failures.get(key) ?? 0) < 2) {
        failures.set(key, (failures.get(key) ?? 0) + 1);
        return { status: 500, body: 'overloaded' };
      }
      return {
        content: JSON.stringify({ rationale: `d${d} read — ✓`, label: d % 3 }),
        usage: { prompt_tokens: 1234, completion_tokens: 56 },
      };
    },
  });
  t.after(() => server.close());
  const results: Record<string, Run[]> = {};
  const written: Record<string, Record<string, string>> = {};
  for (const kind of storeKinds) {
    failures.clear();
    const store = await cliStore(kind);
    const root = workspace(store);
    store.writeStudy(
      join(root, 'wqt.assess'),
      studyText.replace(
        '  agreement krippendorff',
        `  judge "judge-p" { endpoint "${server.baseURL}"  votes 3  seed 5 }\n  agreement krippendorff`,
      ),
    );
    const env = { QRELS_STUDIO_CONFIG_DIR: scratchDir(), OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: '' };
    const judgeArgs = ['--allow-endpoint', server.baseURL, '--concurrency', '1', '--price', 'judge-p=1.25,10'];
    const runs: string[][] = [
      ['import', 'wqt.assess'],
      ['import', 'wqt.assess', '--labels', 'labels.csv'],
      ['judge', 'wqt.assess', ...judgeArgs, '--limit', '2'],
      ['judge', 'wqt.assess', ...judgeArgs, '--only-unlabelled'],
      ['judge', 'wqt.assess', ...judgeArgs],
      ['judge', 'wqt.assess', ...judgeArgs],
      ['export', 'wqt.assess'],
      ['export', 'wqt.assess', '--labels', 'out/labels.csv', '--jsonl', 'out/all.jsonl'],
      ['agree', 'wqt.assess', '--include-llm', '--json'],
    ];
    // Not spawnSync: the test server in this process must keep answering while the CLI runs.
    const ran: Run[] = [];
    for (const args of runs) {
      const result = await runCliAsync(args, root, { ...process.env, ...store.env, ...env });
      ran.push({
        command: args.join(' '),
        status: result.status,
        stdout: judgeClock(result.stdout),
        stderr: judgeClock(result.stderr),
      });
    }
    results[kind] = ran;
    assert.ok(
      ran.every((r) => r.status === 0),
      JSON.stringify(ran),
    );
    written[kind] = Object.fromEntries(
      ['out/declared.qrels', 'out/labels.csv', 'out/all.jsonl'].map((path) => [
        path,
        judgeClock(readFileSync(join(root, path), 'utf8')),
      ]),
    );
  }
  const sqlite = results.sqlite!;
  assert.ok(
    sqlite.every((r) => r.status === 0),
    JSON.stringify(sqlite),
  );
  assert.match(sqlite[4]!.stdout, /parse/, 'the run met a parse failure');
  for (const [i, run] of sqlite.entries()) assert.deepEqual(results.postgres![i], run, run.command);
  assert.deepEqual(written.postgres, written.sqlite);
});

test("a review's items regenerated, its verdicts and its LLM critic on both kinds: the same summaries and exports", async (t) => {
  const server = await startOpenAiServer({
    respond: ({ body }) => {
      const prompt = body.messages?.at(-1)?.content ?? '';
      if (prompt.includes('tall buildings')) return { content: 'no scores here' };
      const poor = prompt.includes('rivers');
      return {
        content: JSON.stringify({
          rationale: poor ? 'vague — “rivers”' : 'fine',
          scores: { clarity: poor ? 'poor' : 'excellent' },
        }),
      };
    },
  });
  t.after(() => server.close());
  const review = `review "gen" {
  items "items.jsonl" { id: iid  text: text  type: type  parent: qid  source: original }
  taxonomy { C1 "Boundary"  S1 "Attribute" }
  rubric levels excellent acceptable poor { clarity }
  verdicts accept edit reject
  annotators alice bob  overlap 2
  adjudicator dana
  judge "critic-model" { endpoint "${server.baseURL}"  temperature 0 }
  export verdicts "out/accepted.jsonl"
}
`;
  const items = (changed: boolean) =>
    [
      { iid: 'i1', qid: 'q1', type: 'C1', text: 'Find medal tables, excluding the 2008 Beijing Games.' },
      { iid: 'i2', qid: 'q2', type: 'S1', text: changed ? 'Find long rivers in km.' : 'Find rivers.' },
      { iid: 'i3', qid: 'q3', type: 'S1', text: 'Find tall buildings.', original: 'Find tall buildings in metres.' },
      ...(changed ? [{ iid: 'i4', qid: 'q1', type: 'C1', text: 'Find medal tables of 2012 — “London”.' }] : []),
    ]
      .map((i) => `${JSON.stringify(i)}\n`)
      .join('');
  const verdicts =
    '{"item_id": "i1", "verdict": "accept", "reviewer": "alice", "rubric": {"clarity": "excellent"}}\n' +
    '{"item_id": "i1", "verdict": "edit", "reason": "clearer", "reviewer": "bob", "text": "Find Olympic medal tables, not Beijing 2008."}\n' +
    '{"item_id": "i2", "verdict": "reject", "reason": "vague", "reviewer": "alice"}\n' +
    '{"item_id": "i3", "verdict": "accept", "reviewer": "bob"}\n';
  const results: Record<string, { runs: Run[]; files: Record<string, string> }> = {};
  for (const kind of storeKinds) {
    const store = await cliStore(kind);
    const root = scratchDir();
    store.writeStudy(join(root, 'gen.assess'), review);
    writeFileSync(join(root, 'items.jsonl'), items(false));
    writeFileSync(join(root, 'verdicts.jsonl'), verdicts);
    writeFileSync(join(root, 'dana.jsonl'), '{"item_id": "i1", "verdict": "accept", "reviewer": "dana"}\n');
    const env = { ...process.env, ...store.env, QRELS_STUDIO_CONFIG_DIR: scratchDir(), OPENAI_API_KEY: 'sk-test' };
    const steps: (string[] | (() => void))[] = [
      ['export', 'gen.assess', '--summary'],
      ['judge', 'gen.assess', '--allow-endpoint', server.baseURL],
      ['import', 'gen.assess', '--verdicts', 'verdicts.jsonl'],
      ['export', 'gen.assess', '--summary'],
      () => writeFileSync(join(root, 'items.jsonl'), items(true)),
      ['export', 'gen.assess', '--summary', '--json'],
      ['judge', 'gen.assess', '--allow-endpoint', server.baseURL],
      ['import', 'gen.assess', '--verdicts', 'verdicts.jsonl'],
      ['import', 'gen.assess', '--verdicts', 'dana.jsonl'],
      ['export', 'gen.assess', '--summary'],
      ['export', 'gen.assess'],
      ['export', 'gen.assess', '--review', 'out/again.jsonl'],
    ];
    const runs: Run[] = [];
    for (const step of steps) {
      if (typeof step === 'function') {
        step();
        continue;
      }
      const result = await runCliAsync(step, root, env);
      runs.push({
        command: step.join(' '),
        status: result.status,
        stdout: judgeClock(result.stdout),
        stderr: judgeClock(result.stderr),
      });
    }
    const outputs: Record<string, string> = {};
    for (const path of ['out/accepted.jsonl', 'out/again.jsonl']) {
      outputs[path] = clockTimes(readFileSync(join(root, path), 'utf8'));
    }
    results[kind] = { runs, files: outputs };
  }
  const sqlite = results.sqlite!;
  assert.ok(
    sqlite.runs.filter((r) => r.command.startsWith('import')).every((r) => r.status === 0),
    JSON.stringify(sqlite.runs),
  );
  for (const [i, run] of sqlite.runs.entries()) assert.deepEqual(results.postgres!.runs[i], run, run.command);
  assert.deepEqual(results.postgres!.files, sqlite.files);
});
