import type { Migration } from './migration.ts';

// Who made an annotator's labels when declared (`import qrels … kind gold`): a person, a crowd worker, gold (the
// reference) or an LLM's labels imported from a file. NULL: not declared, so the coarse `kind` says (human: a person,
// llm: an LLM judge run by the tool) — every place that adds an annotator keeps working unchanged. core/store/labelKind.ts
// reads the two together.
export const labelKind: Migration = {
  version: 7,
  description: 'annotator: label_kind, who made the labels when declared (person, crowd, gold, llm)',
  sql: `
ALTER TABLE annotator ADD COLUMN label_kind TEXT CHECK (label_kind IN ('person', 'crowd', 'gold', 'llm'));
`,
};
