// What a command offers when it asks "choose a study": the studies of study files that lint without errors, on real
// files — a file with an error (a missing run to pool) or that cannot be read offers none and is named instead.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pickableStudies } from '../../../extension/studies/validStudies.ts';
import { scratchDir } from '../../helpers.ts';

const study = (name: string, extra = '') => `study "${name}" {
  queries "queries.jsonl" { id: qid  text: text }
  corpus  "corpus.jsonl"  { id: docid  body: body }
  scale ordinal { 0 "No" key "0"  1 "Yes" key "1" }
${extra}}
`;

test('only the studies of study files without errors are offered; the others are named', async () => {
  const folder = scratchDir();
  writeFileSync(join(folder, 'queries.jsonl'), '{"qid": "q1", "text": "solar panels"}\n');
  writeFileSync(join(folder, 'corpus.jsonl'), '{"docid": "d1", "body": "Solar panels turn light into power."}\n');
  const good = join(folder, 'good.assess');
  const broken = join(folder, 'broken.assess');
  const missing = join(folder, 'missing.assess');
  writeFileSync(good, study('dev') + study('test'));
  writeFileSync(broken, study('typo', '  pool "missing.run" depth 10\n'));
  const { studies, withErrors } = await pickableStudies([broken, good, missing]);
  assert.deepEqual(
    studies.map((s) => [s.studyFile, s.study]),
    [
      [good, 'dev'],
      [good, 'test'],
    ],
  );
  assert.deepEqual(withErrors, [broken, missing]);
});
