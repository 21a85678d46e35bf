// Shared by the DSL tests: the DESIGN.md sketch, a minimal valid study to break one statement at a time, and
// diagnostics as compact exact strings ("line:col-line:col code").
import { checkStudyFile } from '../../../core/dsl/lint.ts';
import { parseStudyFile } from '../../../core/dsl/parser.ts';
import { formatRange } from '../../../core/dsl/textPosition.ts';
import type { DslDiagnostic } from '../../../core/dsl/types.ts';

/** The sketch from DESIGN.md ("The task DSL"), verbatim. */
export const sketch = `study "wqt-dev" {
  title "WQT dev — does the table satisfy the instruction?"
  guidelines "guidelines.md"
  queries "data/queries.jsonl" { id: qid  text: query  instruction: instruction }
  corpus  "data/tables.jsonl"  { id: table_id  body: table  format: markdown  title: caption }
  pool    "runs/bm25.trec" depth 20
  pool    "runs/e5.trec"   depth 20

  scale ordinal {
    0 "Off-topic"  key "0"
    1 "Violates"   key "1"  "On topic, breaks the instruction"
    2 "Complies"   key "2"  "On topic and meets every constraint"
  }
  aspect topical "Is the table on the query's topic?"
  conditions from instruction          # optional per-condition checkboxes
  derive label = all(conditions) ? 2 : topical ? 1 : 0   # only declared names: aspects, conditions

  annotators alice bob carol  overlap 2  blind
  judge "gpt-4.1-mini" { endpoint "https://api.openai.com/v1"  prompt "prompts/judge.md"  temperature 0  votes 3 }
  agreement krippendorff ordinal  target 0.67
  export qrels "qrels/wqt-dev.qrels" from adjudicated
}

review "instructions" {
  items "gen/instructions.jsonl" { id: iid  text: instruction  parent: qid  type: type  model: generator }
  taxonomy { C1 "Semantic boundary"  C2 "Exclusive topic"  S1 "Attribute-centric"  S2 "Entity-centric"  S3 "Granularity-centric" }
  rubric levels excellent acceptable poor { semantic_expansion  semantic_consistency  query_dependency
                                            constraint_abstraction  category_focus  internal_consistency }
  verdicts accept edit reject
}
`;

/**
 * A valid study with `lines` added after its scale (they start on line 9, indented by two spaces). Lines 1–8:
 * header, queries, corpus, scale (0 No, 1 Yes), aspect topical.
 */
export function studyWith(...lines: string[]): string {
  return [
    'study "s" {',
    '  queries "q.jsonl" { id: qid  text: query }',
    '  corpus "c.jsonl" { id: did  body: text }',
    '  scale ordinal {',
    '    0 "No" key "0"',
    '    1 "Yes" key "1"',
    '  }',
    '  aspect topical "On topic?"',
    ...lines.map((line) => `  ${line}`),
    '}',
    '',
  ].join('\n');
}

/** Syntax and semantic diagnostics of `text`, in text order. */
export function problems(text: string): DslDiagnostic[] {
  const parsed = parseStudyFile(text);
  return [...parsed.diagnostics, ...checkStudyFile(parsed)].sort(
    (a, b) => a.range.start - b.range.start || a.range.end - b.range.end || a.code.localeCompare(b.code),
  );
}

/** "line:col-line:col code" of every syntax and semantic diagnostic. */
export function diagnose(text: string): string[] {
  return problems(text).map((d) => `${formatRange(text, d.range)} ${d.code}`);
}

/** The offset of the `nth` (0-based) occurrence of `needle` in `text`, plus `delta`; throws when absent. */
export function offsetOf(text: string, needle: string, delta = 0, nth = 0): number {
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = text.indexOf(needle, at + 1);
    if (at === -1) throw new Error(`${JSON.stringify(needle)} not in the text`);
  }
  return at + delta;
}
