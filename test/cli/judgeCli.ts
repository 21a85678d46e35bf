// Shared by the judge CLI tests (judge, judgeBatch, judgeBudget, judgeResume, and the batch ones under
// test/core/judge/batch/): a small study of either store kind imported by the real CLI, the CLI's environment, and
// how a test server tells a request's document and answers it.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChatBody } from '../core/judge/openAiServer.ts';
import { scratchDir } from '../helpers.ts';
import type { CliStore } from './cliStore.ts';

/** The API key the test servers expect (never a real one). */
export const testApiKey = 'sk-test-secret-0123456789abcdef';

export interface JudgeStudyShape {
  queries?: number;
  perQuery?: number;
  /** The study's name; its file is `<study>.assess`. */
  study?: string;
  /** Documents have a title (T<n>) besides their body. */
  titles?: boolean;
}

/**
 * A study of `queries` × `perQuery` pairs (document n's text is "document number n", query q's "query q") with the
 * `judge` statement given, imported into `store`; returns its folder.
 */
export function judgeWorkspace(store: CliStore, judge: string, shape: JudgeStudyShape = {}): string {
  const { queries = 2, perQuery = 2, study = 'wqt', titles = false } = shape;
  const root = scratchDir();
  mkdirSync(join(root, 'data'));
  mkdirSync(join(root, 'runs'));
  store.writeStudy(
    join(root, `${study}.assess`),
    `study "${study}" {
  queries "data/queries.jsonl" { id: qid  text: query }
  corpus  "data/corpus.jsonl"  { id: _id  body: text${titles ? '  title: title' : ''} }
  pool    "runs/bm25.trec" depth ${perQuery}
  scale ordinal { 0 "No" key "0"  1 "Partly" key "1"  2 "Yes" key "2" }
  ${judge}
}
`,
  );
  const lines = (n: number, line: (i: number) => string) =>
    `${Array.from({ length: n }, (_, i) => line(i + 1)).join('\n')}\n`;
  writeFileSync(
    join(root, 'data', 'queries.jsonl'),
    lines(queries, (q) => JSON.stringify({ qid: `q${q}`, query: `query ${q}` })),
  );
  writeFileSync(
    join(root, 'data', 'corpus.jsonl'),
    lines(queries * perQuery, (d) =>
      JSON.stringify({ _id: `d${d}`, ...(titles && { title: `T${d}` }), text: `document number ${d}` }),
    ),
  );
  writeFileSync(
    join(root, 'runs', 'bm25.trec'),
    lines(queries * perQuery, (i) => {
      const q = Math.ceil(i / perQuery);
      const rank = i - (q - 1) * perQuery;
      return `q${q} Q0 d${i} ${rank} ${100 - rank} bm25`;
    }),
  );
  const imported = store.cli(['import', `${study}.assess`], { cwd: root });
  assert.equal(imported.status, 0, imported.stderr);
  return root;
}

/**
 * The CLI's environment: where the store is, an approval store (`config`, a scratch folder unless given), `extra`,
 * and no key or endpoint from the outside unless `extra` sets them.
 */
export function judgeEnvironment(
  store: CliStore,
  extra: Record<string, string> = {},
  config = scratchDir(),
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...store.env, QRELS_STUDIO_CONFIG_DIR: config, ...extra };
  for (const name of ['OPENAI_API_KEY', 'OPENAI_BASE_URL']) if (!(name in extra)) delete env[name];
  return env;
}

/** Document n of a request (its prompt says "document number n"). */
export const documentOf = (body: ChatBody): number =>
  Number(/document number (\d+)/.exec((body.messages ?? []).map((m) => m.content).join('\n'))?.[1]);

/** A judge's answer with `label`. */
export const labelAnswer = (label: number) => JSON.stringify({ rationale: 'because', label });
