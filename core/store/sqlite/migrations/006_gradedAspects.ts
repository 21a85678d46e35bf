// A graded aspect (`aspect coverage "…" levels 0 1 2`) is answered with its level, not only yes/no: the answer
// column loses its 0/1 check (the study's levels are the labelling session's to check, as the scale is for labels).
// SQLite cannot drop a CHECK, so the table is rebuilt; a yes/no aspect's answers stay 1 and 0.
export const gradedAspects = `
CREATE TABLE aspect_judgment_graded (
  judgment_id INTEGER NOT NULL REFERENCES judgment (id),
  aspect      TEXT NOT NULL,
  -- 1/0 for a yes/no aspect, the level for a graded one.
  answer      INTEGER NOT NULL,
  PRIMARY KEY (judgment_id, aspect)
) WITHOUT ROWID;
INSERT INTO aspect_judgment_graded (judgment_id, aspect, answer) SELECT judgment_id, aspect, answer FROM aspect_judgment;
DROP TABLE aspect_judgment;
ALTER TABLE aspect_judgment_graded RENAME TO aspect_judgment;
`;
