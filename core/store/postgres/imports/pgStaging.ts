// An import's staging over PostgreSQL, as SQLite's (core/store/sqlite/studyDatabase.ts, Staging): the records of
// one batch of files are streamed with COPY into TEMP tables of the one pooled connection the import holds (a
// session's own: nothing in the study's tables is locked or written meanwhile), checked there, and moved into the
// study's tables by a few INSERT … SELECT statements in one short transaction (commit). Every check and message is
// SQLite's; rows get their ids in SQLite's order (queries in file order, documents and pairs by id bytewise,
// judgments by their staging key), so that everything read back comes out the same from both backends.
import type { PoolClient } from 'pg';
import type { ImportedRecord } from '../../../importers/types.ts';
import {
  describe,
  emptyImportReport,
  repeatedDocument,
  repeatedJudgment,
  type SecondDocument,
  type SecondJudgment,
  type StagedAnswers,
  stagedJudgment,
} from '../../importChecks.ts';
import { coarseKindOf } from '../../labelKind.ts';
import type { AnnotatorKind } from '../../port/studiesPort.ts';
import { impliedAnnotatorKind } from '../../sqlite/annotators.ts';
import {
  type ImportOrigin,
  type ImportReport,
  type PoolInput,
  type PoolReport,
  type RowCounts,
  StoreError,
} from '../../studyDatabase.ts';
import { ensureAnnotatorIdPg } from '../judge/pgRules.ts';
import { copyIn, copyLine } from './copyIn.ts';

/** Now, or a millisecond after `latest` (an ISO time) when the clock has not moved past it. */
export function laterThan(latest: string | null): string {
  const now = Date.now();
  const after = latest === null ? now : Date.parse(latest) + 1;
  return new Date(Math.max(now, after)).toISOString();
}

/** A batch of records as COPY's text, per staging table. */
export interface StagedBatch {
  queries: string;
  documents: string;
  judgments: string;
}

/**
 * A record holding a NUL character (U+0000) where PostgreSQL stores text, which cannot hold one (SQLite can): the
 * error at the record's place, naming the field, before anything is sent — COPY would fail with no place at all.
 * (Metadata and answers are stored as JSON, where a NUL is written \u0000: they keep it.)
 */
function nulCharacter(record: ImportedRecord): StoreError {
  const fields: Record<string, unknown> =
    record.kind === 'query'
      ? {
          'query id': record.qid,
          text: record.text,
          instruction: record.instruction,
          parent: record.parent,
          type: record.type,
          split: record.split,
        }
      : record.kind === 'document'
        ? {
            'document id': record.docid,
            title: record.title,
            body: record.body,
            parent: record.parent,
            format: record.format,
          }
        : {
            'query id': record.qid,
            'document id': record.docid,
            annotator: record.annotator,
            created_at: record.createdAt,
            source: record.source,
            rationale: record.rationale,
            'aspect name': Object.keys(record.aspects?.values ?? {}).find((name) => name.includes('\0')),
          };
  const field = Object.entries(fields).find(([, value]) => typeof value === 'string' && value.includes('\0'))?.[0];
  return new StoreError(
    `${describe(record.at)}: expected text without NUL characters (PostgreSQL cannot store U+0000), ` +
      `found one in the ${record.kind}'s ${field ?? (record.kind === 'judgment' ? 'annotator or file name' : 'file name')}`,
  );
}

const stagingTables = ['staged_query', 'staged_document', 'staged_judgment', 'staged_pool'] as const;

export class PgStaging {
  private readonly client: PoolClient;
  /** Where the record is, for the annotator rule's messages. */
  private readonly location: string;
  private origin: ImportOrigin = { file: '', target: '', format: '' };
  private seq = 0;
  /** Each staged query id's first place (queries are few: a repeated id is found as it comes, as SQLite does). */
  private readonly queries = new Map<string, { seq: number; line: number; at: string }>();

  constructor(client: PoolClient, location: string) {
    this.client = client;
    this.location = location;
  }

  async create(): Promise<void> {
    await this.client.query(`
      DROP TABLE IF EXISTS ${stagingTables.map((t) => `pg_temp.${t}`).join(', ')};
      CREATE TEMP TABLE staged_query (qid text COLLATE "C" NOT NULL, text text COLLATE "C" NOT NULL,
        instruction text COLLATE "C", parent_qid text COLLATE "C", type text COLLATE "C", split text COLLATE "C",
        metadata text COLLATE "C", file text COLLATE "C" NOT NULL, seq integer NOT NULL, line integer NOT NULL,
        at text COLLATE "C" NOT NULL);
      CREATE TEMP TABLE staged_document (docid text COLLATE "C" NOT NULL, title text COLLATE "C",
        body text COLLATE "C" NOT NULL, format text COLLATE "C" NOT NULL, parent_docid text COLLATE "C",
        metadata text COLLATE "C", file text COLLATE "C" NOT NULL, seq integer NOT NULL, line integer NOT NULL,
        at text COLLATE "C" NOT NULL);
      CREATE TEMP TABLE staged_judgment (qid text COLLATE "C" NOT NULL, docid text COLLATE "C" NOT NULL,
        annotator text COLLATE "C" NOT NULL, label double precision NOT NULL, created_at text COLLATE "C",
        source text COLLATE "C" NOT NULL, rationale text COLLATE "C", shown_label integer,
        file text COLLATE "C" NOT NULL, seq integer NOT NULL, line integer NOT NULL, at text COLLATE "C" NOT NULL,
        conditions text COLLATE "C", conditions_at text COLLATE "C", aspects text COLLATE "C",
        aspects_at text COLLATE "C");
      CREATE TEMP TABLE staged_pool (pool integer NOT NULL, qid text COLLATE "C" NOT NULL,
        docid text COLLATE "C" NOT NULL, rank integer NOT NULL, PRIMARY KEY (pool, qid, docid));`);
  }

  /** Drops the staging (on a connection going back to the pool). */
  async drop(): Promise<void> {
    await this.client.query(`DROP TABLE IF EXISTS ${stagingTables.map((t) => `pg_temp.${t}`).join(', ')}`);
  }

  /** The next file's records follow. */
  startFile(origin: ImportOrigin): void {
    this.origin = origin;
    this.seq++;
  }

  /** Checks a batch of records as SQLite's staging does, in record order, and COPYs them into the staging. */
  async add(batch: readonly ImportedRecord[]): Promise<void> {
    await this.send(this.encode(batch));
  }

  /**
   * Checks a batch of records as SQLite's staging does, in record order (a repeated query id, a judgment without an
   * annotator or with an unknown source is the error), and writes them as COPY's lines for `send`.
   */
  encode(batch: readonly ImportedRecord[]): StagedBatch {
    const { file } = this.origin;
    const seq = this.seq;
    const metadata = (value: Record<string, unknown>) =>
      Object.keys(value).length === 0 ? null : JSON.stringify(value);
    let queries = '';
    let documents = '';
    let judgments = '';
    for (const record of batch) {
      if (record.kind === 'query') {
        const first = this.queries.get(record.qid);
        if (first !== undefined) {
          const where = first.seq === seq ? `line ${first.line}` : first.at;
          throw new StoreError(
            `${describe(record.at)}: expected a new query id, found '${record.qid}' again (first at ${where})`,
          );
        }
        const at = describe(record.at);
        this.queries.set(record.qid, { seq, line: record.at.line, at });
        const line = copyLine([
          record.qid,
          record.text,
          record.instruction,
          record.parent,
          record.type,
          record.split,
          metadata(record.metadata),
          file,
          seq,
          record.at.line,
          at,
        ]);
        if (line.includes('\0')) throw nulCharacter(record);
        queries += line;
      } else if (record.kind === 'document') {
        const line = copyLine([
          record.docid,
          record.title,
          record.body,
          record.format,
          record.parent,
          metadata(record.metadata),
          file,
          seq,
          record.at.line,
          describe(record.at),
        ]);
        if (line.includes('\0')) throw nulCharacter(record);
        documents += line;
      } else {
        const line = copyLine(stagedJudgment(record, this.origin.annotator, file, seq));
        // An aspect's name is JSON in the line (escaped), but becomes text when the answers are stored.
        if (line.includes('\0') || Object.keys(record.aspects?.values ?? {}).some((name) => name.includes('\0'))) {
          throw nulCharacter(record);
        }
        judgments += line;
      }
    }
    return { queries, documents, judgments };
  }

  /** COPYs an encoded batch into the staging tables. */
  async send({ queries, documents, judgments }: StagedBatch): Promise<void> {
    await copyIn(this.client, 'pg_temp.staged_query', queries);
    await copyIn(this.client, 'pg_temp.staged_document', documents);
    await copyIn(this.client, 'pg_temp.staged_judgment', judgments);
  }

  /** Stages a run's pooled documents, each pair once with its best rank. */
  async addPool(pool: number, { run, queries }: PoolInput): Promise<void> {
    const best = new Map<string, number>();
    let text = '';
    for (const [qid, documents] of queries) {
      best.clear();
      for (const d of documents) best.set(d.docid, Math.min(d.rank, best.get(d.docid) ?? d.rank));
      const start = text.length;
      for (const [docid, rank] of best) text += copyLine([pool, qid, docid, rank]);
      // A run's ids with a NUL character (see nulCharacter): the run and the query say where (a pool has no lines).
      if (text.includes('\0', start)) {
        const field = qid.includes('\0') ? 'query id' : 'document id';
        throw new StoreError(
          `${run.path}: expected ids without NUL characters (PostgreSQL cannot store U+0000), ` +
            `found one in a ${field} of query '${qid.replaceAll('\0', '\\0')}'`,
        );
      }
    }
    await copyIn(this.client, 'pg_temp.staged_pool', text);
  }

  /**
   * After the last file: indexes the staged document ids and judgment keys; an id or a judgment staged twice is the
   * error it is, at its second place (SQLite's messages).
   */
  async finishFiles(): Promise<void> {
    try {
      await this.client.query('CREATE UNIQUE INDEX staged_document_id ON pg_temp.staged_document (docid)');
    } catch (error) {
      if ((error as { code?: string }).code !== '23505') throw error;
      const again = (await this.secondPlace('staged_document', 'docid')) as SecondDocument;
      throw repeatedDocument(again);
    }
    try {
      await this.client.query(
        "CREATE UNIQUE INDEX staged_judgment_key ON pg_temp.staged_judgment (qid, docid, annotator, coalesce(created_at, ''))",
      );
    } catch (error) {
      if ((error as { code?: string }).code !== '23505') throw error;
      const again = (await this.secondPlace(
        'staged_judgment',
        "qid, docid, annotator, coalesce(created_at, '')",
      )) as SecondJudgment;
      throw repeatedJudgment(again);
    }
    await this.client.query('ANALYZE pg_temp.staged_query, pg_temp.staged_document, pg_temp.staged_judgment');
  }

  /** The first row of `table` whose `key` an earlier row has, with that earlier row's position (`first`). */
  private async secondPlace(table: string, key: string): Promise<unknown> {
    const { rows } = await this.client.query(
      `WITH placed AS (
         SELECT *, row_number() OVER (PARTITION BY ${key} ORDER BY seq, line) AS n,
           first_value(at) OVER (PARTITION BY ${key} ORDER BY seq, line) AS first
         FROM pg_temp.${table}
       )
       SELECT * FROM placed WHERE n = 2 ORDER BY seq, line LIMIT 1`,
    );
    return rows[0];
  }

  /**
   * Moves the staged rows into the study's tables; runs inside the caller's transaction on this connection, which
   * holds the study's lock.
   */
  async commit(
    studyId: number,
    study: string,
    files: (ImportOrigin & { records: number })[],
    checkAnswers: (row: StagedAnswers) => void,
  ): Promise<ImportReport> {
    const client = this.client;
    const count = async (sql: string, values: unknown[] = []): Promise<number> =>
      Number(Object.values((await client.query(sql, values)).rows[0] ?? {})[0] ?? 0);
    const report = emptyImportReport(files);

    // Queries and documents: new ids added, changed ones updated, the rest unchanged (a row whose content is the same
    // is still rewritten when it now comes from another file: its source).
    const rows = async (staged: string, table: string, key: string, same: string): Promise<RowCounts> => {
      const { rows } = await client.query<{ total: number; existing: number; unchanged: number }>(
        `SELECT count(*)::integer AS total, count(t.${key})::integer AS existing,
           (count(*) FILTER (WHERE t.${key} IS NOT NULL AND ${same}))::integer AS unchanged
         FROM pg_temp.${staged} AS s LEFT JOIN ${table} AS t ON t.study_id = $1 AND t.${key} = s.${key}`,
        [studyId],
      );
      const { total, existing, unchanged } = rows[0] as { total: number; existing: number; unchanged: number };
      return { added: total - existing, updated: existing - unchanged, unchanged };
    };
    const sameQuery = `t.text IS NOT DISTINCT FROM s.text AND t.instruction IS NOT DISTINCT FROM s.instruction
      AND t.parent_qid IS NOT DISTINCT FROM s.parent_qid AND t.type IS NOT DISTINCT FROM s.type
      AND t.split IS NOT DISTINCT FROM s.split AND t.metadata IS NOT DISTINCT FROM s.metadata`;
    const sameDocument = `t.title IS NOT DISTINCT FROM s.title AND t.body IS NOT DISTINCT FROM s.body
      AND t.format IS NOT DISTINCT FROM s.format AND t.parent_docid IS NOT DISTINCT FROM s.parent_docid
      AND t.metadata IS NOT DISTINCT FROM s.metadata`;
    report.queries = await rows('staged_query', 'query', 'qid', sameQuery);
    report.documents = await rows('staged_document', 'document', 'docid', sameDocument);
    // Rows already there are updated in place; new ones inserted — queries in file order (their ids are the Label
    // view's "by query" order), documents in docid order.
    await client.query(
      `UPDATE query AS t SET text = s.text, instruction = s.instruction, parent_qid = s.parent_qid, type = s.type,
         split = s.split, metadata = s.metadata, source = s.file
       FROM pg_temp.staged_query AS s
       WHERE t.study_id = $1 AND t.qid = s.qid AND NOT (${sameQuery} AND t.source = s.file)`,
      [studyId],
    );
    await client.query(
      `INSERT INTO query (study_id, qid, text, instruction, parent_qid, type, split, metadata, source)
       SELECT $1, qid, text, instruction, parent_qid, type, split, metadata, file FROM pg_temp.staged_query AS s
       WHERE NOT EXISTS (SELECT 1 FROM query AS t WHERE t.study_id = $1 AND t.qid = s.qid)
       ORDER BY seq, line`,
      [studyId],
    );
    await client.query(
      `UPDATE document AS t SET title = s.title, body = s.body, format = s.format, parent_docid = s.parent_docid,
         metadata = s.metadata, source = s.file
       FROM pg_temp.staged_document AS s
       WHERE t.study_id = $1 AND t.docid = s.docid AND NOT (${sameDocument} AND t.source = s.file)`,
      [studyId],
    );
    await client.query(
      `INSERT INTO document (study_id, docid, title, body, format, parent_docid, metadata, source)
       SELECT $1, docid, title, body, format, parent_docid, metadata, file FROM pg_temp.staged_document AS s
       WHERE NOT EXISTS (SELECT 1 FROM document AS t WHERE t.study_id = $1 AND t.docid = s.docid)
       ORDER BY docid`,
      [studyId],
    );

    // Every label on the scale (else the first one off it, in file order, is the error).
    const scale = (
      await client.query<{ value: number }>('SELECT value FROM scale_value WHERE study_id = $1 ORDER BY value', [
        studyId,
      ])
    ).rows.map((row) => row.value);
    if (scale.length > 0) {
      const { rows: off } = await client.query<{ label: number; at: string }>(
        `SELECT label, at FROM pg_temp.staged_judgment WHERE label <> ALL ($1::double precision[])
         ORDER BY seq, line LIMIT 1`,
        [scale],
      );
      const first = off[0];
      if (first !== undefined) {
        throw new StoreError(
          `${first.at}: label ${first.label} is not on the scale of study '${study}' (${scale.join(', ')})`,
        );
      }
    }
    // The answers a label file carries, checked against the study (its queries, now in, give the condition counts).
    const { rows: answers } = await client.query<{
      qid: string;
      conditions: string | null;
      conditions_at: string | null;
      aspects: string | null;
      aspects_at: string | null;
      q_qid: string | null;
      text: string;
      instruction: string | null;
      type: string | null;
      metadata: string | null;
    }>(
      `SELECT s.qid, s.conditions, s.conditions_at, s.aspects, s.aspects_at,
         q.qid AS q_qid, q.text, q.instruction, q.type, q.metadata
       FROM pg_temp.staged_judgment AS s LEFT JOIN query AS q ON q.study_id = $1 AND q.qid = s.qid
       WHERE s.conditions IS NOT NULL OR s.aspects IS NOT NULL ORDER BY s.seq, s.line`,
      [studyId],
    );
    for (const row of answers) {
      checkAnswers({
        qid: row.qid,
        query:
          row.q_qid === null
            ? undefined
            : { qid: row.q_qid, text: row.text, instruction: row.instruction, type: row.type, metadata: row.metadata },
        conditions: row.conditions === null ? undefined : (JSON.parse(row.conditions) as boolean[]),
        conditionsAt: row.conditions_at ?? '',
        aspects: row.aspects === null ? undefined : (JSON.parse(row.aspects) as Record<string, boolean | number>),
        aspectsAt: row.aspects_at ?? '',
      });
    }
    // (An annotator is added with their first judgment: one not in the annotator table has judged nothing.)
    const judgedBefore =
      (await count(
        `SELECT EXISTS (SELECT 1 FROM annotator WHERE name IN (SELECT annotator FROM pg_temp.staged_judgment))::integer`,
      )) === 1;
    // Later than every judgment there is, so that a changed label is the current one even within a millisecond.
    const latest = (await client.query<{ latest: string | null }>('SELECT max(created_at) AS latest FROM judgment'))
      .rows[0]?.latest;
    const now = laterThan(latest ?? null);
    // New pairs in (qid, docid) order, as SQLite adds them (through the staging key's index).
    await client.query(
      `INSERT INTO pair (study_id, qid, docid)
       SELECT $1, qid, docid FROM pg_temp.staged_judgment AS s
       WHERE NOT EXISTS (SELECT 1 FROM pair AS p WHERE p.study_id = $1 AND p.qid = s.qid AND p.docid = s.docid)
       GROUP BY qid, docid ORDER BY qid, docid
       ON CONFLICT (study_id, qid, docid) DO NOTHING`,
      [studyId],
    );
    // The files' annotators, through the one annotator rule: a declared kind first, then the names of files that
    // declare none, added with the kind their name implies when new; each file's names in the order they first come.
    const annotatorsOf = async (seq: number): Promise<string[]> =>
      (
        await client.query<{ annotator: string }>(
          `SELECT annotator FROM pg_temp.staged_judgment WHERE seq = $1 GROUP BY annotator ORDER BY min(line)`,
          [seq],
        )
      ).rows.map((row) => row.annotator);
    for (const [i, file] of files.entries()) {
      if (file.kind === undefined) continue;
      for (const name of await annotatorsOf(i + 1)) {
        const id = await ensureAnnotatorIdPg(client, this.location, name, coarseKindOf(file.kind));
        await client.query('UPDATE annotator SET label_kind = $1 WHERE id = $2', [file.kind, id]);
      }
    }
    for (const [i, file] of files.entries()) {
      if (file.kind !== undefined) continue;
      for (const name of await annotatorsOf(i + 1)) {
        const recorded = (
          await client.query<{ kind: AnnotatorKind }>('SELECT kind FROM annotator WHERE name = $1', [name])
        ).rows[0]?.kind;
        await ensureAnnotatorIdPg(client, this.location, name, recorded ?? impliedAnnotatorKind(name));
      }
    }
    // A file without times (TREC qrels) is stamped with the import time; a row is added only when its label differs
    // from the latest imported judgment (not retracted) of that annotator for the pair (see SQLite's commit).
    const unlessImportedBefore = judgedBefore
      ? `AND NOT (s.created_at IS NULL AND (
           SELECT i.label FROM judgment AS i
           WHERE i.pair_id = p.id AND i.annotator_id = a.id AND i.source = 'imported'
             AND NOT EXISTS (SELECT 1 FROM judgment_retraction AS r WHERE r.judgment_id = i.id)
           ORDER BY i.created_at DESC, i.id DESC LIMIT 1) IS NOT DISTINCT FROM s.label)`
      : '';
    // The judgments not there yet, in the staging key's order (SQLite inserts them through that index: their ids, which
    // order labels given at the same time, follow it); the added ones (their ids) kept for their answers.
    await client.query(
      `CREATE TEMP TABLE staged_added (id integer NOT NULL, pair_id integer NOT NULL, annotator_id integer NOT NULL,
         created_at text COLLATE "C" NOT NULL) ON COMMIT DROP`,
    );
    const inserted = await client.query(
      `WITH added AS (
         INSERT INTO judgment (pair_id, annotator_id, label, created_at, source, rationale, shown_label)
         SELECT p.id, a.id, s.label, coalesce(s.created_at, $2), s.source, s.rationale, s.shown_label
         FROM pg_temp.staged_judgment AS s
         JOIN pair AS p ON p.study_id = $1 AND p.qid = s.qid AND p.docid = s.docid
         JOIN annotator AS a ON a.name = s.annotator
         WHERE NOT EXISTS (
             SELECT 1 FROM judgment AS x
             WHERE x.pair_id = p.id AND x.annotator_id = a.id AND x.created_at = coalesce(s.created_at, $2))
           ${unlessImportedBefore}
         ORDER BY s.qid, s.docid, s.annotator, coalesce(s.created_at, '')
         ON CONFLICT (pair_id, annotator_id, created_at) DO NOTHING
         RETURNING id, pair_id, annotator_id, created_at)
       INSERT INTO pg_temp.staged_added SELECT id, pair_id, annotator_id, created_at FROM added`,
      [studyId, now],
    );
    const added = inserted.rowCount ?? 0;
    // The added judgments' answers, stored as the Label view stores them: condition i (1-based) satisfied 1/0, an
    // aspect's answer 1/0 or its level.
    const addedRows = `FROM pg_temp.staged_judgment AS s
       JOIN pair AS p ON p.study_id = $1 AND p.qid = s.qid AND p.docid = s.docid
       JOIN annotator AS a ON a.name = s.annotator
       JOIN pg_temp.staged_added AS j ON j.pair_id = p.id AND j.annotator_id = a.id
         AND j.created_at = coalesce(s.created_at, $2)`;
    await client.query(
      `INSERT INTO condition_judgment (judgment_id, condition, satisfied)
       SELECT j.id, e.place, CASE WHEN e.value::boolean THEN 1 ELSE 0 END ${addedRows}
       CROSS JOIN LATERAL json_array_elements_text(s.conditions::json) WITH ORDINALITY AS e (value, place)
       WHERE s.conditions IS NOT NULL`,
      [studyId, now],
    );
    await client.query(
      `INSERT INTO aspect_judgment (judgment_id, aspect, answer)
       SELECT j.id, e.key, CASE json_typeof(e.value) WHEN 'boolean' THEN CASE WHEN (e.value::text)::boolean THEN 1 ELSE 0 END
         ELSE (e.value::text)::numeric::integer END ${addedRows}
       CROSS JOIN LATERAL json_each(s.aspects::json) AS e
       WHERE s.aspects IS NOT NULL`,
      [studyId, now],
    );
    const judgments = await count('SELECT count(*)::integer FROM pg_temp.staged_judgment');
    report.judgments = { added, updated: 0, unchanged: judgments - added };

    for (const file of files) {
      await client.query(
        'INSERT INTO import_log (study_id, at, file, target, format, records) VALUES ($1, $2, $3, $4, $5, $6)',
        [studyId, now, file.file, file.target, file.format, file.records],
      );
    }
    return report;
  }

  /** Moves pool `index` (staged by addPool) into the study's pairs, inside the caller's transaction. */
  async pool(studyId: number, index: number, { run, queries }: PoolInput): Promise<PoolReport> {
    const client = this.client;
    const count = async (sql: string, values: unknown[]): Promise<number> =>
      Number(Object.values((await client.query(sql, values)).rows[0] ?? {})[0] ?? 0);
    const before = await count('SELECT count(*)::integer FROM pair WHERE study_id = $1', [studyId]);
    const { rows } = await client.query<{ id: number }>(
      `INSERT INTO run (study_id, path, tag, depth) VALUES ($1, $2, $3, $4)
       ON CONFLICT (study_id, path) DO UPDATE SET tag = excluded.tag, depth = excluded.depth RETURNING id`,
      [studyId, run.path, run.tag, run.depth],
    );
    const runId = (rows[0] as { id: number }).id;
    // A pair there keeps its best rank; new pairs are added in (qid, docid) order, as SQLite adds them.
    await client.query(
      `UPDATE pair AS p SET best_rank = s.rank FROM pg_temp.staged_pool AS s
       WHERE s.pool = $2 AND p.study_id = $1 AND p.qid = s.qid AND p.docid = s.docid
         AND (p.best_rank IS NULL OR p.best_rank > s.rank)`,
      [studyId, index],
    );
    await client.query(
      `INSERT INTO pair (study_id, qid, docid, best_rank)
       SELECT $1, qid, docid, rank FROM pg_temp.staged_pool AS s
       WHERE s.pool = $2
         AND NOT EXISTS (SELECT 1 FROM pair AS p WHERE p.study_id = $1 AND p.qid = s.qid AND p.docid = s.docid)
       ORDER BY qid, docid
       ON CONFLICT (study_id, qid, docid) DO UPDATE
         SET best_rank = least(coalesce(pair.best_rank, excluded.best_rank), excluded.best_rank)`,
      [studyId, index],
    );
    await client.query(
      `INSERT INTO pair_origin (pair_id, run_id, rank)
       SELECT p.id, $1, s.rank FROM pg_temp.staged_pool AS s
       JOIN pair AS p ON p.study_id = $2 AND p.qid = s.qid AND p.docid = s.docid WHERE s.pool = $3
       ON CONFLICT (pair_id, run_id) DO UPDATE SET rank = excluded.rank`,
      [runId, studyId, index],
    );
    const after = await count('SELECT count(*)::integer FROM pair WHERE study_id = $1', [studyId]);
    return {
      run: run.path,
      depth: run.depth,
      queries: queries.size,
      pooled: await count('SELECT count(*)::integer FROM pg_temp.staged_pool WHERE pool = $1', [index]),
      added: after - before,
      pairs: after,
    };
  }
}
