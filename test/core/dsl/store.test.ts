// The file statement `store`: where every study of a file keeps its record (issue 21 item 2). Parse, positioned
// errors (line:col, what was expected, what was found), the model, hover, completion and the password warning.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveStudies } from '../../../core/dsl/model.ts';
import { parseStudyFile } from '../../../core/dsl/parser.ts';
import { completionsAt } from '../../../core/dsl/services/completion.ts';
import { formatStudyText } from '../../../core/dsl/services/format.ts';
import { hoverAt } from '../../../core/dsl/services/hover.ts';
import { formatRange } from '../../../core/dsl/textPosition.ts';
import { offsetOf, problems, studyWith } from './dslTestHelpers.ts';

/** "line:col-line:col code: message" of every syntax and semantic diagnostic. */
function explain(text: string): string[] {
  return problems(text).map((d) => `${formatRange(text, d.range)} ${d.code}: ${d.message}`);
}

test('store postgres "name" at the top level: every study of the file lives there', () => {
  const text = `store postgres "team-wqt"\n\n${studyWith()}`;
  assert.deepEqual(explain(text), []);
  const model = resolveStudies(parseStudyFile(text));
  assert.deepEqual(model.store, { kind: 'postgres', name: 'team-wqt' });
  assert.equal(model.studies.length, 1);
});

test('without a store statement, or with store sqlite, the store is SQLite', () => {
  assert.deepEqual(resolveStudies(parseStudyFile(studyWith())).store, { kind: 'sqlite' });
  const explicit = `store sqlite\n${studyWith()}`;
  assert.deepEqual(explain(explicit), []);
  assert.deepEqual(resolveStudies(parseStudyFile(explicit)).store, { kind: 'sqlite' });
  // The statement may also follow the blocks.
  assert.deepEqual(resolveStudies(parseStudyFile(`${studyWith()}store postgres "x"\n`)).store, {
    kind: 'postgres',
    name: 'x',
  });
});

test('store errors are positioned and say what was expected and what was found', () => {
  assert.deepEqual(explain(`store postgre "team"\n${studyWith()}`), [
    '1:7-1:14 unknown-value: expected the store kind (sqlite or postgres) after `store`, found `postgre`; did you mean `postgres`?',
  ]);
  assert.deepEqual(explain(`store mysql "team"\n${studyWith()}`), [
    '1:7-1:12 unknown-value: expected the store kind (sqlite or postgres) after `store`, found `mysql`',
  ]);
  assert.deepEqual(explain(`store postgres\n${studyWith()}`), [
    '1:7-1:15 unexpected-token: expected a string with the store name after `store postgres` (the connection each user configures, e.g. "team-wqt"), found the end of the line (a statement continues on the next line only after a `\\`)',
  ]);
  assert.deepEqual(explain(`store sqlite "x.db"\n${studyWith()}`), [
    '1:14-1:20 unexpected-token: expected the end of the line after `store sqlite` (the SQLite store is the file next to the study and takes no name), found "x.db"',
  ]);
  assert.deepEqual(
    explain(`stor postgres "x"\n${studyWith()}`).map((d) => d.replace(/\(valid.*\)/, '(…)')),
    ['1:1-1:5 unknown-keyword: unknown keyword `stor` at the top level of a study file (…); did you mean `store`?'],
  );
  assert.deepEqual(explain(studyWith('store postgres "x"')), [
    '9:3-9:8 unknown-keyword: `store` is a file statement, not valid in a study: write it at the top level of the file, outside every block (it applies to all of them)',
  ]);
  const misspelt = problems(`store postgre "team"\n${studyWith()}`)[0]!;
  assert.deepEqual(misspelt.fixes?.[0]?.edits, [{ range: { start: 6, end: 13 }, newText: 'postgres' }]);
});

test('a URL with a password anywhere in a study file is a warning, with a fix that removes the password', () => {
  const text = `store postgres "postgresql://alice:s3cret@db.example:5432/wqt"\n${studyWith()}`;
  const [warning, ...rest] = problems(text);
  assert.equal(rest.length, 0);
  assert.equal(warning!.code, 'store-password');
  assert.equal(warning!.severity, 'warning');
  assert.equal(text.slice(warning!.range.start, warning!.range.end), ':s3cret');
  assert.match(
    warning!.message,
    /^expected no password in a study file, found one in the URL `postgresql:\/\/alice:…@`/,
  );
  assert.deepEqual(warning!.fixes?.[0]?.edits, [{ range: warning!.range, newText: '' }]);
  // Without a password, or a user only: nothing to say.
  assert.deepEqual(explain(`store postgres "postgres://alice@db/wqt"\n${studyWith()}`), []);
  // In a judge endpoint too.
  const judge = studyWith('judge "m" { endpoint "https://u:pw@api.example/v1" }');
  assert.deepEqual(
    problems(judge).map((d) => d.code),
    ['store-password'],
  );
});

test('hover on store, postgres and sqlite shows the keyword table', () => {
  const text = `store postgres "team"\n${studyWith()}`;
  const parsed = parseStudyFile(text);
  assert.match(hoverAt(parsed, 1)!.markdown, /^\*\*store\*\* — file statement/);
  assert.match(hoverAt(parsed, offsetOf(text, 'postgres') + 1)!.markdown, /^\*\*postgres\*\* — store kind/);
  const sqlite = parseStudyFile('store sqlite\n');
  assert.match(hoverAt(sqlite, 8)!.markdown, /^\*\*sqlite\*\* — store kind/);
});

test('completion after store offers the store kinds', () => {
  const text = 'store ';
  assert.deepEqual(
    completionsAt(parseStudyFile(text), text.length).map((c) => c.label),
    ['sqlite', 'postgres'],
  );
  const typed = 'store po';
  const items = completionsAt(parseStudyFile(typed), typed.length);
  assert.ok(items.some((c) => c.label === 'postgres'));
});

test('formatting puts the store statement at the start of its line, words one space apart', () => {
  const text = `  store   postgres    "team"\n\n${studyWith()}`;
  assert.equal(formatStudyText(text), `store postgres "team"\n\n${formatStudyText(studyWith())}`);
});
