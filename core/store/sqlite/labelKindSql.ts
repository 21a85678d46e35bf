// SQL the SQLite adapter's reads share about who made a label (core/store/labelKind.ts says what the kinds mean).

/** An annotator row's (alias `a`) label kind, declared or from its coarse kind: an LLM judge run, else a person. */
export function labelKindSql(alias = 'a'): string {
  return `coalesce(${alias}.label_kind, CASE ${alias}.kind WHEN 'llm' THEN 'judge' ELSE 'person' END)`;
}
