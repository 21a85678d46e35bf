import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatStudyText } from '../../../../core/dsl/services/format.ts';
import { sketch } from '../dslTestHelpers.ts';

test('the sketch in canonical layout: one statement per line, aligned scale rows, comments kept', () => {
  const formatted = formatStudyText(sketch)!;
  assert.equal(
    formatted,
    `study "wqt-dev" {
  title "WQT dev — does the table satisfy the instruction?"
  guidelines "guidelines.md"
  queries "data/queries.jsonl" { id: qid  text: query  instruction: instruction }
  corpus "data/tables.jsonl" { id: table_id  body: table  format: markdown  title: caption }
  pool "runs/bm25.trec" depth 20
  pool "runs/e5.trec" depth 20

  scale ordinal {
    0 "Off-topic"  key "0"
    1 "Violates"   key "1"  "On topic, breaks the instruction"
    2 "Complies"   key "2"  "On topic and meets every constraint"
  }
  aspect topical "Is the table on the query's topic?"
  conditions from instruction  # optional per-condition checkboxes
  derive label = all(conditions) ? 2 : topical ? 1 : 0  # only declared names: aspects, conditions

  annotators alice bob carol
  overlap 2
  blind
  judge "gpt-4.1-mini" {
    endpoint "https://api.openai.com/v1"
    prompt "prompts/judge.md"
    temperature 0
    votes 3
  }
  agreement krippendorff ordinal target 0.67
  export qrels "qrels/wqt-dev.qrels" from adjudicated
}

review "instructions" {
  items "gen/instructions.jsonl" {
    id: iid
    text: instruction
    parent: qid
    type: type
    model: generator
  }
  taxonomy {
    C1 "Semantic boundary"
    C2 "Exclusive topic"
    S1 "Attribute-centric"
    S2 "Entity-centric"
    S3 "Granularity-centric"
  }
  rubric levels excellent acceptable poor {
    semantic_expansion
    semantic_consistency
    query_dependency
    constraint_abstraction
    category_focus
    internal_consistency
  }
  verdicts accept edit reject
}
`,
  );
  assert.equal(formatStudyText(formatted), formatted, 'formatting formatted text is a no-op');
});

test('messy layout: indentation, spacing and blank lines normalised; comments stay where they were', () => {
  const messy = [
    '# study of the dev set',
    '',
    '',
    'study   "s"{   # the study',
    'queries "q.jsonl"{id:qid text:q}',
    '      corpus "c.jsonl" {',
    '   id: did',
    '        # the body field',
    '   body: text }',
    'scale binary{ -2 "Junk" key "x" "spam"',
    '  1 "Relevant" key "1" }  # two values',
    '',
    '',
    '',
    'derive label=!(topical&&x)?1:-2',
    '}',
  ].join('\n');
  const formatted = formatStudyText(messy)!;
  assert.equal(
    formatted,
    [
      '# study of the dev set',
      '',
      'study "s" {  # the study',
      '  queries "q.jsonl" { id: qid  text: q }',
      '  corpus "c.jsonl" {',
      '    id: did',
      '    # the body field',
      '    body: text',
      '  }',
      '  scale binary {',
      '    -2 "Junk"      key "x"  "spam"',
      '     1 "Relevant"  key "1"',
      '  }  # two values',
      '',
      '  derive label = !(topical && x) ? 1 : -2',
      '}',
      '',
    ].join('\n'),
  );
  assert.equal(formatStudyText(formatted), formatted);
});

test('a comment inside a statement (within `( … )`) breaks the line and the statement continues indented', () => {
  const text = 'study "s" {\n  derive label = (topical  # on topic\n  && relevant) ? 1 : 0\n}\n';
  const formatted = formatStudyText(text)!;
  assert.equal(formatted, 'study "s" {\n  derive label = (topical  # on topic\n    && relevant) ? 1 : 0\n}\n');
  assert.equal(formatStudyText(formatted), formatted);
});

test('a `\\` that continues a statement stays at the end of its line; the rest goes one level deeper', () => {
  const text = 'study "s" {\n  annotators alice bob   \\\ncarol  dana\n  pool "r.trec" \\\n depth 5\n}\n';
  const formatted = formatStudyText(text)!;
  assert.equal(
    formatted,
    'study "s" {\n  annotators alice bob \\\n    carol dana\n  pool "r.trec" \\\n    depth 5\n}\n',
  );
  assert.equal(formatStudyText(formatted), formatted);
});

test('a `\\` before any other token is kept: the comment on the next line does not replace it (found by the token soup property)', () => {
  for (const text of ['\\\r\n#c\n', '\\\n#c\n']) {
    const formatted = formatStudyText(text)!;
    assert.equal(formatted, '\\\n#c\n');
    assert.equal(formatStudyText(formatted), formatted);
  }
});

test('text with syntax errors is not formatted; an empty text formats to empty', () => {
  assert.equal(formatStudyText('study "s" {\n  title\n}\n'), undefined);
  assert.equal(formatStudyText('study "s" {'), undefined);
  assert.equal(formatStudyText(''), '');
  assert.equal(formatStudyText('\n\n# c  \n\n'), '# c\n');
});

test('semantic errors do not stop formatting', () => {
  assert.equal(formatStudyText('study "s" { title "a"  title "b" }'), 'study "s" {\n  title "a"\n  title "b"\n}\n');
});
