// What labelling, the LLM judge and review keep beyond a label: the answers to a study's aspects and conditions
// (from which `derive` computes the label), who is assigned which pair (overlap k, blind), the judge's
// suggestions with everything needed to reproduce and cost them (and a cache of its calls), and review items
// with their versions and verdicts.
export const labellingDetail = `
CREATE TABLE aspect_judgment (
  judgment_id INTEGER NOT NULL REFERENCES judgment (id),
  aspect      TEXT NOT NULL,
  answer      INTEGER NOT NULL CHECK (answer IN (0, 1)),
  PRIMARY KEY (judgment_id, aspect)
) WITHOUT ROWID;

CREATE TABLE condition_judgment (
  judgment_id INTEGER NOT NULL REFERENCES judgment (id),
  -- 1-based position of the condition in the query's list (the study's \`conditions from FIELD\`).
  condition   INTEGER NOT NULL CHECK (condition >= 1),
  satisfied   INTEGER NOT NULL CHECK (satisfied IN (0, 1)),
  PRIMARY KEY (judgment_id, condition)
) WITHOUT ROWID;

CREATE TABLE assignment (
  pair_id      INTEGER NOT NULL REFERENCES pair (id),
  annotator_id INTEGER NOT NULL REFERENCES annotator (id),
  assigned_at  TEXT NOT NULL,
  PRIMARY KEY (pair_id, annotator_id)
) WITHOUT ROWID;

CREATE TABLE llm_call (
  id            INTEGER PRIMARY KEY,
  -- Hash of (endpoint, model, parameters, rendered prompt): the same call is answered from here.
  cache_key     TEXT NOT NULL UNIQUE,
  endpoint      TEXT NOT NULL,
  model         TEXT NOT NULL,
  parameters    TEXT NOT NULL,
  prompt_hash   TEXT NOT NULL,
  raw_output    TEXT NOT NULL,
  input_tokens  INTEGER,
  output_tokens INTEGER,
  latency_ms    INTEGER,
  cost          REAL,
  created_at    TEXT NOT NULL
);

CREATE TABLE suggestion (
  id           INTEGER PRIMARY KEY,
  pair_id      INTEGER NOT NULL REFERENCES pair (id),
  annotator_id INTEGER NOT NULL REFERENCES annotator (id),
  llm_call_id  INTEGER REFERENCES llm_call (id),
  -- NULL when the output could not be parsed into a label (the raw output is in llm_call).
  label        INTEGER,
  rationale    TEXT,
  created_at   TEXT NOT NULL
);
CREATE INDEX suggestion_by_pair ON suggestion (pair_id);

CREATE TABLE review_item (
  id          INTEGER PRIMARY KEY,
  study_id    INTEGER NOT NULL REFERENCES study (id),
  item_id     TEXT NOT NULL,
  parent_id   TEXT,
  type        TEXT,
  model       TEXT,
  metadata    TEXT,
  UNIQUE (study_id, item_id)
);

CREATE TABLE review_item_version (
  id          INTEGER PRIMARY KEY,
  item_id     INTEGER NOT NULL REFERENCES review_item (id),
  text        TEXT NOT NULL,
  -- Who wrote this version: the generator's model for the first, an annotator's name for an edit.
  author      TEXT NOT NULL,
  created_at  TEXT NOT NULL
);

CREATE TABLE review_verdict (
  id           INTEGER PRIMARY KEY,
  version_id   INTEGER NOT NULL REFERENCES review_item_version (id),
  annotator_id INTEGER NOT NULL REFERENCES annotator (id),
  verdict      TEXT NOT NULL,
  -- Rubric dimension → level (JSON), when the review has a rubric.
  rubric       TEXT,
  rationale    TEXT,
  created_at   TEXT NOT NULL,
  UNIQUE (version_id, annotator_id, created_at)
);
`;
