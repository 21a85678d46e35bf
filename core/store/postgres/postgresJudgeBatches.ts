// The Batch API judge's side of the PostgreSQL record (same tables as SQLite's 010_judgeBatches): batches recorded
// with their requests before upload, their ids and status as the API gives them, and their lines recorded once each
// (a line's request row is locked while its call is recorded, so two processes downloading the same batch record it
// once).
import {
  type BatchRow,
  batchRequestColumns,
  batchRequestValues,
  batchUpdateValues,
  judgeBatchRecord,
  newBatchValues,
  storedBatchRequest,
} from '../adapterShared/judgeBatchRows.ts';
import type {
  BatchLineCall,
  JudgeBatchPort,
  JudgeBatchRecord,
  JudgeBatchUpdate,
  NewJudgeBatch,
  StoredBatchRequest,
} from '../port/judgeBatchPort.ts';
import { insertCallRows } from './judge/callRows.ts';
import type { PostgresContext, TransactionOptions } from './postgresContext.ts';

const readOnly: TransactionOptions = { readOnly: true };

export class PostgresJudgeBatches implements JudgeBatchPort {
  protected readonly context: PostgresContext;

  constructor(context: PostgresContext) {
    this.context = context;
  }

  async recordBatch(batch: NewJudgeBatch): Promise<number> {
    const id = await this.context.transaction(async (client) => {
      const { rows } = await client.query<{ id: number }>(
        `INSERT INTO judge_batch (batch_key, study_id, judge, endpoint, model, prompt_template_hash, input_sha256,
           input_bytes, request_count, status, price_input_per_million, price_output_per_million, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'prepared', $10, $11, $12) RETURNING id`,
        newBatchValues(batch),
      );
      const id = (rows[0] as { id: number }).id;
      const r = batch.requests;
      // Thousands of rows per statement: one round trip per slice, not per request.
      for (let start = 0; start < r.length; start += 5000) {
        const values = r.slice(start, start + 5000).map(batchRequestValues);
        await client.query(
          `INSERT INTO judge_batch_request (batch_id, custom_id, cache_key, pair_id, vote_index, prompt_hash,
             parameters, conditions)
           SELECT $1, * FROM unnest($2::text[], $3::text[], $4::integer[], $5::integer[], $6::text[], $7::text[],
             $8::integer[])`,
          [id, ...Array.from({ length: 7 }, (_, i) => values.map((row) => row[i]))],
        );
      }
      await this.context.notify(client, { what: 'judge' });
      return id;
    });
    this.context.changed({ what: 'judge' });
    return id;
  }

  async setInputFile(id: number, inputFileId: string): Promise<void> {
    await this.context.transaction(async (client) => {
      await client.query('UPDATE judge_batch SET input_file_id = $1 WHERE id = $2', [inputFileId, id]);
    });
  }

  async setBatchId(id: number, batchId: string): Promise<void> {
    await this.context.transaction(async (client) => {
      await client.query(
        `UPDATE judge_batch SET api_batch_id = $1,
           status = CASE status WHEN 'prepared' THEN 'validating' ELSE status END WHERE id = $2`,
        [batchId, id],
      );
    });
  }

  async updateBatch(id: number, update: JudgeBatchUpdate): Promise<void> {
    await this.context.transaction(async (client) => {
      await client.query(
        `UPDATE judge_batch SET status = $2, total_count = coalesce($3, total_count),
           completed_count = coalesce($4, completed_count), failed_count = coalesce($5, failed_count),
           output_file_id = coalesce($6, output_file_id), error_file_id = coalesce($7, error_file_id)
         WHERE id = $1`,
        [id, ...batchUpdateValues(update)],
      );
      await this.context.notify(client, { what: 'judge' });
    });
    this.context.changed({ what: 'judge' });
  }

  async recordBatchLines(id: number, lines: readonly BatchLineCall[]): Promise<number> {
    if (lines.length === 0) return 0;
    const recorded = await this.context.transaction(async (client) => {
      // The lines' requests still without a call, locked until this commits.
      const { rows } = await client.query<{ customId: string }>(
        `SELECT custom_id AS "customId" FROM judge_batch_request
         WHERE batch_id = $1 AND custom_id = ANY($2::text[]) AND llm_call_id IS NULL FOR UPDATE`,
        [id, lines.map((line) => line.customId)],
      );
      const open = new Set(rows.map((row) => row.customId));
      const toRecord: BatchLineCall[] = [];
      for (const line of lines) {
        if (!open.delete(line.customId)) continue;
        toRecord.push(line);
      }
      const n = toRecord.length;
      if (n === 0) return 0;
      // The calls in one statement and the requests they answer in another (a round trip per line made a
      // 100,000-line batch slow), each request linked to its own call.
      const ids = await insertCallRows(
        client,
        toRecord.map((line) => line.call),
      );
      await client.query(
        `UPDATE judge_batch_request AS r SET llm_call_id = v.id
         FROM unnest($2::text[], $3::integer[]) AS v (custom_id, id)
         WHERE r.batch_id = $1 AND r.custom_id = v.custom_id`,
        [id, toRecord.map((line) => line.customId), ids],
      );
      if (n > 0) await this.context.notify(client, { what: 'judge' });
      return n;
    });
    if (recorded > 0) this.context.changed({ what: 'judge' });
    return recorded;
  }

  async closeBatch(id: number, recordedAt: string): Promise<void> {
    await this.context.transaction(async (client) => {
      await client.query('UPDATE judge_batch SET recorded_at = $1 WHERE id = $2', [recordedAt, id]);
      await this.context.notify(client, { what: 'judge' });
    });
    this.context.changed({ what: 'judge' });
  }

  async forgetBatch(id: number): Promise<void> {
    await this.context.transaction(async (client) => {
      const { rows } = await client.query<{ status: string; input_file_id: string | null }>(
        'SELECT status, input_file_id FROM judge_batch WHERE id = $1 FOR UPDATE',
        [id],
      );
      const row = rows[0];
      if (row === undefined) return;
      if (row.status !== 'prepared') {
        throw new Error(`batch ${id} was created at the API: it cannot be forgotten`);
      }
      await client.query('DELETE FROM judge_batch_request WHERE batch_id = $1', [id]);
      await client.query('DELETE FROM judge_batch WHERE id = $1', [id]);
    });
  }

  async batches(studyId: number, judge?: string): Promise<JudgeBatchRecord[]> {
    const rows = await this.context.transaction(async (client) => {
      const result = await client.query<BatchRow>(
        `SELECT b.*, (SELECT count(*) FROM judge_batch_request AS r WHERE r.batch_id = b.id
             AND r.llm_call_id IS NOT NULL) AS recorded
         FROM judge_batch AS b WHERE b.study_id = $1 AND ($2::text IS NULL OR b.judge = $2::text) ORDER BY b.id`,
        [studyId, judge ?? null],
      );
      return result.rows;
    }, readOnly);
    return rows.map(judgeBatchRecord);
  }

  async batchRequests(id: number, page: { after?: string; limit: number }): Promise<StoredBatchRequest[]> {
    const rows = await this.context.transaction(async (client) => {
      const result = await client.query<StoredBatchRequest>(
        `SELECT ${batchRequestColumns} FROM judge_batch_request AS r
         WHERE r.batch_id = $1 AND r.custom_id > $2 ORDER BY r.custom_id LIMIT $3`,
        [id, page.after ?? '', page.limit],
      );
      return result.rows;
    }, readOnly);
    return rows.map(storedBatchRequest);
  }

  async keysInOpenBatches(cacheKeys: readonly string[]): Promise<string[]> {
    if (cacheKeys.length === 0) return [];
    return this.context.transaction(async (client) => {
      const { rows } = await client.query<{ key: string }>(
        `SELECT DISTINCT r.cache_key AS key FROM judge_batch_request AS r JOIN judge_batch AS b ON b.id = r.batch_id
         WHERE b.recorded_at IS NULL AND r.cache_key = ANY($1::text[])`,
        [cacheKeys],
      );
      return rows.map((row) => row.key);
    }, readOnly);
  }

  async failedBatchRequests(studyId: number, judge: string): Promise<StoredBatchRequest[]> {
    const rows = await this.context.transaction(async (client) => {
      const result = await client.query<StoredBatchRequest>(
        `SELECT ${batchRequestColumns} FROM judge_batch_request AS r
         JOIN judge_batch AS b ON b.id = r.batch_id JOIN llm_call AS c ON c.id = r.llm_call_id
         WHERE b.study_id = $1 AND b.judge = $2 AND b.recorded_at IS NOT NULL
           AND c.error_kind IS NOT NULL AND c.error_kind <> 'parse'
           AND NOT EXISTS (SELECT 1 FROM llm_call AS a WHERE a.cache_key = r.cache_key
             AND (a.error_kind IS NULL OR a.error_kind = 'parse'))
         ORDER BY r.pair_id, r.vote_index, r.batch_id`,
        [studyId, judge],
      );
      return result.rows;
    }, readOnly);
    return rows.map(storedBatchRequest);
  }
}
