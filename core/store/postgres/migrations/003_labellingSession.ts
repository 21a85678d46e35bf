// Version 3 (labellingSession) in PostgreSQL: core/store/sqlite/migrations/003_labellingSession.ts — undo as a
// retraction, the current_judgment view that ignores retracted judgments, label cursors, suggestion confidence and
// the labelling indexes.
export const labellingSession = `
CREATE TABLE judgment_retraction (
  judgment_id  integer PRIMARY KEY REFERENCES judgment (id),
  retracted_at text COLLATE "C" NOT NULL
);

-- The current label of each (pair, annotator): the latest judgment that is not retracted. When every judgment an
-- annotator made of a pair is retracted, the pair is unlabelled for them.
DROP VIEW current_judgment;
CREATE VIEW current_judgment AS
SELECT j.*
FROM judgment AS j
WHERE NOT EXISTS (SELECT 1 FROM judgment_retraction AS r WHERE r.judgment_id = j.id)
  AND NOT EXISTS (
    SELECT 1 FROM judgment AS later
    WHERE later.pair_id = j.pair_id AND later.annotator_id = j.annotator_id
      AND (later.created_at > j.created_at OR (later.created_at = j.created_at AND later.id > j.id))
      AND NOT EXISTS (SELECT 1 FROM judgment_retraction AS r WHERE r.judgment_id = later.id)
  );

-- Where an annotator was in a study's queue: its order and filter, and the pair (not the position, which changes
-- when the queue is rebuilt). NULL pair: the start.
CREATE TABLE label_cursor (
  study_id        integer NOT NULL REFERENCES study (id),
  annotator_id    integer NOT NULL REFERENCES annotator (id),
  queue_order     text COLLATE "C" NOT NULL,
  unlabelled_only integer NOT NULL CHECK (unlabelled_only IN (0, 1)),
  pair_id         integer REFERENCES pair (id),
  updated_at      text COLLATE "C" NOT NULL,
  PRIMARY KEY (study_id, annotator_id)
);

-- Share of the judge's votes for the suggested label, 0–1; NULL when the judge did not vote.
ALTER TABLE suggestion ADD COLUMN confidence double precision CHECK (confidence BETWEEN 0 AND 1);

-- An annotator's assignment in pair order (their queue, their progress).
CREATE INDEX assignment_by_annotator ON assignment (annotator_id, pair_id);
-- The chunks of a parent document in document-id order (neighbouring chunks).
CREATE INDEX document_by_parent ON document (study_id, parent_docid);
`;
