// Version 8 (labelCommitIds) in PostgreSQL: core/store/sqlite/migrations/008_labelCommitIds.ts — a label commit's own
// id, so that a commit sent again after its reply was lost answers with the judgment already stored. The
// current_judgment view is defined again (as version 3 did): PostgreSQL fixes a view's `j.*` when it is created,
// SQLite reads it when the view is used, and both views have the judgment's columns.
export const labelCommitIds = `
ALTER TABLE judgment ADD COLUMN client_id text COLLATE "C";
CREATE UNIQUE INDEX judgment_by_client_id ON judgment (client_id);

CREATE OR REPLACE VIEW current_judgment AS
SELECT j.*
FROM judgment AS j
WHERE NOT EXISTS (SELECT 1 FROM judgment_retraction AS r WHERE r.judgment_id = j.id)
  AND NOT EXISTS (
    SELECT 1 FROM judgment AS later
    WHERE later.pair_id = j.pair_id AND later.annotator_id = j.annotator_id
      AND (later.created_at > j.created_at OR (later.created_at = j.created_at AND later.id > j.id))
      AND NOT EXISTS (SELECT 1 FROM judgment_retraction AS r WHERE r.judgment_id = later.id)
  );
`;
