// The Batch API judge's side of the SQLite record (schema: migrations/010_judgeBatches.ts): batches recorded with
// their requests before upload, their ids and status as the API gives them, and their lines recorded once each.
import {
  type BatchRow,
  batchRequestColumns,
  batchRequestValues,
  batchUpdateValues,
  judgeBatchRecord,
  newBatchValues,
  storedBatchRequest,
} from '../adapterShared/judgeBatchRows.ts';
import { judgeCallValues } from '../adapterShared/judgeRows.ts';
import type {
  BatchLineCall,
  JudgeBatchPort,
  JudgeBatchRecord,
  JudgeBatchUpdate,
  NewJudgeBatch,
  StoredBatchRequest,
} from '../port/judgeBatchPort.ts';
import type { SqliteContext } from './sqliteContext.ts';
import { insertCallSql } from './sqliteJudge.ts';

/** Cache keys looked up per statement (SQLite's default limit of bound values is 32,766). */
const keysPerLookup = 500;

export class SqliteJudgeBatches implements JudgeBatchPort {
  protected readonly context: SqliteContext;

  constructor(context: SqliteContext) {
    this.context = context;
  }

  async recordBatch(batch: NewJudgeBatch): Promise<number> {
    const db = this.context.db;
    const id = db
      .transaction((): number => {
        const { id } = db
          .prepare(
            `INSERT INTO judge_batch (batch_key, study_id, judge, endpoint, model, prompt_template_hash, input_sha256,
               input_bytes, request_count, status, price_input_per_million, price_output_per_million, created_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'prepared', ?, ?, ?) RETURNING id`,
          )
          .get(...newBatchValues(batch)) as { id: number };
        const insert = db.prepare(
          `INSERT INTO judge_batch_request (batch_id, custom_id, cache_key, pair_id, vote_index, prompt_hash,
             parameters, conditions) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        );
        for (const request of batch.requests) insert.run(id, ...batchRequestValues(request));
        return id;
      })
      .immediate();
    this.context.changed({ what: 'judge' });
    return id;
  }

  async setInputFile(id: number, inputFileId: string): Promise<void> {
    this.context.db.prepare('UPDATE judge_batch SET input_file_id = ? WHERE id = ?').run(inputFileId, id);
  }

  async setBatchId(id: number, batchId: string): Promise<void> {
    this.context.db
      .prepare(
        `UPDATE judge_batch SET api_batch_id = ?, status = CASE status WHEN 'prepared' THEN 'validating' ELSE status END
         WHERE id = ?`,
      )
      .run(batchId, id);
  }

  async updateBatch(id: number, update: JudgeBatchUpdate): Promise<void> {
    this.context.db
      .prepare(
        `UPDATE judge_batch SET status = ?, total_count = coalesce(?, total_count),
           completed_count = coalesce(?, completed_count), failed_count = coalesce(?, failed_count),
           output_file_id = coalesce(?, output_file_id), error_file_id = coalesce(?, error_file_id)
         WHERE id = ?`,
      )
      .run(...batchUpdateValues(update), id);
    this.context.changed({ what: 'judge' });
  }

  async recordBatchLines(id: number, lines: readonly BatchLineCall[]): Promise<number> {
    const db = this.context.db;
    const callOf = db.prepare('SELECT llm_call_id FROM judge_batch_request WHERE batch_id = ? AND custom_id = ?').raw();
    const insertCall = db.prepare(insertCallSql);
    const link = db.prepare('UPDATE judge_batch_request SET llm_call_id = ? WHERE batch_id = ? AND custom_id = ?');
    const recorded = db
      .transaction((): number => {
        let n = 0;
        for (const line of lines) {
          const row = callOf.get(id, line.customId) as [number | null] | undefined;
          if (row === undefined) throw new Error(`batch ${id} holds no request '${line.customId}'`);
          if (row[0] !== null) continue;
          const callId = Number(insertCall.run(judgeCallValues(line.call)).lastInsertRowid);
          link.run(callId, id, line.customId);
          n++;
        }
        return n;
      })
      .immediate();
    if (recorded > 0) this.context.changed({ what: 'judge' });
    return recorded;
  }

  async closeBatch(id: number, recordedAt: string): Promise<void> {
    this.context.db.prepare('UPDATE judge_batch SET recorded_at = ? WHERE id = ?').run(recordedAt, id);
    this.context.changed({ what: 'judge' });
  }

  async forgetBatch(id: number): Promise<void> {
    const db = this.context.db;
    db.transaction(() => {
      const status = db.prepare('SELECT status, input_file_id FROM judge_batch WHERE id = ?').get(id) as
        | { status: string; input_file_id: string | null }
        | undefined;
      if (status === undefined) return;
      if (status.status !== 'prepared') {
        throw new Error(`batch ${id} was created at the API: it cannot be forgotten`);
      }
      db.prepare('DELETE FROM judge_batch_request WHERE batch_id = ?').run(id);
      db.prepare('DELETE FROM judge_batch WHERE id = ?').run(id);
    }).immediate();
  }

  async batches(studyId: number, judge?: string): Promise<JudgeBatchRecord[]> {
    const rows = this.context.db
      .prepare(
        `SELECT b.*, (SELECT count(*) FROM judge_batch_request AS r WHERE r.batch_id = b.id
             AND r.llm_call_id IS NOT NULL) AS recorded
         FROM judge_batch AS b WHERE b.study_id = @study AND (@judge IS NULL OR b.judge = @judge) ORDER BY b.id`,
      )
      .all({ study: studyId, judge: judge ?? null }) as BatchRow[];
    return rows.map(judgeBatchRecord);
  }

  async batchRequests(id: number, page: { after?: string; limit: number }): Promise<StoredBatchRequest[]> {
    const rows = this.context.db
      .prepare(
        `SELECT ${batchRequestColumns} FROM judge_batch_request AS r
         WHERE r.batch_id = ? AND r.custom_id > ? ORDER BY r.custom_id LIMIT ?`,
      )
      .all(id, page.after ?? '', page.limit) as StoredBatchRequest[];
    return rows.map(storedBatchRequest);
  }

  async keysInOpenBatches(cacheKeys: readonly string[]): Promise<string[]> {
    const found: string[] = [];
    for (let start = 0; start < cacheKeys.length; start += keysPerLookup) {
      const chunk = cacheKeys.slice(start, start + keysPerLookup);
      const rows = this.context.db
        .prepare(
          `SELECT DISTINCT r.cache_key FROM judge_batch_request AS r JOIN judge_batch AS b ON b.id = r.batch_id
           WHERE b.recorded_at IS NULL AND r.cache_key IN (${chunk.map(() => '?').join(', ')})`,
        )
        .pluck()
        .all(...chunk) as string[];
      found.push(...rows);
    }
    return found;
  }

  async failedBatchRequests(studyId: number, judge: string): Promise<StoredBatchRequest[]> {
    const rows = this.context.db
      .prepare(
        `SELECT ${batchRequestColumns} FROM judge_batch_request AS r
         JOIN judge_batch AS b ON b.id = r.batch_id JOIN llm_call AS c ON c.id = r.llm_call_id
         WHERE b.study_id = @study AND b.judge = @judge AND b.recorded_at IS NOT NULL
           AND c.error_kind IS NOT NULL AND c.error_kind <> 'parse'
           AND NOT EXISTS (SELECT 1 FROM llm_call AS a WHERE a.cache_key = r.cache_key
             AND (a.error_kind IS NULL OR a.error_kind = 'parse'))
         ORDER BY r.pair_id, r.vote_index, r.batch_id`,
      )
      .all({ study: studyId, judge }) as StoredBatchRequest[];
    return rows.map(storedBatchRequest);
  }
}
