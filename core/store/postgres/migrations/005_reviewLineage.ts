// Version 5 (reviewLineage) in PostgreSQL: core/store/sqlite/migrations/005_reviewLineage.ts — the version an edit
// was based on (filled in for edits stored before), verdicts indexed by version, an item's table set.
export const reviewLineage = `
ALTER TABLE review_item_version ADD COLUMN based_on integer REFERENCES review_item_version (id);
CREATE INDEX review_version_by_item ON review_item_version (item_id);
CREATE INDEX review_verdict_by_version ON review_verdict (version_id);

UPDATE review_item_version AS v SET based_on = (
  SELECT d.version_id FROM review_item_version AS base
  JOIN review_verdict AS d ON d.version_id = base.id JOIN annotator AS a ON a.id = d.annotator_id
  WHERE base.item_id = v.item_id AND base.id < v.id
    AND d.verdict = 'edit' AND a.name = v.author AND d.created_at = v.created_at
  ORDER BY d.id DESC LIMIT 1
);

CREATE TABLE review_table (
  item_id  integer NOT NULL REFERENCES review_item (id),
  docid    text COLLATE "C" NOT NULL,
  label    integer NOT NULL,
  PRIMARY KEY (item_id, docid)
);
`;
