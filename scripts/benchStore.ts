// The task database's part of `npm run bench`: `qrels-studio import` of 1M synthetic JSONL documents and of a 1M-line
// qrels file, and `qrels-studio pool` of 3 runs × 10,000 queries × depth 100, as whole CLI processes with their
// peak RSS. Import speed is printed as rows/s and as a ratio to Debian's `sqlite3` CLI importing the same rows as
// CSV (`.import --csv`) into a comparable table in the same run (installed with apt-get when missing).
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface StoreBenchRow {
  name: string;
  seconds: number;
  peakMiB: number;
  rows: number;
}

async function writeLines(file: string, count: number, line: (i: number) => string): Promise<void> {
  const stream = createWriteStream(file);
  let buffer = '';
  for (let i = 0; i < count; i++) {
    buffer += line(i);
    if (buffer.length > 1 << 16) {
      if (!stream.write(buffer)) await once(stream, 'drain');
      buffer = '';
    }
  }
  stream.end(buffer);
  await once(stream, 'finish');
}

function ensureSqlite3(): string {
  const which = spawnSync('sh', ['-c', 'command -v sqlite3'], { encoding: 'utf8' });
  if (which.status === 0) return which.stdout.trim();
  console.log('installing sqlite3 (apt-get) for the import baseline…');
  spawnSync('sh', ['-c', 'apt-get update -qq && apt-get install -y -qq sqlite3'], { stdio: 'inherit' });
  const again = spawnSync('sh', ['-c', 'command -v sqlite3'], { encoding: 'utf8' });
  if (again.status !== 0) throw new Error('sqlite3 is not installed and apt-get could not install it');
  return again.stdout.trim();
}

function timed(command: string, args: string[], cwd: string): { seconds: number; peakMiB: number; stdout: string } {
  const start = process.hrtime.bigint();
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} exited with ${result.status}:\n${result.stderr}`);
  const peak = /bench-peak-rss-kib (\d+)/.exec(result.stderr);
  return { seconds, peakMiB: peak ? Number(peak[1]) / 1024 : Number.NaN, stdout: result.stdout };
}

export async function benchStore(root: string, dataDir: string): Promise<StoreBenchRow[]> {
  const dir = join(dataDir, 'store');
  mkdirSync(dir, { recursive: true });
  const documents = 1_000_000;
  const corpus = join(dir, 'corpus-1m.jsonl');
  const corpusCsv = join(dir, 'corpus-1m.csv');
  const qrels = join(dir, 'qrels-1m.txt');
  const words = 'retrieval evaluation table query document relevance judgment pool run metric'.split(' ');
  const body = (i: number) => Array.from({ length: 40 }, (_, k) => words[(i * 7 + k * 3) % words.length]).join(' ');
  if (!existsSync(corpus)) {
    await writeLines(
      corpus,
      documents,
      (i) => `${JSON.stringify({ _id: `doc${i}`, title: `Title ${i}`, text: body(i) })}\n`,
    );
    await writeLines(corpusCsv, documents, (i) => `doc${i},Title ${i},${body(i)}\n`);
    // 10,000 queries × 100 judged documents, labels 0–2.
    await writeLines(qrels, documents, (i) => `q${Math.floor(i / 100)} 0 doc${i} ${i % 3}\n`);
    for (let r = 0; r < 3; r++) {
      await writeLines(join(dir, `run${r}.trec`), documents, (i) => {
        const q = Math.floor(i / 100);
        const rank = (i % 100) + 1;
        return `q${q} Q0 doc${(q * 37 + rank * (r + 3)) % documents} ${rank} ${(200 - rank).toFixed(3)} run${r}\n`;
      });
    }
  }
  let queries = '';
  for (let q = 0; q < 10_000; q++) queries += `${JSON.stringify({ qid: `q${q}`, text: `query ${q}` })}\n`;
  writeFileSync(join(dir, 'queries.jsonl'), queries);
  writeFileSync(
    join(dir, 'bench.assess'),
    `study "bench" {
  queries "queries.jsonl" { id: qid  text: text }
  corpus  "corpus-1m.jsonl" { id: _id  body: text  title: title }
  scale ordinal { 0 "No" key "0"  1 "Partly" key "1"  2 "Yes" key "2" }
}
`,
  );
  const cli = ['--require', join(root, 'scripts', 'benchPeakMemory.cjs'), join(root, 'bin', 'qrels-studio.cjs')];
  const rows: StoreBenchRow[] = [];

  rmSync(join(dir, '.qrels-studio'), { recursive: true, force: true });
  const imported = timed(process.execPath, [...cli, 'import', 'bench.assess'], dir);
  rows.push({ name: 'import 10k queries + 1M JSONL documents', ...imported, rows: documents + 10_000 });
  const judged = timed(
    process.execPath,
    [...cli, 'import', 'bench.assess', '--qrels', 'qrels-1m.txt', '--annotator', 'nist'],
    dir,
  );
  rows.push({ name: 'import 1M qrels lines', ...judged, rows: documents });
  const pooled = timed(
    process.execPath,
    [...cli, 'pool', 'bench.assess', ...[0, 1, 2].flatMap((r) => ['--run', `run${r}.trec`, '--depth', '100'])],
    dir,
  );
  rows.push({ name: 'pool 3 runs × 10k queries × depth 100', ...pooled, rows: 3 * documents });

  // The baseline: sqlite3 importing the same documents as CSV into a comparable table.
  const sqlite3 = ensureSqlite3();
  const baselineDb = join(dir, 'baseline.sqlite');
  rmSync(baselineDb, { force: true });
  const script =
    'PRAGMA journal_mode = WAL;\n' +
    'CREATE TABLE document (id INTEGER PRIMARY KEY, docid TEXT NOT NULL UNIQUE, title TEXT, body TEXT NOT NULL);\n' +
    'CREATE TEMP TABLE csv (docid TEXT, title TEXT, body TEXT);\n' +
    `.import --csv ${corpusCsv} csv\n` +
    'INSERT INTO document (docid, title, body) SELECT docid, title, body FROM csv;\n';
  writeFileSync(join(dir, 'baseline.sql'), script);
  const start = process.hrtime.bigint();
  const baseline = spawnSync(sqlite3, [baselineDb], { input: script, encoding: 'utf8' });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (baseline.status !== 0) throw new Error(`sqlite3 failed: ${baseline.stderr}`);
  rows.unshift({
    name: 'baseline: sqlite3 .import of the 1M documents (CSV)',
    seconds,
    peakMiB: Number.NaN,
    rows: documents,
  });
  return rows;
}
