import { BatchImports, type ImportFiles } from '../batchImports.ts';
import type { RunCoverage } from '../port/importsPort.ts';
import type { AnswerRules, ImportReport, PoolInput } from '../studyDatabase.ts';
import type { SqliteContext } from './sqliteContext.ts';

export class SqliteImports extends BatchImports {
  protected readonly context: SqliteContext;
  private statements: ReturnType<SqliteImports['prepare']> | undefined;
  /**
   * The import running on this connection, if any. Staging tables are the connection's own TEMP tables, so two
   * imports on one connection (a review's items and a study's declared sources, both run in the extension's store
   * worker) take turns instead of sharing them.
   */
  private running: Promise<unknown> = Promise.resolve();

  constructor(context: SqliteContext) {
    super();
    this.context = context;
  }

  private get sql() {
    this.statements ??= this.prepare();
    return this.statements;
  }

  private prepare() {
    const { db } = this.context;
    const missing = `
      SELECT DISTINCT p.docid FROM pair_origin AS o
      JOIN run AS r ON r.id = o.run_id JOIN pair AS p ON p.id = o.pair_id
      WHERE r.study_id = ? AND r.path = ?
        AND NOT EXISTS (SELECT 1 FROM document AS d WHERE d.study_id = r.study_id AND d.docid = p.docid)`;
    return {
      corpusSize: db.prepare('SELECT count(*) FROM document WHERE study_id = ?').pluck(),
      missing: db.prepare(`SELECT count(*) FROM (${missing})`).pluck(),
      firstMissing: db.prepare(`${missing} ORDER BY p.docid LIMIT ?`).pluck(),
    };
  }

  async importBatch(
    study: string,
    files: ImportFiles,
    pools: readonly PoolInput[] = [],
    signal?: AbortSignal,
    answers?: AnswerRules,
  ): Promise<ImportReport> {
    const turn = this.running.then(() => this.context.database.importBatch(study, files, pools, signal, answers));
    this.running = turn.catch(() => {});
    const report = await turn;
    this.context.changed({ what: 'imports', study });
    return report;
  }

  async pooledNotInCorpus(study: string, runs: readonly string[], examples = 3): Promise<RunCoverage[]> {
    const sql = this.sql;
    return this.context.db.transaction(() => {
      const studyId = this.context.database.studyId(study);
      const corpusSize = sql.corpusSize.get(studyId) as number;
      return runs.map((run) => ({
        corpusSize,
        missing: sql.missing.get(studyId, run) as number,
        examples: sql.firstMissing.all(studyId, run, examples) as string[],
      }));
    })();
  }

  /**
   * The tables in this store's connection's temp database (an import's staging while it runs; none after it,
   * whatever its end). The adapter's own: not part of the port, for the tests of the staging.
   */
  stagingTables(): string[] {
    return this.context.db
      .prepare("SELECT name FROM sqlite_temp_master WHERE type = 'table'")
      .pluck()
      .all() as string[];
  }
}
