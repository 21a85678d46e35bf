// The prompt a study's judge sends (a study on either store kind), from what the study declares and what its documents are, end to end: files
// imported as the study declares them, the default prompt chosen (loadJudgePrompt with the stored corpus kind),
// judged through the real `openai` SDK against the 127.0.0.1 test server, and the prompt the server received read
// back. A CRUMB-style task (Markdown chunks, an instruction, three grades) is judged as a document; TARGET-style
// JSON tables and FollowTable-style HTML tables reach the model as Markdown tables with their context.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseStudyFile, resolveStudies } from '../../../core/dsl/index.ts';
import { createChatClient } from '../../../core/judge/chatClient.ts';
import { loadJudgePrompt } from '../../../core/judge/judgePrompt.ts';
import { judgeStudy } from '../../../core/judge/judgeStudy.ts';
import { storedCorpusKind } from '../../../core/store/corpusKind.ts';
import { importDeclaredSources } from '../../../core/store/declaredImport.ts';
import { studyDatabasePath } from '../../../core/store/studyDatabase.ts';
import { scratchDir } from '../../helpers.ts';
import { openTestStore, type StoreKind, storeKinds } from '../../storeKinds.ts';
import { startOpenAiServer } from './openAiServer.ts';

const jsonl = (records: object[]) => records.map((r) => `${JSON.stringify(r)}\n`).join('');

/** The study in `text` written with `files`, synced, its declared sources imported; judged once per pair. */
async function promptsSent(
  text: string,
  files: Record<string, string>,
  kind: StoreKind,
): Promise<{ name: string; prompts: string[] }> {
  const folder = scratchDir('qrels-studio-judge-prompt-');
  mkdirSync(folder, { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(join(folder, name), content);
  const studyFile = join(folder, 's.assess');
  writeFileSync(studyFile, text);
  const model = resolveStudies(parseStudyFile(text), studyFile);
  const study = model.studies[0]!;
  const store = await openTestStore(kind, { file: studyDatabasePath(studyFile) });
  const server = await startOpenAiServer({
    respond: () => ({ content: JSON.stringify({ rationale: 'read it', label: 1 }) }),
  });
  try {
    await store.studies.sync(model);
    await importDeclaredSources(store, study, folder);
    const prompt = await loadJudgePrompt(
      study,
      study.judges[0]!,
      folder,
      folder,
      await storedCorpusKind(store, study.name),
    );
    const client = createChatClient({ baseURL: server.baseURL, apiKey: 'sk-test', maxAttempts: 1 });
    const report = await judgeStudy(store, study, { concurrency: 1, client, prompt, prices: {} });
    assert.equal(report.suggestions, report.pairs, 'every pair answered');
    return { name: prompt.name, prompts: server.bodies().map((b) => b.messages![0]!.content) };
  } finally {
    await store.close();
    await server.close();
  }
}

const threeGrades = `  scale ordinal {
    0 "Not relevant" key "0"
    1 "Excluded"     key "1"  "The patient would be excluded from the trial"
    2 "Eligible"     key "2"  "The patient is eligible for the trial"
  }`;

for (const kind of storeKinds)
  test(`a CRUMB clinical task with an instruction and three grades is judged as a document (${kind})`, async () => {
    const { name, prompts } = await promptsSent(
      `study "crumb-clinical" {
  queries "queries.jsonl" { id: qid  text: query  instruction: instruction }
  corpus  "chunks.jsonl"  { id: chunk_id  body: text  title: title  format: markdown }
  pool    "run.trec" depth 1
${threeGrades}
  judge "judge-m" { endpoint "http://127.0.0.1" }
}
`,
      {
        'queries.jsonl': jsonl([
          {
            qid: 'c1',
            query: 'Patient is a 45-year-old man with anaplastic astrocytoma of the spine.',
            instruction: 'Find clinical trials this patient would be eligible for.',
          },
        ]),
        'chunks.jsonl': jsonl([
          {
            chunk_id: 'NCT01#0',
            title: 'Temozolomide for spinal astrocytoma',
            text: '# Eligibility\n\n- Age 18 to 65\n- Histologically confirmed astrocytoma',
          },
        ]),
        'run.trec': 'c1 Q0 NCT01#0 1 9.5 bm25\n',
      },
      kind,
    );
    assert.equal(name, 'default:instruction-relevance');
    assert.equal(prompts.length, 1);
    const sent = prompts[0]!;
    assert.match(sent, /^# Relevance assessment with an instruction/);
    assert.match(sent, /## Instruction\n\nFind clinical trials this patient would be eligible for\./);
    assert.match(sent, /Title: Temozolomide for spinal astrocytoma\n\n# Eligibility\n\n- Age 18 to 65/);
    assert.match(sent, /1 = Excluded: The patient would be excluded from the trial/);
    assert.doesNotMatch(sent, /table/i);
  });

for (const kind of storeKinds)
  test(`FollowTable HTML tables reach the table judge as Markdown, a two-row header made one (${kind})`, async () => {
    const { name, prompts } = await promptsSent(
      `study "wqt-html" {
  queries "queries.jsonl" { id: qid  text: query  instruction: instruction }
  corpus  "tables.jsonl"  { id: table_id  body: table  title: caption  format: html }
  pool    "run.trec" depth 1
  scale ordinal {
    0 "Off-topic"  key "0"
    1 "Violates"   key "1"
    2 "Complies"   key "2"
  }
  judge "judge-m" { endpoint "http://127.0.0.1" }
}
`,
      {
        'queries.jsonl': jsonl([
          { qid: 't1', query: 'medal tables', instruction: 'Gold, silver and bronze given separately.' },
        ]),
        'tables.jsonl': jsonl([
          {
            table_id: 'html-olympics-2016',
            caption: '2016 Summer Olympics medal table',
            table:
              '<table><thead><tr><th rowspan="2">Nation</th><th colspan="3">Medals</th></tr><tr><th>Gold</th>' +
              '<th>Silver</th><th>Bronze</th></tr></thead><tbody><tr><td>United States</td><td>46</td><td>37</td>' +
              '<td>38</td></tr></tbody></table>',
          },
        ]),
        'run.trec': 't1 Q0 html-olympics-2016 1 9.5 bm25\n',
      },
      kind,
    );
    assert.equal(name, 'default:instruction-following');
    assert.match(
      prompts[0]!,
      /Title: 2016 Summer Olympics medal table\n\n\| Nation \| Medals \/ Gold \| Medals \/ Silver \| Medals \/ Bronze \|\n\|---\|---\|---\|---\|\n\| United States \| 46 \| 37 \| 38 \|\n/,
    );
    assert.doesNotMatch(prompts[0]!, /<table>/);
  });

for (const kind of storeKinds)
  test(`TARGET JSON tables reach the table judge as Markdown with their database and keys (${kind})`, async () => {
    const { name, prompts } = await promptsSent(
      `study "target-spider" {
  queries "queries.jsonl" { id: query_id  text: query }
  corpus  "corpus.jsonl"  { id: table_id  body: table  title: table_name  database: database_id  keys: context  format: json }
  pool    "run.trec" depth 1
  scale binary {
    0 "Not relevant" key "0"
    1 "Relevant"     key "1"
  }
  judge "judge-m" { endpoint "http://127.0.0.1" }
}
`,
      {
        'queries.jsonl': jsonl([{ query_id: 's1', query: 'How many singers are there?' }]),
        'corpus.jsonl': jsonl([
          {
            table_id: 'concert_singer#singer',
            table_name: 'singer',
            database_id: 'concert_singer',
            context: { primary_key: ['Singer_ID'] },
            table: [
              ['Singer_ID', 'Name', 'Country'],
              [1, 'Joe Sharp', 'Netherlands'],
            ],
          },
        ]),
        'run.trec': 's1 Q0 concert_singer#singer 1 9.5 dense\n',
      },
      kind,
    );
    assert.equal(name, 'default:table-relevance');
    assert.match(
      prompts[0]!,
      /Title: singer\n\nDatabase: concert_singer\nKeys: \{"primary_key":\["Singer_ID"\]\}\n\n\| Singer_ID \| Name \| Country \|\n\|---\|---\|---\|\n\| 1 \| Joe Sharp \| Netherlands \|\n/,
    );
  });
