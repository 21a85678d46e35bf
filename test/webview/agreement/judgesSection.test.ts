// The Agreement view's Judges section in real headless Chromium, served by the real HostChannel with the extension's
// own handlers over a real SQLite study: two people label through LabelSessions, an LLM judge labels through the real
// judge run (core/judge/judgeStudy.ts, the real `openai` SDK against a server on 127.0.0.1 this test starts), and
// three pooled runs rank the systems. What is asserted is what a study lead sees of each judge: the gate (passed,
// failed with the failing condition and its numbers, or none declared), κ with its interval, accuracy, calibration
// (or why it is undefined), cost per 1,000 pairs, τ and τ_ap with the measure and the number of runs, the confusion
// matrix — each equal to what core computes, the confusion matrix also counted here from the record's labels.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { JudgeGateCondition } from '../../../core/dsl/model.ts';
import { createChatClient } from '../../../core/judge/chatClient.ts';
import { judgeStudy } from '../../../core/judge/judgeStudy.ts';
import { promptTemplate } from '../../../core/judge/promptTemplate.ts';
import { computeJudgeQualityReport } from '../../../core/judge/quality/judgeQualityReport.ts';
import type { JudgeQuality, JudgeQualityReport } from '../../../core/judge/quality/judgeQualityTypes.ts';
import type { LabelSession } from '../../../core/labelling/labelSession.ts';
import { type AgreementSource, agreementRequestHandlers } from '../../../extension/panels/agreementHandlers.ts';
import { fixed, percent } from '../../../webview/agreement/agreementFormat.ts';
import {
  costPer1000Text,
  gateCheckText,
  gateText,
  qualityText,
} from '../../../webview/agreement/judgeQualityFormat.ts';
import { type ChatBody, startOpenAiServer } from '../../core/judge/openAiServer.ts';
import { repoRoot } from '../../helpers.ts';
import { launchChromium } from '../chromium.ts';
import { createLabelStudy, type LabelStudy, simpleStudy } from '../label/labelStudy.ts';
import { type CountingServer, openWebview, startWebviewServer, webviewDistDir } from '../webviewHost.ts';

let browser: Browser;
let server: CountingServer;
const cleanups: (() => Promise<void> | void)[] = [];

before(async () => {
  assert.ok(
    existsSync(join(webviewDistDir, 'agreement.js')),
    'dist/webview/agreement.js is missing: build it first (`npm run build`; `npm test` does)',
  );
  browser = await launchChromium();
  server = await startWebviewServer();
});

after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await browser?.close();
  await server?.close();
});

const promptText = `Judge the document for the query.
Query: {{query}}
Document: {{document}}
Grades:
{{scale}}
Answer with a JSON object: {"rationale": "…", "label": N}.
`;
const prompt = { ...promptTemplate('prompts/judge.md', promptText), output: 'label' as const };

/** `d3-4` → its index in a simpleStudy of five documents a query: 2 × 5 + 3 = 13. */
const indexOf = (docid: string): number => {
  const [, q, d] = /^d(\d+)-(\d+)$/.exec(docid)!;
  return (Number(q) - 1) * 5 + Number(d) - 1;
};

/** The people's label of pair k: alice labels every pair, bob only q1's and agrees with her (no ties to break). */
const peopleLabel = (k: number): number => [0, 1, 2, 2, 0, 1, 0, 2, 1, 0][k % 10]!;

/** Runs ranking the same pairs in other orders: what the systems' ranking correlation is computed over. */
function runFile(tag: string, order: (docs: number[]) => number[]): string {
  let text = '';
  for (let q = 1; q <= 4; q++) {
    order([1, 2, 3, 4, 5]).forEach((d, i) => {
      text += `q${q} Q0 d${q}-${d} ${i + 1} ${(50 - i).toFixed(1)} ${tag}\n`;
    });
  }
  return text;
}

async function labelWith(
  opening: LabelSession | Promise<LabelSession>,
  label: (qid: string, docid: string) => number | undefined,
): Promise<void> {
  const session = await opening;
  const { queue } = session.state();
  for (let position = 0; position < queue.length; position++) {
    const version = session.state().queue.version;
    const pair = (await session.pairAt(position, version, false))!;
    const value = label(pair.query.qid, pair.document!.docid);
    if (value !== undefined) {
      await session.commit({ position, pairId: pair.pairId, label: value, queueVersion: version });
    }
  }
}

interface JudgedStudy extends LabelStudy {
  judgeName: string;
}

interface PeopleLabelledStudy extends LabelStudy {
  /** Runs the study's judge over every pair; its annotator name. */
  runJudge(): Promise<string>;
}

/**
 * Four queries of five documents, three pooled runs; alice and bob label; the judge `model` (three votes) labels
 * every pair through the real judge run, its votes decided by `vote(k, vote)`.
 */
async function judgedStudy(options: {
  model: string;
  votes: number;
  vote: (k: number, vote: number) => number;
  accept?: JudgeGateCondition[];
  /** Judge without a price for the model (its calls have no cost: "no price", not $0). */
  unpriced?: boolean;
}): Promise<JudgedStudy> {
  const labelled = await peopleLabelledStudy(options);
  return Object.assign(labelled, { judgeName: await labelled.runJudge() });
}

async function peopleLabelledStudy(options: {
  model: string;
  votes: number;
  vote: (k: number, vote: number) => number;
  accept?: JudgeGateCondition[];
  /** Judge without a price for the model (its calls have no cost: "no price", not $0). */
  unpriced?: boolean;
}): Promise<PeopleLabelledStudy> {
  const labelled = await createLabelStudy({
    ...simpleStudy(4, 5),
    files: {
      'reverse.run': runFile('reverse', (docs) => [...docs].reverse()),
      'middle.run': runFile('middle', (docs) => [docs[2]!, docs[0]!, docs[4]!, docs[1]!, docs[3]!]),
    },
    extra: [
      '  pool "reverse.run" depth 5',
      '  pool "middle.run" depth 5',
      '  annotators alice bob',
      `  judge ${JSON.stringify(options.model)} { endpoint "http://127.0.0.1:9/v1" votes ${options.votes} temperature 0.7 }`,
    ].join('\n'),
  });
  cleanups.push(() => labelled.close());
  // The gate as the judge block's `accept when …` gives it (the parser's shape, set on the model here).
  if (options.accept) labelled.study.judges[0]!.accept = options.accept;
  await labelWith(labelled.session('alice'), (_q, d) => peopleLabel(indexOf(d)));
  await labelWith(labelled.session('bob'), (q, d) => (q === 'q1' ? peopleLabel(indexOf(d)) : undefined));

  const runJudge = async (): Promise<string> => {
    const votesSeen = new Map<number, number>();
    const llm = await startOpenAiServer({
      respond: ({ body }) => {
        const k = pairIndex(body);
        const n = votesSeen.get(k) ?? 0;
        votesSeen.set(k, n + 1);
        return {
          content: JSON.stringify({ rationale: `pair ${k}`, label: options.vote(k, n) }),
          usage: { prompt_tokens: 100, completion_tokens: 10 },
        };
      },
    });
    cleanups.push(() => llm.close());
    const report = await judgeStudy(labelled.store, labelled.study, {
      concurrency: 4,
      client: createChatClient({ baseURL: llm.baseURL, apiKey: 'sk-test', maxAttempts: 1 }),
      prompt,
      prices: options.unpriced ? {} : { [options.model]: { inputPerMillion: 2, outputPerMillion: 8 } },
    });
    assert.equal(report.failures, 0);
    assert.equal(llm.requests(), 20 * options.votes);
    return report.judge;
  };
  return Object.assign(labelled, { runJudge });
}

/** The pair a request is about, from the rendered document ("Efficiency of panel D for query Q"). */
function pairIndex(body: ChatBody): number {
  const match = /panel (\d+) for query (\d+)/.exec(body.messages?.map((m) => m.content).join('\n') ?? '');
  assert.ok(match, 'a prompt holds its document');
  return (Number(match[2]) - 1) * 5 + Number(match[1]) - 1;
}

const sourceOf = (labelled: LabelStudy): (() => Promise<AgreementSource>) => {
  return async () => ({
    store: labelled.store,
    studyId: await labelled.store.studies.studyId(labelled.study.name),
    study: labelled.study,
    folder: labelled.folder,
  });
};

async function openJudges(labelled: LabelStudy) {
  const view = await openWebview(browser, server, {
    name: 'agreement',
    handlers: agreementRequestHandlers(sourceOf(labelled), { bootstrap: 200, seed: 7, onAdjudicate: async () => {} }),
    viewport: { width: 1280, height: 1400 },
  });
  cleanups.push(() => view.close());
  await view.page.locator('[data-testid="judge"]').first().waitFor({ timeout: 30_000 });
  return view;
}

/** The report the view was handed, as core computes it with the handlers' options. */
async function expectedReport(labelled: LabelStudy): Promise<JudgeQualityReport> {
  return computeJudgeQualityReport(labelled.store, labelled.studyId, labelled.study, labelled.folder, {
    bootstrap: { samples: 200, seed: 7, level: 0.95 },
  });
}

const stat = (page: Page, judge: string, name: string) =>
  page.locator(`${judgeCard(judge)} [data-testid="judge-stat"][data-stat="${name}"] td`);

/** A judge's block; its name is an attribute value quoted as CSS (and JSON) quote it: names may hold anything. */
const judgeCard = (judge: string): string => `[data-testid="judge"][data-judge=${JSON.stringify(judge)}]`;

/** The judge's statistics as the view shows them, and as they must read given core's numbers. */
async function assertShown(page: Page, quality: JudgeQuality, measure = 'map'): Promise<void> {
  const card = page.locator(judgeCard(quality.judge));
  assert.match(await stat(page, quality.judge, 'kappa').innerText(), new RegExp(`^${qualityText(quality.kappa)}`));
  if (quality.kappa.interval) {
    assert.match(
      await stat(page, quality.judge, 'kappa').innerText(),
      new RegExp(`95 % CI \\[${fixed(quality.kappa.interval[0])}, ${fixed(quality.kappa.interval[1])}\\]`),
    );
  }
  assert.match(
    await stat(page, quality.judge, 'accuracy').innerText(),
    new RegExp(`^${percent(quality.accuracy.value)}`),
  );
  assert.match(
    await stat(page, quality.judge, 'ece').innerText(),
    new RegExp(`^${regexEscape(qualityText(quality.calibration))}`),
  );
  assert.match(
    await stat(page, quality.judge, 'cost').innerText(),
    new RegExp(`^${regexEscape(costPer1000Text(quality.cost.costPer1000Pairs))}`),
  );
  assert.ok(quality.rankings, `rankings: ${quality.rankingsReason}`);
  assert.equal(await stat(page, quality.judge, 'tau').innerText(), qualityText(quality.rankings.tau));
  assert.equal(await stat(page, quality.judge, 'tau_ap').innerText(), qualityText(quality.rankings.tauAp));
  assert.match(await stat(page, quality.judge, 'rankings-basis').innerText(), new RegExp(`^${measure} over 3 runs`));
  assert.equal(await card.locator('[data-testid="judge-system"]').count(), 3);
  assert.match(
    await card.locator('[data-testid="judge-gate"]').innerText(),
    new RegExp(regexEscape(gateText(quality.gate))),
  );
  const cells = (await card.locator('[data-testid="judge-confusion-cell"]').allInnerTexts()).map(Number);
  assert.deepEqual(cells, quality.confusion.counts.flat());
}

const regexEscape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The people's label (alice's; bob agrees) against the judge's suggestion, counted from the record. */
async function countedConfusion(labelled: JudgedStudy): Promise<number[][]> {
  const suggestions = await labelled.store.judge.suggestions(labelled.studyId, labelled.judgeName);
  const counts = [0, 1, 2].map(() => [0, 0, 0]);
  for (const s of suggestions) counts[peopleLabel(indexOf(s.docid))]![s.label!]!++;
  return counts;
}

test('a judge that misses its gate: κ, accuracy, calibration, cost, τ and τ_ap, and the failing condition', {
  timeout: 120_000,
}, async () => {
  // Three votes: the judge agrees with the people except on every fourth pair, where two of its votes are off by one.
  const labelled = await judgedStudy({
    model: 'gpt-test',
    votes: 3,
    vote: (k, n) => (k % 4 === 0 && n < 2 ? (peopleLabel(k) + 1) % 3 : peopleLabel(k)),
    accept: [
      { metric: 'tau', operator: '>=', value: 0.9 },
      { metric: 'kappa', operator: '>=', value: 0.95 },
    ],
  });
  const view = await openJudges(labelled);
  const { page } = view;
  const report = await expectedReport(labelled);
  assert.equal(report.judges.length, 1);
  const quality = report.judges[0]!;
  assert.equal(quality.judge, labelled.judgeName);
  assert.equal(quality.sharedPairs, 20);
  assert.deepEqual(quality.confusion.counts, await countedConfusion(labelled));
  assert.equal(quality.gate.passed, false, 'κ < 0.95 with five pairs off');
  assert.equal(await page.locator('[data-testid="judge"]').getAttribute('data-gate'), 'failed');
  const failing = page.locator('[data-testid="gate-check"][data-passed="false"]');
  assert.deepEqual(
    await failing.allInnerTexts(),
    quality.gate.checks.filter((c) => !c.passed).map((c) => `✗ ${gateCheckText(c)}`),
  );
  assert.match(await failing.filter({ hasText: 'kappa' }).innerText(), /^✗ κ = \d\.\d{3} \(needs kappa >= 0\.95\)$/);
  await page
    .locator('[data-testid="judges"]')
    .screenshot({ path: join(repoRoot, 'test-output', 'screenshots', 'agreement-judges.png') });
  await assertShown(page, quality);
  // Accuracy: 15 of 20 pairs, computed here too.
  assert.match(await stat(page, labelled.judgeName, 'accuracy').innerText(), /^75\.0 % of 20 pairs/);
  // Cost: 60 calls of 100 + 10 tokens at $2 / $8 per million, over 20 pairs → per 1,000 pairs.
  assert.match(
    await stat(page, labelled.judgeName, 'cost').innerText(),
    /^\$0\.8400 per 1,000 pairs \(60 calls, 0 failures, 6,600 tokens\)$/,
  );
  assert.equal(
    quality.cost.costPer1000Pairs.value?.toFixed(6),
    (((60 * (100 * 2 + 10 * 8)) / 1e6 / 20) * 1000).toFixed(6),
  );
  assert.doesNotMatch(await page.locator('[data-testid="judges"]').innerText(), /NaN|Infinity|undefined(?!:)/);
  assert.deepEqual(await view.cspViolations(), []);
  assert.deepEqual(view.errors, []);
});

test('one vote per pair: calibration is "—" with why; no gate declared; no price is not $0; a judge name is shown as text', {
  timeout: 120_000,
}, async () => {
  const hostile = 'gpt-<img src=x onerror="window.pwned=1">';
  const labelled = await judgedStudy({ model: hostile, votes: 1, vote: (k) => peopleLabel(k), unpriced: true });
  const view = await openJudges(labelled);
  const { page } = view;
  const quality = (await expectedReport(labelled)).judges[0]!;
  assert.equal(quality.calibration.value, null);
  assert.match(await stat(page, labelled.judgeName, 'ece').innerText(), /^—: .+/);
  assert.equal(await page.locator('[data-testid="judge"]').getAttribute('data-gate'), 'none');
  assert.match(await page.locator('[data-testid="judge-gate"]').innerText(), /^· No gate declared/);
  // Judged with no price for the model: the cost is unknown with why, never "$0".
  assert.equal(quality.cost.pricedCalls, 0);
  assert.match(
    await stat(page, labelled.judgeName, 'cost').innerText(),
    /^—: no price for gpt-<img src=x onerror="window\.pwned=1">: none of its 20 calls was recorded with a cost .*\(20 calls, 0 failures, 2,200 tokens\)$/,
  );
  await assertShown(page, quality);
  // Agreeing everywhere: τ is 1, and the name is text, not markup.
  assert.equal(quality.rankings?.tau.value, 1);
  assert.match(
    await page.locator('[data-testid="judge"] h3').innerText(),
    /gpt-<img src=x onerror="window\.pwned=1">@/,
  );
  assert.equal(await page.locator('[data-testid="judges"] img').count(), 0);
  assert.equal(await page.evaluate(() => (window as { pwned?: number }).pwned), undefined);
  assert.deepEqual(await view.cspViolations(), []);
  assert.deepEqual(view.errors, []);
});

test('suggestions made after the view opened appear on the refresh event; a judge that passes its gate', {
  timeout: 120_000,
}, async () => {
  const labelled = await peopleLabelledStudy({
    model: 'gpt-test',
    votes: 1,
    vote: (k) => peopleLabel(k),
    accept: [
      { metric: 'tau', operator: '>=', value: 0.9 },
      { metric: 'kappa', operator: '>=', value: 0.6 },
    ],
  });
  const view = await openWebview(browser, server, {
    name: 'agreement',
    handlers: agreementRequestHandlers(sourceOf(labelled), { bootstrap: 200, onAdjudicate: async () => {} }),
  });
  cleanups.push(() => view.close());
  const { page } = view;
  await page.locator('[data-testid="no-judges"]').waitFor({ timeout: 30_000 });
  await labelled.runJudge();
  view.host.postEvent('agreement/refresh', {});
  await page.locator('[data-testid="judge"]').waitFor({ timeout: 30_000 });
  assert.equal(await page.locator('[data-testid="no-judges"]').count(), 0);
  assert.equal(await page.locator('[data-testid="judge"]').getAttribute('data-gate'), 'passed');
  assert.match(
    await page.locator('[data-testid="judge-gate"]').innerText(),
    /Gate passed: tau >= 0\.9 and kappa >= 0\.6/,
  );
  assert.equal(await page.locator('[data-testid="gate-check"][data-passed="true"]').count(), 2);
  assert.deepEqual(view.errors, []);
});

test('no judge yet: the section says so; a report the host cannot compute is an error with Try again', {
  timeout: 60_000,
}, async () => {
  const labelled = await createLabelStudy({ ...simpleStudy(2, 3), extra: '  annotators alice bob' });
  cleanups.push(() => labelled.close());
  await labelWith(labelled.session('alice'), () => 1);
  let broken = true;
  const source = sourceOf(labelled);
  const view = await openWebview(browser, server, {
    name: 'agreement',
    handlers: agreementRequestHandlers(
      async () => {
        const it = await source();
        return broken ? { ...it, folder: undefined } : it;
      },
      { bootstrap: 0, onAdjudicate: async () => {} },
    ),
  });
  cleanups.push(() => view.close());
  await view.page.locator('[data-testid="judges-error"]').waitFor({ timeout: 30_000 });
  broken = false;
  await view.page.locator('[data-testid="judges-retry"]').click();
  await view.page.locator('[data-testid="no-judges"]').waitFor({ timeout: 30_000 });
  assert.match(await view.page.locator('[data-testid="no-judges"]').innerText(), /No LLM judge has labelled/);
  assert.deepEqual(view.errors, []);
});

test('another measure ranks the systems again; a measure no ranking can use is an error, the last report kept', {
  timeout: 120_000,
}, async () => {
  const labelled = await judgedStudy({
    model: 'gpt-test',
    votes: 1,
    vote: (k) => (k % 3 === 0 ? (peopleLabel(k) + 1) % 3 : peopleLabel(k)),
  });
  const view = await openJudges(labelled);
  const { page } = view;
  const basis = stat(page, labelled.judgeName, 'rankings-basis');
  assert.match(await basis.innerText(), /^map over 3 runs/);
  assert.equal(await page.locator('[data-testid="judges-measure"]').inputValue(), 'map');

  await page.locator('[data-testid="judges-measure"]').fill('P.3');
  await page.locator('[data-testid="judges-measure"]').press('Enter');
  await basis.filter({ hasText: /^P\.3 over 3 runs/ }).waitFor({ timeout: 30_000 });
  const requests = view.received.filter((m) => (m as { kind: string }).kind === 'agreement/judges');
  assert.deepEqual((requests.at(-1) as { params: unknown }).params, { measure: 'P.3' });
  // What the view shows is core's report by P@3.
  const byP3 = await computeJudgeQualityReport(labelled.store, labelled.studyId, labelled.study, labelled.folder, {
    measure: 'P.3',
    bootstrap: { samples: 200, seed: 7, level: 0.95 },
  });
  await assertShown(page, byP3.judges[0]!, 'P.3');

  await page.locator('[data-testid="judges-measure"]').fill('no_such_measure');
  await page.locator('[data-testid="judges-rank"]').click();
  await page.locator('[data-testid="judges-error"]').waitFor({ timeout: 30_000 });
  assert.match(await page.locator('[data-testid="judges-error"]').innerText(), /no_such_measure/);
  assert.match(await basis.innerText(), /^P\.3 over 3 runs/, 'the last report stays');
  assert.deepEqual(view.errors, []);
});
