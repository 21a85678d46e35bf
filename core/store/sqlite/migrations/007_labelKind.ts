// Who made an annotator's labels when declared (`import qrels … kind gold`): a person, a crowd worker, gold (the
// reference) or an LLM's labels imported from a file. NULL: not declared, so the coarse `kind` says (human: a person,
// llm: an LLM judge run by the tool) — every place that adds an annotator keeps working unchanged. core/store/labelKind.ts
// reads the two together.
export const labelKind = `
ALTER TABLE annotator ADD COLUMN label_kind TEXT CHECK (label_kind IN ('person', 'crowd', 'gold', 'llm'));
`;
