// The first schema: what a relevance-labelling study holds. Ids are the collection's own (qid, docid) as text;
// pairs name them without foreign keys to query/document, because a run or an imported qrels file may mention
// documents the corpus does not have (the linter reports them; the judgments are kept). Judgments are append-only:
// a change of mind is a new row, the current label is the latest row per (pair, annotator) — the view below.
export const initialSchema = `
CREATE TABLE study (
  id          INTEGER PRIMARY KEY,
  name        TEXT NOT NULL UNIQUE,
  kind        TEXT NOT NULL CHECK (kind IN ('study', 'review')),
  -- The study as resolved from the study file at the last sync (core/dsl's model, JSON).
  model       TEXT NOT NULL,
  synced_at   TEXT NOT NULL
);

CREATE TABLE scale_value (
  study_id    INTEGER NOT NULL REFERENCES study (id),
  value       INTEGER NOT NULL,
  label       TEXT NOT NULL,
  key         TEXT NOT NULL,
  description TEXT,
  PRIMARY KEY (study_id, value)
) WITHOUT ROWID;

CREATE TABLE query (
  id          INTEGER PRIMARY KEY,
  study_id    INTEGER NOT NULL REFERENCES study (id),
  qid         TEXT NOT NULL,
  text        TEXT NOT NULL,
  instruction TEXT,
  parent_qid  TEXT,
  type        TEXT,
  split       TEXT,
  metadata    TEXT,
  source      TEXT NOT NULL,
  UNIQUE (study_id, qid)
);

CREATE TABLE document (
  id           INTEGER PRIMARY KEY,
  study_id     INTEGER NOT NULL REFERENCES study (id),
  docid        TEXT NOT NULL,
  title        TEXT,
  body         TEXT NOT NULL,
  format       TEXT NOT NULL CHECK (format IN ('plain', 'markdown', 'html', 'table-json', 'code')),
  parent_docid TEXT,
  metadata     TEXT,
  source       TEXT NOT NULL,
  UNIQUE (study_id, docid)
);

CREATE TABLE run (
  id          INTEGER PRIMARY KEY,
  study_id    INTEGER NOT NULL REFERENCES study (id),
  path        TEXT NOT NULL,
  tag         TEXT,
  depth       INTEGER NOT NULL CHECK (depth >= 1),
  UNIQUE (study_id, path)
);

CREATE TABLE pair (
  id          INTEGER PRIMARY KEY,
  study_id    INTEGER NOT NULL REFERENCES study (id),
  qid         TEXT NOT NULL,
  docid       TEXT NOT NULL,
  -- The best rank any pooled run gave the document for the query; NULL for a pair only imported judgments name.
  best_rank   INTEGER,
  UNIQUE (study_id, qid, docid)
);

CREATE TABLE pair_origin (
  pair_id     INTEGER NOT NULL REFERENCES pair (id),
  run_id      INTEGER NOT NULL REFERENCES run (id),
  rank        INTEGER NOT NULL,
  PRIMARY KEY (pair_id, run_id)
) WITHOUT ROWID;

CREATE TABLE annotator (
  id          INTEGER PRIMARY KEY,
  -- A person's id, or llm:<model>@<prompt-hash> for a judge.
  name        TEXT NOT NULL UNIQUE,
  kind        TEXT NOT NULL CHECK (kind IN ('human', 'llm'))
);

CREATE TABLE judgment (
  id           INTEGER PRIMARY KEY,
  pair_id      INTEGER NOT NULL REFERENCES pair (id),
  annotator_id INTEGER NOT NULL REFERENCES annotator (id),
  label        INTEGER NOT NULL,
  -- UTC, ISO 8601 with milliseconds: orders one annotator's judgments of a pair, and identifies a judgment when
  -- label files from several machines are merged (annotator, pair, time).
  created_at   TEXT NOT NULL,
  source       TEXT NOT NULL CHECK (source IN ('manual', 'suggestion', 'adjudicated', 'imported')),
  rationale    TEXT,
  -- What the annotator was shown before labelling (an LLM suggestion's label), when anything was.
  shown_label  INTEGER,
  UNIQUE (pair_id, annotator_id, created_at)
);

-- The current label of each (pair, annotator): the latest judgment.
CREATE VIEW current_judgment AS
SELECT j.*
FROM judgment AS j
WHERE NOT EXISTS (
  SELECT 1 FROM judgment AS later
  WHERE later.pair_id = j.pair_id AND later.annotator_id = j.annotator_id
    AND (later.created_at > j.created_at OR (later.created_at = j.created_at AND later.id > j.id))
);

CREATE TABLE import_log (
  id          INTEGER PRIMARY KEY,
  study_id    INTEGER NOT NULL REFERENCES study (id),
  at          TEXT NOT NULL,
  file        TEXT NOT NULL,
  target      TEXT NOT NULL,
  format      TEXT NOT NULL,
  records     INTEGER NOT NULL
);
`;
