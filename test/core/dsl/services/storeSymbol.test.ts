// The `store` statement in a study file's outline (issue 21): where the file's record lives, before the studies,
// its name selected; a file without one has no store symbol.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseStudyFile } from '../../../../core/dsl/parser.ts';
import { documentSymbols } from '../../../../core/dsl/services/documentSymbols.ts';

const study = `study "wqt" {
  scale ordinal { 0 "No" key "0"  1 "Yes" key "1" }
}
`;

test('store postgres "name" is a symbol of the outline, before the studies, its name selected', () => {
  const text = `store postgres "team-wqt"\n${study}`;
  const symbols = documentSymbols(parseStudyFile(text));
  assert.deepEqual(
    symbols.map((s) => [s.kind, s.name, s.detail]),
    [
      ['store', 'store', 'postgres "team-wqt"'],
      ['study', 'wqt', 'study'],
    ],
  );
  const store = symbols[0]!;
  assert.equal(text.slice(store.range.start, store.range.end), 'store postgres "team-wqt"');
  assert.equal(text.slice(store.selectionRange.start, store.selectionRange.end), '"team-wqt"');
});

test('store sqlite, a store after the study, and none', () => {
  const sqlite = documentSymbols(parseStudyFile(`store sqlite\n${study}`));
  assert.deepEqual(
    sqlite.map((s) => [s.kind, s.detail]),
    [
      ['store', 'sqlite'],
      ['study', 'study'],
    ],
  );
  const after = documentSymbols(parseStudyFile(`${study}store postgres "later"\n`));
  assert.deepEqual(
    after.map((s) => s.kind),
    ['study', 'store'],
  );
  assert.deepEqual(
    documentSymbols(parseStudyFile(study)).map((s) => s.kind),
    ['study'],
  );
});
