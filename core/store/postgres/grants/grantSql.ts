// The SQL of `qrels-studio store grant` (grantRoles.ts runs it): what each role of a study's team may do in its
// PostgreSQL record, enforced by the database. The roles are the ones annotator_role (migration 9) maps: a person's
// role ('annotator', 'adjudicator') and the judge role ('judge'). current_user — the role the connection logged in
// as — is what the policies trust; a name the client sends is checked against the mapping.
//
// What a mapped role may do (the owner of the tables is not subject to row-level security and sees everything):
// - read the study, its scale, queries, documents, runs, pairs, annotators, review items and tables, and every
//   assignment (assignment with `overlap k` counts everyone's);
// - assign pairs no one is assigned yet (insert assignment rows, for the record's mapped annotators only) — the
//   first Label view to open hands out the unassigned pairs round-robin, whoever's it is (the rows of one pair go
//   in one statement, whose check sees the assignments as they were before it);
// - write judgments (labels, with their notes, condition and aspect answers, retractions), label cursors, review
//   verdicts and edits only under its own annotator name; an annotator labels only pairs assigned to them (as the
//   Label view does), source 'adjudicated' only as the adjudicator (who labels any pair), 'imported' never; nothing
//   is updated or deleted, but its own cursor;
// - in a `blind` study (or review), read others' judgments, suggestions and judge calls of a pair (others' verdicts
//   of an item) only once it has a label of that pair (a verdict on that item) — the adjudicator and the judge role
//   read everything;
// - write judge calls, suggestions and their votes, Batch API runs (their batches and requests: a batch's status and
//   its requests' calls are updated as it is recorded, a batch never uploaded is deleted), the review critic's
//   verdicts and LLM judge annotators, only as the judge role; everyone reads the batches.
// Every statement is idempotent: a second grant (after adding an annotator) replaces the policies and the mapping.

/** Tables a mapped role reads without row-level security. */
const readOnly = [
  'study',
  'scale_value',
  'query',
  'document',
  'run',
  'pair',
  'pair_origin',
  'import_log',
  'review_item',
  'review_table',
  'annotator_role',
  'schema_version',
];

/** Tables with row-level security (policiesSql gives each its policies). */
const secured = [
  'annotator',
  'judgment',
  'aspect_judgment',
  'condition_judgment',
  'judgment_retraction',
  'assignment',
  'label_cursor',
  'llm_call',
  'suggestion',
  'suggestion_vote',
  'judge_batch',
  'judge_batch_request',
  'review_item_version',
  'review_verdict',
];

/** Every table of the record, in one of the two lists (a test checks that a new migration's table is in one). */
export const grantTables = { readOnly, secured } as const;

/** Whether current_user may see others' labels, suggestions and judge calls of `table`'s row's pair (functionsSql). */
const seesPair = (table: string): string =>
  `((SELECT qrels_sees_all(current_user)) OR qrels_labelled_by(${table}.pair_id, current_user)
     OR (NOT (SELECT qrels_all_blind()) AND qrels_pair_open(${table}.pair_id)))`;

/** The annotator ids current_user acts for (any duty but the judge's). */
const mine = `(SELECT r.annotator_id FROM annotator_role AS r WHERE r.role = current_user AND r.annotator_id IS NOT NULL)`;

/**
 * The functions the policies call. All but qrels_has_duty are SECURITY DEFINER: they run as the owner, who is not
 * subject to row-level security, so a policy of `judgment` may look at `judgment` without recursing; the role they
 * answer for is passed in (the policies pass current_user), and they answer false for a role the login is not a
 * member of, so that calling them directly tells nobody about others. Whether a pair's labels are visible is asked in the
 * cheapest order: once per statement (a sub-SELECT, evaluated once) whether the role sees everything (no study of
 * the record is blind, or it is the adjudicator's or the judge's role); else whether the pair is one the role has
 * labelled (per row, an index lookup); and, only in a record that mixes blind and open studies, per row whether the
 * pair's study is blind. qrels_judgment_of is VOLATILE so that it sees a judgment inserted earlier in the same
 * statement (a commit writes a judgment and its answers in one statement; a STABLE function would read the
 * statement's snapshot).
 */
export function functionsSql(schema: string): string {
  const path = `SET search_path = ${schema}, pg_catalog, pg_temp`;
  const blind = `coalesce((s.model::jsonb ->> 'blind')::boolean, false)`;
  // A function answering for role 'who' answers only for the login's own roles (no probing for others').
  const member = "pg_has_role(session_user, who, 'MEMBER')";
  return `
CREATE OR REPLACE FUNCTION qrels_has_duty(duty text) RETURNS boolean
LANGUAGE sql STABLE ${path} AS $$
  SELECT EXISTS (SELECT 1 FROM annotator_role AS r WHERE r.role = current_user AND r.duty = qrels_has_duty.duty)
$$;

CREATE OR REPLACE FUNCTION qrels_sees_all(who name) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER ${path} AS $$
  SELECT ${member} AND (
    EXISTS (SELECT 1 FROM annotator_role AS r WHERE r.role = who AND r.duty IN ('adjudicator', 'judge'))
    OR NOT EXISTS (SELECT 1 FROM study AS s WHERE ${blind}))
$$;

CREATE OR REPLACE FUNCTION qrels_all_blind() RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER ${path} AS $$
  SELECT NOT EXISTS (SELECT 1 FROM study AS s WHERE NOT ${blind})
$$;

CREATE OR REPLACE FUNCTION qrels_labelled_by(pair integer, who name) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER ${path} AS $$
  SELECT ${member}
    AND EXISTS (SELECT 1 FROM judgment AS j JOIN annotator_role AS r ON r.annotator_id = j.annotator_id AND r.role = who
                WHERE j.pair_id = qrels_labelled_by.pair
                  AND NOT EXISTS (SELECT 1 FROM judgment_retraction AS x WHERE x.judgment_id = j.id))
$$;

CREATE OR REPLACE FUNCTION qrels_pair_open(pair integer) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER ${path} AS $$
  SELECT NOT coalesce((SELECT ${blind} FROM pair AS p JOIN study AS s ON s.id = p.study_id
                       WHERE p.id = qrels_pair_open.pair), false)
$$;

CREATE OR REPLACE FUNCTION qrels_sees_item(version integer, who name) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER ${path} AS $$
  SELECT ${member} AND (
    NOT coalesce((SELECT (s.model::jsonb ->> 'blind')::boolean FROM review_item_version AS v
                  JOIN review_item AS i ON i.id = v.item_id JOIN study AS s ON s.id = i.study_id
                  WHERE v.id = qrels_sees_item.version), false)
    OR EXISTS (SELECT 1 FROM annotator_role AS r WHERE r.role = who AND r.duty IN ('adjudicator', 'judge'))
    OR EXISTS (SELECT 1 FROM review_item_version AS v JOIN review_item_version AS other ON other.item_id = v.item_id
               JOIN review_verdict AS d ON d.version_id = other.id
               JOIN annotator_role AS r ON r.annotator_id = d.annotator_id AND r.role = who
               WHERE v.id = qrels_sees_item.version))
$$;

CREATE OR REPLACE FUNCTION qrels_judgment_of(judgment integer, who name) RETURNS boolean
LANGUAGE sql VOLATILE SECURITY DEFINER ${path} AS $$
  SELECT ${member}
    AND EXISTS (SELECT 1 FROM judgment AS j JOIN annotator_role AS r ON r.annotator_id = j.annotator_id
                WHERE j.id = qrels_judgment_of.judgment AND r.role = who)
$$;
`;
}

/** Row-level security on the secured tables and their policies (dropped first: a grant run again replaces them). */
export function policiesSql(): string {
  const policies: [table: string, name: string, command: string, clause: string][] = [
    ['annotator', 'read', 'SELECT', 'USING (true)'],
    ['annotator', 'judge_adds', 'INSERT', `WITH CHECK (kind = 'llm' AND qrels_has_duty('judge'))`],

    ['judgment', 'read', 'SELECT', `USING (annotator_id IN ${mine} OR ${seesPair('judgment')})`],
    [
      'judgment',
      'own_labels',
      'INSERT',
      `WITH CHECK (EXISTS (SELECT 1 FROM annotator_role AS r
         WHERE r.role = current_user AND r.annotator_id = judgment.annotator_id
           AND ((r.duty = 'annotator' AND judgment.source IN ('manual', 'suggestion')
                 AND EXISTS (SELECT 1 FROM assignment AS a
                             WHERE a.pair_id = judgment.pair_id AND a.annotator_id = judgment.annotator_id))
             OR (r.duty = 'adjudicator' AND judgment.source IN ('manual', 'suggestion', 'adjudicated')))))`,
    ],
    ['aspect_judgment', 'read', 'SELECT', 'USING (EXISTS (SELECT 1 FROM judgment AS j WHERE j.id = judgment_id))'],
    ['aspect_judgment', 'own_labels', 'INSERT', 'WITH CHECK (qrels_judgment_of(judgment_id, current_user))'],
    ['condition_judgment', 'read', 'SELECT', 'USING (EXISTS (SELECT 1 FROM judgment AS j WHERE j.id = judgment_id))'],
    ['condition_judgment', 'own_labels', 'INSERT', 'WITH CHECK (qrels_judgment_of(judgment_id, current_user))'],
    ['judgment_retraction', 'read', 'SELECT', 'USING (EXISTS (SELECT 1 FROM judgment AS j WHERE j.id = judgment_id))'],
    ['judgment_retraction', 'own_labels', 'INSERT', 'WITH CHECK (qrels_judgment_of(judgment_id, current_user))'],

    ['assignment', 'read', 'SELECT', 'USING (true)'],
    [
      'assignment',
      'assign_team',
      'INSERT',
      `WITH CHECK (annotator_id IN (SELECT r.annotator_id FROM annotator_role AS r WHERE r.duty = 'annotator')
         AND EXISTS (SELECT 1 FROM annotator_role AS r WHERE r.role = current_user AND r.duty <> 'judge')
         AND NOT EXISTS (SELECT 1 FROM assignment AS a WHERE a.pair_id = assignment.pair_id))`,
    ],
    ['label_cursor', 'own_cursor', 'ALL', `USING (annotator_id IN ${mine}) WITH CHECK (annotator_id IN ${mine})`],

    ['llm_call', 'read', 'SELECT', `USING (pair_id IS NULL OR ${seesPair('llm_call')})`],
    ['llm_call', 'judge_writes', 'INSERT', `WITH CHECK (qrels_has_duty('judge'))`],
    ['suggestion', 'read', 'SELECT', `USING (${seesPair('suggestion')})`],
    ['suggestion', 'judge_writes', 'INSERT', `WITH CHECK (qrels_has_duty('judge'))`],
    ['suggestion', 'judge_replaces', 'DELETE', `USING (qrels_has_duty('judge'))`],
    ['suggestion_vote', 'read', 'SELECT', 'USING (EXISTS (SELECT 1 FROM suggestion AS s WHERE s.id = suggestion_id))'],
    ['suggestion_vote', 'judge_writes', 'INSERT', `WITH CHECK (qrels_has_duty('judge'))`],
    ['suggestion_vote', 'judge_replaces', 'DELETE', `USING (qrels_has_duty('judge'))`],
    // Batch API runs: a batch's pairs are only the study's, and its lines' calls are llm_call's (policies above).
    ['judge_batch', 'read', 'SELECT', 'USING (true)'],
    ['judge_batch', 'judge_writes', 'INSERT', `WITH CHECK (qrels_has_duty('judge'))`],
    ['judge_batch', 'judge_updates', 'UPDATE', `USING (qrels_has_duty('judge')) WITH CHECK (qrels_has_duty('judge'))`],
    ['judge_batch', 'judge_replaces', 'DELETE', `USING (qrels_has_duty('judge'))`],
    ['judge_batch_request', 'read', 'SELECT', 'USING (true)'],
    ['judge_batch_request', 'judge_writes', 'INSERT', `WITH CHECK (qrels_has_duty('judge'))`],
    [
      'judge_batch_request',
      'judge_updates',
      'UPDATE',
      `USING (qrels_has_duty('judge')) WITH CHECK (qrels_has_duty('judge'))`,
    ],
    ['judge_batch_request', 'judge_replaces', 'DELETE', `USING (qrels_has_duty('judge'))`],

    ['review_item_version', 'read', 'SELECT', 'USING (true)'],
    [
      'review_item_version',
      'own_edits',
      'INSERT',
      `WITH CHECK (author IN (SELECT a.name FROM annotator AS a WHERE a.id IN ${mine}))`,
    ],
    [
      'review_verdict',
      'read',
      'SELECT',
      `USING (annotator_id IN ${mine} OR (SELECT qrels_sees_all(current_user)) OR qrels_sees_item(version_id, current_user))`,
    ],
    [
      'review_verdict',
      'own_verdicts',
      'INSERT',
      // The review critic's verdicts are the judge role's (an LLM judge's name).
      `WITH CHECK (annotator_id IN ${mine} OR (qrels_has_duty('judge')
         AND EXISTS (SELECT 1 FROM annotator AS a WHERE a.id = review_verdict.annotator_id AND a.kind = 'llm')))`,
    ],
  ];
  const statements: string[] = [];
  const names = [...new Set(policies.map(([, name]) => name))];
  for (const table of secured) {
    statements.push(`ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY;`);
    for (const name of names) statements.push(`DROP POLICY IF EXISTS ${name} ON ${table};`);
  }
  for (const [table, name, command, clause] of policies) {
    statements.push(`CREATE POLICY ${name} ON ${table} FOR ${command} ${clause};`);
  }
  // The view reads its tables as the role that reads it, under their policies (PostgreSQL 15): without this a view
  // reads them as its owner, past row-level security.
  statements.push('ALTER VIEW current_judgment SET (security_invoker = true);');
  return statements.join('\n');
}

/**
 * The table privileges of the mapped roles `roles` (quoted identifiers, joined): read everything, write what the
 * policies allow. `schema` is the record's schema (quoted).
 */
export function privilegesSql(schema: string, roles: string, judge: string | undefined): string {
  const judgeWrites =
    judge === undefined
      ? ''
      : `GRANT INSERT ON llm_call, suggestion, suggestion_vote TO ${judge};
GRANT DELETE ON suggestion, suggestion_vote TO ${judge};
GRANT INSERT, UPDATE, DELETE ON judge_batch, judge_batch_request TO ${judge};`;
  return `
GRANT USAGE ON SCHEMA ${schema} TO ${roles};
GRANT SELECT ON ${[...readOnly, ...secured, 'current_judgment'].join(', ')} TO ${roles};
GRANT USAGE ON ALL SEQUENCES IN SCHEMA ${schema} TO ${roles};
GRANT INSERT ON annotator, judgment, aspect_judgment, condition_judgment, judgment_retraction, assignment,
  label_cursor, review_item_version, review_verdict TO ${roles};
GRANT UPDATE ON label_cursor TO ${roles};
${judgeWrites}
GRANT EXECUTE ON FUNCTION qrels_has_duty(text), qrels_sees_all(name), qrels_all_blind(),
  qrels_labelled_by(integer, name), qrels_pair_open(integer), qrels_sees_item(integer, name),
  qrels_judgment_of(integer, name) TO ${roles};
`;
}

/** What a role no longer mapped loses (`role` quoted). */
export function revokeSql(schema: string, role: string): string {
  return `
REVOKE ALL ON ALL TABLES IN SCHEMA ${schema} FROM ${role};
REVOKE ALL ON ALL SEQUENCES IN SCHEMA ${schema} FROM ${role};
`;
}

export const grantStatements = {
  roleExists: 'SELECT rolsuper OR rolbypassrls AS bypasses FROM pg_roles WHERE rolname = $1',
  currentUser: 'SELECT current_user AS me',
  currentSchema: 'SELECT current_schema() AS schema, current_database() AS database',
  tableOwner: `SELECT pg_get_userbyid(c.relowner) AS owner FROM pg_class AS c
     WHERE c.relname = 'judgment' AND c.relnamespace = current_schema()::regnamespace`,
  mappedRoles: 'SELECT DISTINCT role FROM annotator_role ORDER BY role',
  clearMapping: 'DELETE FROM annotator_role',
  addMapping: 'INSERT INTO annotator_role (role, duty, annotator_id) VALUES ($1, $2, $3)',
} as const;
