// The study-level reads of the port through the store's worker give what they give in process: a study's progress,
// its query ids, a pooled run's documents missing from the corpus (the import's warning), the corpus kind the judge
// is told, and the export files (qrels, label file, history, answers) byte for byte.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseStudyFile, resolveStudies } from '../../../core/dsl/index.ts';
import { storedCorpusKind } from '../../../core/store/corpusKind.ts';
import { poolWarnings, studyQueryIds } from '../../../core/store/runCoverage.ts';
import { SqliteStudyStore } from '../../../core/store/sqlite/sqliteStudyStore.ts';
import { locateNativeBinding } from '../../../core/store/sqliteDatabase.ts';
import {
  exportAnswers,
  exportJudgmentsJsonl,
  exportLabels,
  exportLabelsWithAnswers,
  exportQrels,
} from '../../../core/store/studyExports.ts';
import { studyProgress } from '../../../core/store/studyProgress.ts';
import type { StudyStore } from '../../../core/store/studyStore.ts';
import { openWorkerStudyStore } from '../../../core/worker/workerStudyStore.ts';
import { nativeDir, repoRoot, scratchDir } from '../../helpers.ts';

const nativeBinding = locateNativeBinding(nativeDir);
const workerScript = join(repoRoot, 'core', 'worker', 'studyWorker.ts');

test('progress, query ids, pool warnings, corpus kind and exports read the same through the worker', async () => {
  const folder = scratchDir();
  writeFileSync(join(folder, 'q.jsonl'), '{"qid":"q1","query":"solar"}\n{"qid":"q2","query":"wind"}\n');
  writeFileSync(
    join(folder, 'c.jsonl'),
    ['d1', 'd2', 'd3'].map((docid) => `{"docid":"${docid}","text":"| a | b |\\n|---|---|\\n| 1 | 2 |"}`).join('\n'),
  );
  writeFileSync(join(folder, 'run.trec'), 'q1 Q0 d1 1 3 r\nq1 Q0 d2 2 2 r\nq2 Q0 d3 1 3 r\nq2 Q0 x9 2 2 r\n');
  const model = resolveStudies(
    parseStudyFile(`study "s" {
  queries "q.jsonl" { id: qid  text: query }
  corpus  "c.jsonl" { id: docid  body: text  format: markdown }
  pool    "run.trec" depth 2
  scale ordinal { 0 "No" key "0"  1 "Yes" key "1"  2 "Very" key "2" }
  annotators alice bob
}
`),
    join(folder, 's.assess'),
  );
  const file = join(folder, 'study.sqlite');
  const worker = await openWorkerStudyStore(file, { nativeBinding, workerScript });
  const local = await SqliteStudyStore.open(file, { nativeBinding });
  try {
    await worker.studies.sync(model);
    const report = await worker.jobs.importDeclared({ importId: 'i', study: model.studies[0]!, folder });
    for (const [qid, docid, annotator, label] of [
      ['q1', 'd1', 'alice', 2],
      ['q1', 'd1', 'alice', 1],
      ['q1', 'd2', 'bob', 0],
      ['q2', 'd3', 'alice', 2],
    ] as const) {
      await worker.labels.addJudgment({ study: 's', qid, docid, annotator, label, source: 'manual' });
    }
    const reads = async (store: StudyStore, tag: string) => {
      const out = (name: string) => join(folder, `${tag}-${name}`);
      const studyId = await store.studies.studyId('s');
      const graded = new Set<string>();
      const lines = [
        await exportQrels(store, studyId, 'annotator:alice', out('alice.qrels')),
        await exportLabels(store, studyId, out('labels.csv')),
        await exportLabelsWithAnswers(store, studyId, out('answers.csv'), graded),
        await exportJudgmentsJsonl(store, studyId, out('history.jsonl'), graded),
        await exportAnswers(store, studyId, out('answers.jsonl'), graded),
      ];
      return {
        progress: await studyProgress(store, 's'),
        queryIds: [...(await studyQueryIds(store, 's'))].sort(),
        warnings: await poolWarnings(store, 's', report.pools),
        corpusKind: await storedCorpusKind(store, 's'),
        imported: await store.studies.hasImported('s'),
        lines,
        files: ['alice.qrels', 'labels.csv', 'answers.csv', 'history.jsonl', 'answers.jsonl'].map((name) =>
          readFileSync(out(name), 'utf8'),
        ),
      };
    };
    const throughWorker = await reads(worker, 'worker');
    assert.deepEqual(throughWorker, await reads(local, 'local'));
    assert.equal(throughWorker.progress.pairs, 4);
    assert.deepEqual(
      throughWorker.progress.annotators.map((a) => [a.name, a.judged]),
      [
        ['alice', 2],
        ['bob', 1],
      ],
    );
    assert.deepEqual(throughWorker.queryIds, ['q1', 'q2']);
    assert.equal(throughWorker.warnings.length, 1);
    assert.match(throughWorker.warnings[0]!, /run\.trec/);
    assert.equal(throughWorker.corpusKind, 'tables');
    assert.deepEqual(throughWorker.lines, [2, 3, 3, 4, 3]);
  } finally {
    await local.close();
    await worker.close();
  }
});
