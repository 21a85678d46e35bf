// Version 11 (chunkParentIndex) in PostgreSQL: core/store/sqlite/migrations/011_chunkParentIndex.ts — only chunks
// (documents with a parent) are in the parent index.
export const chunkParentIndex = `
DROP INDEX document_by_parent;
CREATE INDEX document_by_parent ON document (study_id, parent_docid) WHERE parent_docid IS NOT NULL;
`;
