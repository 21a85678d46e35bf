// The PostgreSQL part of `npm run bench`, on a throwaway cluster of its own (test/pg/pgCluster.ts, removed at the end):
//  (1) import of 1M JSONL documents (realistic ids and text, as benchStore.ts) through the imports port, against
//      `psql \copy` of the same rows (COPY text, prepared beforehand) into a table like `document` (same columns,
//      indexes, checks and foreign key), interleaved A/B in fresh databases, medians compared as throughput (rows/s);
//  (2) 8 annotator processes × 2,000 labels on one study with overlap 2 (test/core/store/postgres/labellerRace.ts,
//      the worker the concurrency test runs): commit latency p50/p95, and the lost/duplicate checks.
// Without PostgreSQL (no initdb, no psql) it says so and returns no rows.
// Alone: node scripts/benchPostgres.ts  (QRELS_STUDIO_BENCH_PG_DOCUMENTS, …_ROUNDS, …_ANNOTATORS, …_LABELS to scale;
// 0 documents or 0 annotators leaves that part out)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { parseStudyFile, resolveStudies } from '../core/dsl/index.ts';
import { readImport } from '../core/importers/registry.ts';
import { PostgresStudyStore } from '../core/store/postgres/postgresStudyStore.ts';
import type { RaceCounts } from '../test/core/store/postgres/labellerRace.ts';
import { type Cluster, clusterVariable, postgresBinDir, startCluster } from '../test/pg/pgCluster.ts';
import { writeNumberedLines } from './benchData.ts';

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export interface PostgresImportBench {
  documents: number;
  /** Seconds of each round's import through the port (reading and parsing the JSONL included). */
  ours: number[];
  /** Seconds of each round's `psql \copy` into a table like `document` (the psql process included). */
  psql: number[];
  /** The same without the table's foreign key to `study` (a check per row, which `document` has): for reference. */
  psqlNoForeignKey: number[];
}

const studyText = (corpus: string) => `study "bench" {
  corpus "${corpus}" { id: _id  body: text  title: title }
  scale ordinal { 0 "No" key "0"  1 "Yes" key "1" }
}
`;

/** (1): our import of `documents` JSONL documents vs `psql \copy` of the same rows, `rounds` times each, interleaved. */
export async function benchPostgresImport(
  cluster: Cluster,
  dir: string,
  documents: number,
  rounds: number,
): Promise<PostgresImportBench> {
  mkdirSync(dir, { recursive: true });
  const corpus = join(dir, `corpus-${documents}.jsonl`);
  const copyText = join(dir, `corpus-${documents}.copy`);
  const words = 'retrieval evaluation table query document relevance judgment pool run metric'.split(' ');
  const body = (i: number) => Array.from({ length: 40 }, (_, k) => words[(i * 7 + k * 3) % words.length]).join(' ');
  const docid = (i: number) => `doc${i}`;
  if (!existsSync(corpus) || !existsSync(copyText)) {
    await writeNumberedLines(
      corpus,
      documents,
      (i) => `${JSON.stringify({ _id: docid(i), title: `Title ${i}`, text: body(i) })}\n`,
    );
    // The rows our import writes into `document`: study 1, no metadata, the file as the source.
    await writeNumberedLines(
      copyText,
      documents,
      (i) => `1\t${docid(i)}\tTitle ${i}\t${body(i)}\tplain\t\\N\t\\N\tcorpus.jsonl\n`,
    );
  }
  const studyFile = join(dir, 'bench.assess');
  writeFileSync(studyFile, studyText(corpus));
  const admin = new pg.Client({ host: cluster.host, port: cluster.port, user: cluster.user, database: 'postgres' });
  await admin.connect();
  let databases = 0;
  /** A fresh database with the study in it (migrated, synced): its store. */
  const freshStore = async (): Promise<PostgresStudyStore> => {
    const database = `bench_${++databases}`;
    await admin.query(`CREATE DATABASE ${database}`);
    const store = await PostgresStudyStore.open({
      connection: { host: cluster.host, port: cluster.port, user: cluster.user, database },
    });
    await store.studies.sync(resolveStudies(parseStudyFile(studyText(corpus)), studyFile));
    return store;
  };
  /** `psql \copy` of the same rows into `table` of `database`; its seconds. */
  const psqlCopy = (database: string, table: string): number => {
    const start = performance.now();
    const copied = spawnSync(
      'psql',
      [
        ...['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-h', cluster.host, '-p', String(cluster.port)],
        ...['-U', cluster.user, '-d', database, '-c'],
        `\\copy ${table} (study_id, docid, title, body, format, parent_docid, metadata, source) FROM '${copyText}'`,
      ],
      { encoding: 'utf8' },
    );
    const seconds = (performance.now() - start) / 1000;
    if (copied.status !== 0) throw new Error(`psql \\copy failed: ${copied.stderr}`);
    return seconds;
  };
  const result: PostgresImportBench = { documents, ours: [], psql: [], psqlNoForeignKey: [] };
  const kinds = ['ours', 'psql', 'psqlNoForeignKey'] as const;
  try {
    for (let round = 0; round < rounds; round++) {
      // Interleaved, each round in another order: none always runs first (a warm cache, a checkpoint).
      const order = kinds.map((_, i) => kinds[(i + round) % kinds.length]!);
      for (const which of order) {
        const store = await freshStore();
        const { database } = store.connection as { database: string };
        try {
          if (which === 'ours') {
            const start = performance.now();
            const report = await store.imports.importBatch('bench', [
              {
                records: readImport(corpus, {
                  target: 'corpus',
                  name: 'corpus.jsonl',
                  idsCheckedByCaller: true,
                  mapping: { id: '_id', body: 'text', title: 'title' },
                }),
                origin: { file: 'corpus.jsonl', target: 'corpus', format: 'jsonl' },
              },
            ]);
            result.ours.push((performance.now() - start) / 1000);
            if (report.documents.added !== documents) throw new Error(`imported ${report.documents.added} documents`);
          } else {
            // A table like `document`: its columns, identity, checks and indexes, and (psql) its foreign key.
            const foreignKey = which === 'psql' ? ', FOREIGN KEY (study_id) REFERENCES study (id)' : '';
            await store.pool.query(`CREATE TABLE baseline_document (LIKE document INCLUDING ALL${foreignKey})`);
            result[which].push(psqlCopy(database, 'baseline_document'));
          }
        } finally {
          await store.close();
          await admin.query(`DROP DATABASE ${database}`);
        }
      }
    }
  } finally {
    await admin.end();
  }
  return result;
}

export interface PostgresLabellingBench {
  annotators: number;
  labelsEach: number;
  pairs: number;
  /** Each confirmed label's commit, ms. */
  commitMs: number[];
  elapsedMs: number;
  counts: RaceCounts;
}

/** (2): `annotators` processes × `labelsEach` labels on one study, overlap 2 (labellerRace.ts, as the test runs it). */
export async function benchPostgresLabelling(annotators: number, labelsEach: number): Promise<PostgresLabellingBench> {
  // Loaded here: its SQLite fixture needs dist/native (npm run build), which the import bench does not.
  const { raceCounts, raceStudy, runRace } = await import('../test/core/store/postgres/labellerRace.ts');
  const race = await raceStudy(annotators, labelsEach, 20_000);
  try {
    const pairs = (await race.pool.query<{ n: number }>('SELECT count(*)::integer AS n FROM pair')).rows[0]!.n;
    const run = await runRace(race, labelsEach);
    return {
      annotators,
      labelsEach,
      pairs,
      commitMs: run.results.flatMap((r) => r.confirmed.map((c) => c.ms)),
      elapsedMs: run.elapsedMs,
      counts: await raceCounts(race, run),
    };
  } finally {
    await race.pool.end();
  }
}

/** Whether this machine has PostgreSQL's server and psql; else why not. */
export function postgresMissing(): string | undefined {
  if (postgresBinDir() === undefined) return 'PostgreSQL is not installed (no initdb): apt-get install -y postgresql';
  if (spawnSync('sh', ['-c', 'command -v psql']).status !== 0)
    return 'psql is not installed: apt-get install -y postgresql-client';
  return undefined;
}

/**
 * Both benches on a throwaway cluster of this process (removed at the end, or when PostgreSQL is missing, nothing):
 * the lines `npm run bench` prints.
 */
export async function benchPostgres(dataDir: string): Promise<string[]> {
  const missing = postgresMissing();
  if (missing !== undefined) return [`PostgreSQL benches skipped: ${missing}`];
  const documents = Number(process.env.QRELS_STUDIO_BENCH_PG_DOCUMENTS ?? 1_000_000);
  const rounds = Number(process.env.QRELS_STUDIO_BENCH_PG_ROUNDS ?? 3);
  const annotators = Number(process.env.QRELS_STUDIO_BENCH_PG_ANNOTATORS ?? 8);
  const labelsEach = Number(process.env.QRELS_STUDIO_BENCH_PG_LABELS ?? 2000);
  const cluster = await startCluster();
  const stop = () => cluster.stop();
  process.once('exit', stop);
  try {
    const lines: string[] = [];
    if (documents > 0) {
      const imported = await benchPostgresImport(cluster, join(dataDir, 'postgres'), documents, rounds);
      const rate = (seconds: number[]) => documents / median(seconds);
      const row = (name: string, seconds: number[], rest: string) =>
        `${name.padEnd(44)} ${median(seconds).toFixed(3).padStart(7)} s  ${Math.round(rate(seconds)).toLocaleString('en').padStart(10)} rows/s  ${rest}`;
      const all = (seconds: number[]) => `(all: ${seconds.map((s) => s.toFixed(1)).join(', ')} s)`;
      const count = documents.toLocaleString('en');
      lines.push(`PostgreSQL 15, throwaway cluster; ${count} documents, median of ${rounds} interleaved rounds:`);
      lines.push(row('  baseline: psql \\copy, table like document', imported.psql, all(imported.psql)));
      lines.push(
        row(
          `  PG import ${count} JSONL documents`,
          imported.ours,
          `${(rate(imported.ours) / rate(imported.psql)).toFixed(2)}× psql \\copy rows/s   target ≥ 0.5×  ${all(imported.ours)}`,
        ),
      );
      lines.push(
        row(
          '  psql \\copy, the same without its FK',
          imported.psqlNoForeignKey,
          `import at ${(rate(imported.ours) / rate(imported.psqlNoForeignKey)).toFixed(2)}× of it, for reference`,
        ),
      );
    }
    if (annotators > 0) {
      // The labelling race needs the study's SQLite fixture (dist/native) and a database of this cluster.
      process.env[clusterVariable] = JSON.stringify({ host: cluster.host, port: cluster.port, user: cluster.user });
      const labelling = await benchPostgresLabelling(annotators, labelsEach);
      const { latencyPercentile } = await import('../test/core/store/postgres/labellerRace.ts');
      const { counts } = labelling;
      lines.push(
        `${`PG ${annotators} annotators × ${labelsEach.toLocaleString('en')} labels, overlap 2`.padEnd(44)} ` +
          `commit p50 ${latencyPercentile(labelling.commitMs, 0.5).toFixed(1)} ms  p95 ${latencyPercentile(labelling.commitMs, 0.95).toFixed(1)} ms  ` +
          `(${counts.confirmed.toLocaleString('en')} labels on ${labelling.pairs.toLocaleString('en')} pairs in ${(labelling.elapsedMs / 1000).toFixed(1)} s)`,
      );
      lines.push(
        `${'  checks'.padEnd(44)} ${counts.lost} lost, ${counts.duplicate} duplicate, ${counts.unconfirmed} unconfirmed, ` +
          `${counts.misassigned} pairs not assigned to exactly 2   target all 0`,
      );
    }
    return lines;
  } finally {
    process.removeListener('exit', stop);
    cluster.stop();
  }
}

if (process.argv[1] === import.meta.filename) {
  for (const line of await benchPostgres(join(import.meta.dirname, '..', 'bench-data'))) console.log(line);
}
