// What running an LLM judge over a study records (core/judge/judgeStudy.ts). Every call is a row of llm_call —
// failed ones too — with what it was asked (endpoint, model, parameters, the template's and the rendered prompt's
// hashes, the vote index), for which pair and judge, what came back (raw text, parsed label, rationale), and what it
// cost. A call is also the judge's cache: a later call with the same key (endpoint, model, parameters, rendered
// prompt, vote index) is answered from the row instead of the endpoint, so a finished run makes no request when run
// again. Which rows serve:
// - an answer that parsed (error NULL): yes;
// - an answer that did not parse into a label (error_kind 'parse'): yes — the endpoint did answer, the same request
//   would most likely get the same text, and a re-run must not pay for it again; its raw text is kept and it counts
//   as a failed vote, never as a label;
// - a call that got no answer (rate limit, server error, timeout, lost connection, refused, cancelled, circuit
//   open): never — it is kept as a record, and the next run asks again.
// Several rows may share a key (two runs asking at the same time both record theirs); the first one serves.
//
// A judge's suggestion for a pair is the majority of its votes; suggestion_vote keeps every vote (the call that made
// it and the label it gave, NULL when it did not parse), so the spread and each vote's rationale stay reachable.
//
// Calls must be able to share a key, which 002's UNIQUE (cache_key) forbids, and SQLite cannot drop a constraint:
// llm_call is rebuilt. suggestion references it, so it is rebuilt too, in the one order that keeps every foreign
// key satisfied with enforcement on (migrations run in a transaction, where it cannot be switched off): new tables
// first, the rows copied, the old child dropped before its parent, then the new tables take the old names (a rename
// rewrites the references to it).
export const judgeCalls = `
CREATE TABLE llm_call_v4 (
  id                   INTEGER PRIMARY KEY,
  -- sha256 of (endpoint, model, parameters, rendered prompt, vote index): the cache key.
  cache_key            TEXT NOT NULL,
  endpoint             TEXT NOT NULL,
  model                TEXT NOT NULL,
  -- JSON: temperature, max_tokens, seed, response_format, as sent.
  parameters           TEXT NOT NULL,
  -- sha256 of the prompt template's text; NULL for calls recorded before version 4.
  prompt_template_hash TEXT,
  -- sha256 of the rendered prompt.
  prompt_hash          TEXT NOT NULL,
  vote_index           INTEGER NOT NULL DEFAULT 0 CHECK (vote_index >= 0),
  study_id             INTEGER REFERENCES study (id),
  pair_id              INTEGER REFERENCES pair (id),
  -- The judge's annotator name, llm:<model>@<first 8 hex of the prompt template hash>.
  judge                TEXT,
  -- What the endpoint answered; '' when it answered nothing.
  raw_output           TEXT NOT NULL,
  parsed_label         INTEGER,
  -- For a judge that answers per condition: its answers (JSON list of true/false) the label was derived from.
  parsed_conditions    TEXT,
  rationale            TEXT,
  -- NULL for an answer that parsed; else what went wrong: a transport failure's kind, or 'parse'.
  error_kind           TEXT CHECK (error_kind IN ('rate-limit', 'server', 'timeout', 'connection', 'client', 'auth',
                                                  'cancelled', 'circuit-open', 'parse')),
  -- The sentence saying what went wrong (the failure's message, or the parse error).
  error                TEXT,
  input_tokens         INTEGER,
  output_tokens        INTEGER,
  latency_ms           INTEGER,
  -- HTTP requests the call took (retries included); 0 when it made none.
  attempts             INTEGER,
  -- In the price table's currency; NULL when the model has no price.
  cost                 REAL,
  created_at           TEXT NOT NULL,
  CHECK ((error IS NULL) = (error_kind IS NULL)),
  CHECK (error IS NULL OR (parsed_label IS NULL AND parsed_conditions IS NULL))
);
INSERT INTO llm_call_v4 (id, cache_key, endpoint, model, parameters, prompt_hash, raw_output, input_tokens,
  output_tokens, latency_ms, cost, created_at)
SELECT id, cache_key, endpoint, model, parameters, prompt_hash, raw_output, input_tokens, output_tokens, latency_ms,
  cost, created_at
FROM llm_call;

CREATE TABLE suggestion_v4 (
  id           INTEGER PRIMARY KEY,
  pair_id      INTEGER NOT NULL REFERENCES pair (id),
  annotator_id INTEGER NOT NULL REFERENCES annotator (id),
  -- The call whose rationale the suggestion shows (a vote for the majority label).
  llm_call_id  INTEGER REFERENCES llm_call_v4 (id),
  -- NULL when no vote could be parsed into a label (the raw outputs are in llm_call).
  label        INTEGER,
  rationale    TEXT,
  created_at   TEXT NOT NULL,
  -- Share of the judge's votes for the suggested label, 0–1; NULL when the judge did not vote.
  confidence   REAL CHECK (confidence BETWEEN 0 AND 1)
);
INSERT INTO suggestion_v4 (id, pair_id, annotator_id, llm_call_id, label, rationale, created_at, confidence)
SELECT id, pair_id, annotator_id, llm_call_id, label, rationale, created_at, confidence FROM suggestion;

DROP TABLE suggestion;
DROP TABLE llm_call;
ALTER TABLE llm_call_v4 RENAME TO llm_call;
ALTER TABLE suggestion_v4 RENAME TO suggestion;
CREATE INDEX suggestion_by_pair ON suggestion (pair_id);

-- The votes behind a suggestion: one per vote index that was answered.
CREATE TABLE suggestion_vote (
  suggestion_id INTEGER NOT NULL REFERENCES suggestion (id),
  vote_index    INTEGER NOT NULL CHECK (vote_index >= 0),
  llm_call_id   INTEGER NOT NULL REFERENCES llm_call (id),
  -- NULL: the vote's answer could not be parsed into a label.
  label         INTEGER,
  PRIMARY KEY (suggestion_id, vote_index)
) WITHOUT ROWID;

-- The cache: the first answered call with a key (the WHERE must be written the same way by every lookup).
CREATE INDEX llm_call_cache ON llm_call (cache_key, id) WHERE error_kind IS NULL OR error_kind = 'parse';
-- A pair's calls by judge and vote; a study's calls by judge (totals of tokens and cost).
CREATE INDEX llm_call_by_pair ON llm_call (pair_id, judge, vote_index);
CREATE INDEX llm_call_by_study ON llm_call (study_id, judge);
CREATE INDEX suggestion_vote_by_call ON suggestion_vote (llm_call_id);
`;
