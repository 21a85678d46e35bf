// Version 7 (labelKind) in PostgreSQL: core/store/sqlite/migrations/007_labelKind.ts — who made an annotator's
// labels when declared (person, crowd, gold, llm); NULL when not declared.
export const labelKind = `
ALTER TABLE annotator ADD COLUMN label_kind text COLLATE "C" CHECK (label_kind IN ('person', 'crowd', 'gold', 'llm'));
`;
