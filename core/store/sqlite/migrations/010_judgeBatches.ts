// Batch API judge runs (core/judge/batch/): a batch is recorded with every request it holds BEFORE its input file is
// uploaded, so a run killed at any point finds it again — by its key (in the uploaded file's name and the batch's
// metadata), then by the file and batch ids recorded as soon as the API gave them. A request is a pair's vote with
// what its call's record needs (cache key, prompt hash, parameters); llm_call_id is set in the transaction that
// records its output or error line, so a download killed midway records every line once. A batch is open until
// recorded_at is set (every line recorded, the pairs' suggestions written): while open, its cache keys are not put
// in another batch.
export const judgeBatches = `
CREATE TABLE judge_batch (
  id                       INTEGER PRIMARY KEY,
  batch_key                TEXT NOT NULL UNIQUE,
  study_id                 INTEGER NOT NULL REFERENCES study (id),
  -- The judge's annotator name, llm:<model>@<first 8 hex of the prompt template hash>.
  judge                    TEXT NOT NULL,
  endpoint                 TEXT NOT NULL,
  model                    TEXT NOT NULL,
  prompt_template_hash     TEXT NOT NULL,
  -- The input file (JSONL) as written: its sha256 and size.
  input_sha256             TEXT NOT NULL,
  input_bytes              INTEGER NOT NULL,
  request_count            INTEGER NOT NULL CHECK (request_count >= 0),
  input_file_id            TEXT,
  -- The Batch API's id of the batch.
  api_batch_id             TEXT UNIQUE,
  -- 'prepared': recorded, not yet created at the API; else the API's status as last seen.
  status                   TEXT NOT NULL CHECK (status IN ('prepared', 'validating', 'failed', 'in_progress',
                             'finalizing', 'completed', 'expired', 'cancelling', 'cancelled')),
  total_count              INTEGER,
  completed_count          INTEGER,
  failed_count             INTEGER,
  output_file_id           TEXT,
  error_file_id            TEXT,
  -- USD per million tokens the batch's calls are costed at; NULL when the model had no price.
  price_input_per_million  REAL,
  price_output_per_million REAL,
  created_at               TEXT NOT NULL,
  -- Every line recorded and the suggestions written: the batch is closed.
  recorded_at              TEXT
);
CREATE INDEX judge_batch_by_study ON judge_batch (study_id, judge);

CREATE TABLE judge_batch_request (
  batch_id     INTEGER NOT NULL REFERENCES judge_batch (id),
  custom_id    TEXT NOT NULL,
  cache_key    TEXT NOT NULL,
  pair_id      INTEGER NOT NULL REFERENCES pair (id),
  vote_index   INTEGER NOT NULL CHECK (vote_index >= 0),
  prompt_hash  TEXT NOT NULL,
  parameters   TEXT NOT NULL,
  -- A conditions judge: how many conditions the answer must have; NULL for a label judge.
  conditions   INTEGER,
  -- The call its line was recorded as; NULL until it is.
  llm_call_id  INTEGER REFERENCES llm_call (id),
  PRIMARY KEY (batch_id, custom_id)
) WITHOUT ROWID;
CREATE INDEX judge_batch_request_by_key ON judge_batch_request (cache_key);
CREATE INDEX judge_batch_request_by_call ON judge_batch_request (llm_call_id);
`;
