// What the user is told: their files' and data's errors as their own positioned message, anything else undefined
// (logged with its stack by the caller); a study file's errors as line:col, the first three of them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lintStudyText, nodeStudyHost } from '../../../core/dsl/index.ts';
import { FormatError } from '../../../core/formats/formatError.ts';
import { FileReadError } from '../../../core/formats/lineReader.ts';
import { ImportError } from '../../../core/importers/types.ts';
import { ImportRequestError } from '../../../core/store/declaredImport.ts';
import { SchemaVersionError } from '../../../core/store/migrate.ts';
import { ImportCancelledError, StoreError } from '../../../core/store/studyDatabase.ts';
import { deserializeError, serializeError } from '../../../core/worker/workerErrors.ts';
import { studyErrorsMessage, userErrorMessage } from '../../../extension/studies/userError.ts';

test('errors about the user’s data are shown as their message; unexpected ones are not', () => {
  const known = [
    new StoreError("no study 'x' in db.sqlite (it has: s)"),
    new ImportError({ file: 'corpus.jsonl', line: 3, column: 7 }, 'a JSON object', '`[`'),
    new FormatError('run.trec', 2, 5, 'expected 6 fields'),
    new ImportRequestError('named twice', 'q.jsonl is named twice'),
    new ImportCancelledError(),
  ];
  for (const error of known) assert.equal(userErrorMessage(error), error.message);
  assert.equal(
    userErrorMessage(new ImportError({ file: 'corpus.jsonl', line: 3, column: 7 }, 'a JSON object', '`[`')),
    'corpus.jsonl:3:7: expected a JSON object, found `[`',
  );
  assert.equal(userErrorMessage(new TypeError("Cannot read properties of undefined (reading 'x')")), undefined);
  assert.equal(userErrorMessage('a string'), undefined);
  assert.match(userErrorMessage(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })) ?? '', /busy/);
});

test("a study file's errors: count, then the first three as line:col message", async () => {
  const text =
    'study "s" {\n  scale ordinal { 0 "No" key "j" }\n  bogus 1\n  annotators a a\n  derive label = nothing\n}\n';
  const errors = (await lintStudyText(text, '/tmp/s.assess', nodeStudyHost())).filter((d) => d.severity === 'error');
  assert.ok(errors.length > 3, `${errors.length} errors`);
  const message = studyErrorsMessage('s.assess', text, errors);
  assert.match(
    message,
    new RegExp(
      `^s\\.assess has ${errors.length} errors: fix them first — \\d+:\\d+ .+; \\d+:\\d+ .+; \\d+:\\d+ .+; and ${errors.length - 3} more$`,
    ),
  );
  assert.match(message, /2:\d+ /, 'the scale key on line 2');
  assert.equal(
    studyErrorsMessage('s.assess', 'x\nab', [{ range: { start: 4, end: 5 }, message: 'expected y' }]),
    's.assess has 1 error: fix them first — 2:3 expected y',
  );
});

test('errors from the store worker give the same message as in process (their class crosses the thread)', () => {
  const known = [
    new StoreError('x.sqlite is not a Qrels Studio database (not SQLite): move it away, then import again'),
    new SchemaVersionError(
      'this database has schema version 99, newer than this Qrels Studio knows (7): update Qrels Studio',
    ),
    new ImportError({ file: 'corpus.jsonl', line: 3, column: 7 }, 'a JSON object', '`[`'),
    new FormatError('run.trec', 2, 5, 'expected 6 fields'),
    new FileReadError('missing.jsonl', Object.assign(new Error('ENOENT'), { code: 'ENOENT' })),
    new ImportRequestError('named twice', 'q.jsonl is named twice'),
    new ImportCancelledError(),
  ];
  for (const error of known) {
    const crossed = deserializeError(structuredClone(serializeError(error)));
    assert.equal(crossed.constructor, error.constructor, error.name);
    assert.equal(userErrorMessage(crossed), userErrorMessage(error));
    assert.ok(userErrorMessage(crossed) !== undefined, error.message);
  }
  const crossed = deserializeError(serializeError(known[2]!));
  assert.deepEqual((crossed as ImportError).at, { file: 'corpus.jsonl', line: 3, column: 7 });
  assert.equal(userErrorMessage(deserializeError(serializeError(new TypeError('x is undefined')))), undefined);
});
