// Version 6 (gradedAspects) in PostgreSQL: core/store/sqlite/migrations/006_gradedAspects.ts — an aspect's answer is
// 1/0 for a yes/no aspect or the level of a graded one, so its 0/1 check goes (PostgreSQL drops it in place).
export const gradedAspects = `
ALTER TABLE aspect_judgment DROP CONSTRAINT aspect_judgment_answer_check;
`;
