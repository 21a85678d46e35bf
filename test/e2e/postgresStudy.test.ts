// End to end in a real VS Code (code-server, the packaged .vsix): a study that lives on PostgreSQL. The study file
// says `store postgres "team"`; the user's settings.json names host, port, database and user of "team"; the password
// is set the way a user sets it, through "Qrels Studio: Set Store Password" in the palette (VS Code's secret
// storage), on a cluster of this test's own that asks passwords (scram-sha-256), so it matters: without it the
// Studies view says the database is unavailable. Opening the study imports its sources into PostgreSQL, the Label
// view labels pairs with the keyboard, and the labels are read back from PostgreSQL through the port. Then a second
// annotator, bob — a store of this test process, another connection to the server — labels other pairs, and the
// Studies view shows the changed progress within seconds (LISTEN/NOTIFY), without a reload.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import pg from 'pg';
import type { Frame, Page } from 'playwright-core';
import { parseStudyFile, resolveStudies } from '../../core/dsl/index.ts';
import { LabelSession } from '../../core/labelling/labelSession.ts';
import { openPostgresStore } from '../../core/store/openPostgresStore.ts';
import { type Cluster, startCluster } from '../pg/pgCluster.ts';
import { type CodeServer, runFromPalette, workbenchTest } from './codeServer.ts';

const studyText = `# A study on the team's PostgreSQL server: the connection is each user's (settings, secret storage).
store postgres "team"

study "pg-dev" {
  title "Is the document relevant to the query?"
  queries "queries.jsonl" { id: qid  text: query }
  corpus  "corpus.jsonl"  { id: doc_id  body: text  title: title }
  pool    "bm25.run" depth 4

  scale ordinal {
    0 "Not relevant"     key "0"
    1 "Relevant"         key "1"
    2 "Highly relevant"  key "2"
  }
}
`;

const queries = ['solar panel efficiency', 'heat pumps in winter', 'battery recycling'];
const qids = queries.map((_, i) => `q${i + 1}`);
/** Four documents per query (d1–d12), each titled by its id so that the Label view says which one it shows. */
const documents = qids.flatMap((qid, q) => [1, 2, 3, 4].map((k) => ({ doc_id: `d${q * 4 + k}`, qid, k })));
const pairs = documents.length;

const files: Record<string, string> = {
  'pg.assess': studyText,
  'queries.jsonl': queries.map((query, i) => `${JSON.stringify({ qid: qids[i], query })}\n`).join(''),
  'corpus.jsonl': documents
    .map((d) => `${JSON.stringify({ doc_id: d.doc_id, title: d.doc_id, text: `Passage ${d.k} about ${d.qid}.` })}\n`)
    .join(''),
  'bm25.run': documents.map((d) => `${d.qid} Q0 ${d.doc_id} ${d.k} ${10 - d.k} bm25\n`).join(''),
};

// The team's server: a cluster that asks every role its password. Alice's role owns the study's database.
const alicePassword = 'alice-secret-7f3q';
let cluster: Cluster | undefined;

before(async () => {
  cluster = await startCluster(tmpdir(), { auth: 'scram-sha-256' });
  const started = cluster;
  process.on('exit', () => started.stop());
  const admin = new pg.Client({
    host: cluster.host,
    port: cluster.port,
    user: cluster.user,
    password: cluster.password,
    database: 'postgres',
  });
  await admin.connect();
  try {
    await admin.query(`CREATE ROLE alice LOGIN PASSWORD '${alicePassword}'`);
    await admin.query('CREATE DATABASE team OWNER alice');
  } finally {
    await admin.end();
  }
});

after(() => cluster?.stop());

/** The "team" entry of the stores setting, as user `user` (alice's in code-server, the superuser's for bob). */
function teamSetting(user: string) {
  assert.ok(cluster, 'the cluster started');
  return { team: { host: cluster.host, port: cluster.port, database: 'team', user } };
}

/** The frame of the Label view's page (webviews live in nested iframes). */
async function labelFrame(page: Page, timeoutMs = 60_000): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const frame of page.frames()) {
      if (
        await frame
          .locator('[data-testid="pair"]')
          .count()
          .catch(() => 0)
      )
        return frame;
    }
    if (Date.now() > deadline) throw new Error('no Label view with a pair appeared');
    await page.waitForTimeout(250);
  }
}

/** Waits until the "Qrels Studio" output channel (its log file in code-server's user data) shows `pattern`. */
async function waitForOutput(server: CodeServer, pattern: RegExp, timeoutMs = 10_000): Promise<void> {
  const logs = join(server.userDataDir, 'logs');
  const read = (): string =>
    readdirSync(logs, { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('Qrels Studio.log'))
      .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
      .join('');
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(read())) {
    if (Date.now() > deadline) assert.fail(`the Qrels Studio output never said ${pattern}:\n${read().slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

workbenchTest(
  'a study on PostgreSQL: password set in the palette, labelled with the keyboard, stored on the server, others’ labels shown live',
  {
    files,
    open: { file: 'pg.assess', text: 'store postgres' },
    settings: { 'qrelsStudio.annotator': 'alice' },
    // `qrelsStudio.stores` is machine-overridable: code-server (a remote window) reads it from the machine's
    // settings ("Preferences: Open Remote Settings"), not from the browser side's user settings.
    machineSettings: () => ({ 'qrelsStudio.stores': teamSetting('alice') }),
    timeoutMs: 240_000,
  },
  async ({ page, server, folder }, t) => {
    await page.locator('.activitybar .action-item a[aria-label^="Qrels Studio"]').click();
    const studyRow = page.locator('.pane-body .monaco-list-row').filter({ hasText: 'pg-dev' }).first();
    // No password yet: the server refuses alice, and the Studies view says so (the log says why).
    await studyRow.filter({ hasText: 'database unavailable' }).waitFor({ timeout: 30_000 });
    await waitForOutput(server, /store "team": the server asks for the password of user alice and none was found/);

    // The password, as a user sets it: the palette command, the store named in the study file, a password box.
    await runFromPalette(page, '>Qrels Studio: Set Store Password', 'Qrels Studio: Set Store Password');
    await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'team' }).waitFor({ timeout: 10_000 });
    await page.keyboard.press('Enter');
    const passwordBox = page.locator('.quick-input-widget input[type="password"]');
    await passwordBox.waitFor({ timeout: 10_000 });
    await passwordBox.fill(alicePassword);
    await page.keyboard.press('Enter');
    await page
      .locator('.notifications-toasts', { hasText: 'the password of store "team" is stored' })
      .waitFor({ timeout: 10_000 });
    // The Studies view tries again with it at once: the server lets alice in, nothing is imported yet.
    await studyRow.filter({ hasText: 'not imported' }).waitFor({ timeout: 15_000 });

    // Opening the study connects with it, imports the study's sources into PostgreSQL and opens the Label view.
    const opened = Date.now();
    await studyRow.click();
    const frame = await labelFrame(page, 90_000);
    const position = () => frame.locator('[data-testid="position"]');
    const progress = () => frame.locator('[data-testid="progress"]');
    await position()
      .filter({ hasText: `pair 1 of ${pairs}` })
      .waitFor({ timeout: 15_000 });
    t.diagnostic(`Label view on the PostgreSQL study ${Date.now() - opened} ms after the click (import included)`);

    // Alice labels four pairs with the keys of the study's scale; the view moves on after each.
    await frame.locator('[data-testid="query-text"]').click(); // focus inside the webview: keys go to it
    const keys = [2, 0, 1, 2];
    const labelled: { qid: string; docid: string; label: number }[] = [];
    for (const [i, key] of keys.entries()) {
      const pair = frame.locator('[data-testid="pair"]');
      const qid = (await pair.getAttribute('data-qid')) ?? '';
      const docid = ((await frame.locator('[data-testid="doc-title"]').textContent()) ?? '').trim();
      labelled.push({ qid, docid, label: key });
      await page.keyboard.press(String(key));
      await progress()
        .filter({ hasText: `${i + 1} / ${pairs} judged` })
        .waitFor({ timeout: 15_000 });
      await position()
        .filter({ hasText: `pair ${i + 2} of ${pairs}` })
        .waitFor({ timeout: 15_000 });
    }
    assert.equal(new Set(labelled.map((l) => `${l.qid} ${l.docid}`)).size, keys.length, 'four different pairs');
    await page
      .locator('.statusbar-item', { hasText: `${keys.length} / ${pairs} judged by you` })
      .waitFor({ timeout: 10_000 });

    // On the server: alice's four labels, read through the port by another connection (the superuser's, as bob).
    const bobStore = await openPostgresStore('team', {
      settings: teamSetting(cluster!.user),
      secret: () => cluster!.password,
    });
    try {
      const stored = (await bobStore.exports.currentLabels('pg-dev'))
        .filter((row) => row.annotator === 'alice')
        .map(({ qid, docid, label }) => ({ qid, docid, label }));
      const byPair = (a: { qid: string; docid: string }, b: { qid: string; docid: string }) =>
        `${a.qid} ${a.docid}`.localeCompare(`${b.qid} ${b.docid}`);
      assert.deepEqual(stored.sort(byPair), [...labelled].sort(byPair), "alice's labels, stored in PostgreSQL");

      // The Studies view before bob: four pairs labelled by people, all alice's.
      await studyRow
        .filter({ hasText: `${keys.length} / ${pairs} judged by people · ${keys.length} / ${pairs} by you` })
        .waitFor({ timeout: 15_000 });

      // Bob, at another machine (here: this process), labels the last three pairs of his queue.
      const study = resolveStudies(parseStudyFile(studyText), `${folder}/pg.assess`).studies[0]!;
      const bob = await LabelSession.open(bobStore, { studyFile: `${folder}/pg.assess`, study, annotator: 'bob' });
      const { queue } = bob.state();
      for (const at of [pairs - 1, pairs - 2, pairs - 3]) {
        const pair = await bob.pairAt(at, queue.version, true);
        assert.ok(pair, `bob's queue has a pair at ${at}`);
        await bob.commit({ position: at, pairId: pair.pairId, label: 1, queueVersion: queue.version });
      }
      const committed = Date.now();

      // The Studies view in code-server shows bob's labels without a reload or a refresh.
      const people = keys.length + 3;
      await studyRow
        .filter({ hasText: `${people} / ${pairs} judged by people · ${keys.length} / ${pairs} by you` })
        .waitFor({ timeout: 10_000 });
      t.diagnostic(`the Studies view showed bob's labels ${Date.now() - committed} ms after his last commit`);
      // Alice's own count in the status bar is still hers.
      await page.locator('.statusbar-item', { hasText: `${keys.length} / ${pairs} judged by you` }).waitFor();
    } finally {
      await bobStore.close();
    }
  },
);
