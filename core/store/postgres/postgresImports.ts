// The imports port over PostgreSQL: all or nothing, streaming. An import holds one pooled connection of its own from
// start to end: its records are COPYed into that session's TEMP staging tables (imports/pgStaging.ts) as the files
// are read — nothing of the study is locked or written meanwhile — then checked there and moved into the study's
// tables in one short transaction under the study's advisory lock (run again after a serialization failure or a
// deadlock: the staging is still there). Any error, or a cancel, leaves the record exactly as it was: a connection
// that failed (mid-COPY, mid-transaction) is closed instead of going back to the pool, and its staging goes with it.
//
// Speed (issue 21: ≥ 0.5× `psql \copy`; scripts/benchPostgres.ts measures it). The staging stays. Measured on 1M
// documents (scratch runs, EXPLAIN ANALYZE): the move `INSERT … SELECT` from the staging costs about what `psql \copy`
// of the same rows into a table like `document` costs (the planner reads the staging in docid order through its unique
// index, no sort); most of either is the foreign key's check of every row (study_id → study), which `document` has. The
// import as a whole reached 0.64–1.0× of that `\copy` in single runs on a busy 2-core machine (0.68× as the median of 3
// interleaved rounds; 0.31× of a `\copy` into the same table without the foreign key). Not taken: COPY straight into
// `document` would hold the study's lock while the files are read; dropping and rebuilding indexes or the
// foreign key takes an ACCESS EXCLUSIVE lock on `document`, which would stop every reader of every study in the
// database. Not tried: COPY BINARY, larger chunks (this process already parses the next batch while the server takes
// the last one, and the server's per-row work dominates).
import type { ImportedRecord } from '../../importers/types.ts';
import { BatchImports, type ImportFiles, stageFiles } from '../batchImports.ts';
import { checkAnswers } from '../importChecks.ts';
import type { RunCoverage } from '../port/importsPort.ts';
import {
  type AnswerRules,
  ImportCancelledError,
  type ImportReport,
  type PoolInput,
  StoreError,
} from '../studyDatabase.ts';
import { lockInSchema } from './advisoryLocks.ts';
import { PgStaging } from './imports/pgStaging.ts';
import { studyIdPg } from './judge/pgRules.ts';
import {
  isConnectionLost,
  isRetriedFailure,
  type PostgresClient,
  type PostgresContext,
  RecordUnreachableError,
} from './postgresContext.ts';

/** Records collected before they are checked and COPYed into the staging. */
const stagingBatch = 10_000;

/** Times the final transaction is run again after a serialization failure or a deadlock. */
const maxAttempts = 8;

export class PostgresImports extends BatchImports {
  protected readonly context: PostgresContext;

  constructor(context: PostgresContext) {
    super();
    this.context = context;
  }

  async importBatch(
    study: string,
    files: ImportFiles,
    pools: readonly PoolInput[] = [],
    signal?: AbortSignal,
    answers?: AnswerRules,
  ): Promise<ImportReport> {
    const { location } = this.context;
    let client: PostgresClient;
    try {
      client = await this.context.pool.connect();
    } catch (error) {
      throw isConnectionLost(error) ? new RecordUnreachableError(location, error) : error;
    }
    let failed = false;
    // The pool listens for a connection's errors only while it is idle: one that breaks while the import holds it
    // (server stopped, connection killed) would emit an error nobody catches, which ends the process. Caught here:
    // the statement or COPY running fails with it, and the import rejects.
    let broken: Error | undefined;
    const onError = (error: Error): void => {
      broken = error;
    };
    client.on('error', onError);
    /** Set once the final transaction's COMMIT is sent: a connection lost after that may have committed it. */
    const commitState = { sent: false };
    try {
      const studyId = await studyIdPg(client, location, study);
      const staging = new PgStaging(client, location);
      await staging.create();
      const checkSignal = () => {
        if (signal?.aborted) throw new ImportCancelledError();
      };
      // A batch is checked and encoded here, then sent while the next one is read: the server takes one COPY while
      // this process parses the next batch (one COPY at a time on the connection).
      let sending: Promise<void> = Promise.resolve();
      const send = async (batch: readonly ImportedRecord[]) => {
        const encoded = staging.encode(batch);
        await sending;
        sending = staging.send(encoded);
        // Awaited before the next batch or after the last; a failure meanwhile is not an unhandled rejection.
        sending.catch(() => {});
      };
      const counted = await stageFiles(
        files,
        { startFile: (origin) => staging.startFile(origin), add: send },
        stagingBatch,
        checkSignal,
      );
      await sending;
      await staging.finishFiles();
      for (const [i, pool] of pools.entries()) {
        checkSignal();
        await staging.addPool(i, pool);
      }
      checkSignal();
      const report = await this.commit(client, commitState, async () => {
        // The moves sort whole staged tables (documents by id): in memory, not in temporary files.
        await client.query("SET LOCAL work_mem = '256MB'");
        await lockInSchema(client, 'study', studyId);
        const report = await staging.commit(studyId, study, counted, (row) => checkAnswers(row, study, answers));
        for (const [i, pool] of pools.entries()) report.pools.push(await staging.pool(studyId, i, pool));
        await this.context.notify(client, { what: 'imports', study });
        return report;
      });
      commitState.sent = false;
      // The import is committed: if the connection drops now, its staging goes with the session.
      await staging.drop().catch((error: unknown) => {
        if (!isConnectionLost(error) && broken === undefined) throw error;
        failed = true;
      });
      this.context.changed({ what: 'imports', study });
      return report;
    } catch (error) {
      failed = true;
      if (isConnectionLost(error) || (broken !== undefined && !(error instanceof StoreError))) {
        // Lost while the final transaction's COMMIT may have reached the server: it may be committed.
        throw new RecordUnreachableError(location, error, commitState.sent);
      }
      throw error;
    } finally {
      // A failed import's connection is closed: whatever state it is in (a COPY cut short, a transaction aborted),
      // its session and its TEMP tables end with it.
      client.release(failed ? (broken ?? true) : undefined);
      // A broken connection keeps the listener: its socket may still report the reset after it is let go.
      if (!failed) client.removeListener('error', onError);
    }
  }

  /** `fn` in one transaction on the import's own connection, run again after a serialization failure or deadlock. */
  private async commit<T>(client: PostgresClient, state: { sent: boolean }, fn: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      await client.query('BEGIN');
      try {
        const result = await fn();
        state.sent = true;
        await client.query('COMMIT');
        return result;
      } catch (error) {
        try {
          await client.query('ROLLBACK');
        } catch {
          // The connection is gone: the transaction went with it; the import's error is the one to report.
          throw error;
        }
        if (attempt < maxAttempts && isRetriedFailure(error)) {
          state.sent = false;
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * 2 ** attempt));
          continue;
        }
        throw error;
      }
    }
  }

  pooledNotInCorpus(study: string, runs: readonly string[], examples = 3): Promise<RunCoverage[]> {
    return this.context.transaction(
      async (client) => {
        const studyId = await studyIdPg(client, this.context.location, study);
        const { rows } = await client.query<{ corpus: number; missing: number; examples: string[] | null }>(
          `WITH missing AS (
             SELECT DISTINCT r.path, p.docid FROM pair_origin AS o
             JOIN run AS r ON r.id = o.run_id JOIN pair AS p ON p.id = o.pair_id
             WHERE r.study_id = $1 AND r.path = ANY ($2::text[])
               AND NOT EXISTS (SELECT 1 FROM document AS d WHERE d.study_id = r.study_id AND d.docid = p.docid)
           ), ranked AS (
             SELECT path, docid, row_number() OVER (PARTITION BY path ORDER BY docid COLLATE "C") AS place FROM missing
           )
           SELECT runs.place, (SELECT count(*)::integer FROM document WHERE study_id = $1) AS corpus,
             (SELECT count(*)::integer FROM ranked WHERE ranked.path = runs.path) AS missing,
             (SELECT array_agg(docid ORDER BY place) FROM ranked WHERE ranked.path = runs.path AND place <= $3)
               AS examples
           FROM unnest($2::text[]) WITH ORDINALITY AS runs (path, place)
           ORDER BY runs.place`,
          [studyId, runs, examples],
        );
        return rows.map((row) => ({ corpusSize: row.corpus, missing: row.missing, examples: row.examples ?? [] }));
      },
      { isolation: 'repeatable read', readOnly: true },
    );
  }
}
