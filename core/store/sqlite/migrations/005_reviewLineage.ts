// Review versions know what they were made from: an edit's version names the version the reviewer edited
// (`based_on`; NULL for a version the generator wrote, from the items file). With it a review can tell which
// verdicts judge the item as the items file now has it (the versions since its latest generated one), which edit a
// reviewer's `edit` verdict made, and whether two reviewers accepted the same text. Edits stored before this
// migration get their base from the edit verdict stored with them (same reviewer, same time). And an item's table
// set (a review's `tables` qrels: 2 compliant, 1 violating, 0 off-topic), which the instruction checks read.
export const reviewLineage = `
ALTER TABLE review_item_version ADD COLUMN based_on INTEGER REFERENCES review_item_version (id);
CREATE INDEX review_version_by_item ON review_item_version (item_id);
CREATE INDEX review_verdict_by_version ON review_verdict (version_id);

-- Through the item's earlier versions and their verdicts (both indexed above), not a scan of every verdict.
UPDATE review_item_version AS v SET based_on = (
  SELECT d.version_id FROM review_item_version AS base
  JOIN review_verdict AS d ON d.version_id = base.id JOIN annotator AS a ON a.id = d.annotator_id
  WHERE base.item_id = v.item_id AND base.id < v.id
    AND d.verdict = 'edit' AND a.name = v.author AND d.created_at = v.created_at
  ORDER BY d.id DESC LIMIT 1
);

CREATE TABLE review_table (
  item_id  INTEGER NOT NULL REFERENCES review_item (id),
  docid    TEXT NOT NULL,
  label    INTEGER NOT NULL,
  PRIMARY KEY (item_id, docid)
) WITHOUT ROWID;
`;
