// llm_call rows written in one statement, whatever their number: online calls a group commit records
// (postgresJudge.ts recordCalls) and a batch's output lines (postgresJudgeBatches.ts recordBatchLines). A round trip
// per row made the record the slow part of a run; one INSERT … VALUES per row group would meet PostgreSQL's 65,535
// parameters at 2,978 rows, so the columns go as 22 arrays (unnest) and any number of rows is one statement.
import { judgeCallValues } from '../../adapterShared/judgeRows.ts';
import type { JudgeCallRecord } from '../../port/judgePort.ts';
import type { PostgresClient } from '../postgresContext.ts';

/** The columns, in judgeCallValues' order, with the array type each is sent as. */
const callColumns = [
  ['cache_key', 'text'],
  ['endpoint', 'text'],
  ['model', 'text'],
  ['parameters', 'text'],
  ['prompt_template_hash', 'text'],
  ['prompt_hash', 'text'],
  ['vote_index', 'integer'],
  ['study_id', 'integer'],
  ['pair_id', 'integer'],
  ['judge', 'text'],
  ['raw_output', 'text'],
  ['parsed_label', 'integer'],
  ['parsed_conditions', 'text'],
  ['rationale', 'text'],
  ['error_kind', 'text'],
  ['error', 'text'],
  ['input_tokens', 'integer'],
  ['output_tokens', 'integer'],
  ['latency_ms', 'integer'],
  ['attempts', 'integer'],
  ['cost', 'float8'],
  ['created_at', 'text'],
] as const;

const names = callColumns.map(([name]) => name).join(', ');
const arrays = callColumns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ');

/**
 * Each row draws its id from llm_call's sequence with its place in the arrays (WITH ORDINALITY), so the ids come
 * back in the calls' order without relying on the order an INSERT's RETURNING happens to give.
 */
const insertCallsSql = `WITH new_call AS MATERIALIZED (
  SELECT nextval(pg_get_serial_sequence('llm_call', 'id'))::integer AS id, u.*
  FROM unnest(${arrays}) WITH ORDINALITY AS u (${names}, place)
), inserted AS (
  INSERT INTO llm_call (id, ${names}) SELECT id, ${names} FROM new_call
)
SELECT id FROM new_call ORDER BY place`;

/** Inside a transaction: inserts `calls` in one statement; their ids, in the same order. */
export async function insertCallRows(client: PostgresClient, calls: readonly JudgeCallRecord[]): Promise<number[]> {
  if (calls.length === 0) return [];
  const rows = calls.map((call) => Object.values(judgeCallValues(call)));
  const columns = callColumns.map((_, i) => rows.map((row) => row[i] ?? null));
  const { rows: ids } = await client.query<{ id: number }>(insertCallsSql, columns);
  return ids.map((row) => row.id);
}
