// Which database role acts for which annotator (`qrels-studio store grant`): the table the PostgreSQL row-level
// security policies consult (core/store/postgres/grants/), so that the role a connection logs in as, not a name the
// client sends, decides whose labels it may write and see. SQLite has no roles: the table is here so that both
// backends have the same tables (`store copy` moves it like any other) and stays empty unless copied from PostgreSQL.
// duty: 'annotator' or 'adjudicator' for a person (annotator_id), 'judge' for the role that runs the study's LLM
// judges (no annotator_id: it writes as any LLM judge).
export const annotatorRoles = `
CREATE TABLE annotator_role (
  id           INTEGER PRIMARY KEY,
  role         TEXT NOT NULL,
  duty         TEXT NOT NULL CHECK (duty IN ('annotator', 'adjudicator', 'judge')),
  annotator_id INTEGER REFERENCES annotator (id),
  CHECK ((annotator_id IS NULL) = (duty = 'judge')),
  UNIQUE (duty, annotator_id)
);
`;
