// The task database's part of `npm run bench`: `qrels-studio import` of 1M synthetic JSONL documents and of a 1M-line
// qrels file, and `qrels-studio pool` of 3 runs × 10,000 queries × depth 100, as whole CLI processes with their
// peak RSS. Ids are as long as MS MARCO v2's (`msmarco_passage_NN_NNNNNNNNN`, 28 bytes; numeric qids). The document
// import is compared with Debian's `sqlite3` CLI importing the same rows as CSV (`.import --csv`) into a comparable
// table, the two interleaved in the same rounds (ours, sqlite3; sqlite3, ours; …), each from an empty database in
// the same folder (same disk, same temp directory), printed as ratios taken within each round (the two ran seconds
// apart, so a neighbour's burst weighs on both) and their median over the rounds, with the lowest and highest:
// sqlite3's wall time over ours (≥ 1 is faster than sqlite3), the same for CPU time (user + system: what a busy
// machine disturbs least), and our peak RSS over its. Without sqlite3 on the PATH the rows say so and print no
// ratio (install it: `apt-get install sqlite3`). BENCH_IMPORT_REPETITIONS rounds (default 5, ~45 s each).
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeNumberedLines } from './benchData.ts';
import { findCommand, loadNote, pairedRatio, timeInterleaved, timeOnce } from './benchInterleaved.ts';

/** MS MARCO v2-style passage id of document `n`: 28 bytes, like the ids the readers meet in practice. */
const docid = (n: number): string =>
  `msmarco_passage_${String(n % 70).padStart(2, '0')}_${String(100000000 + n * 7919).slice(0, 9)}`;
const qid = (q: number): string => String(1000000 + q * 37);

const seconds = (s: number): string => `${s.toFixed(3).padStart(7)} s`;
const mebibytes = (m: number): string => (Number.isNaN(m) ? '    ?' : m.toFixed(0).padStart(5));

export async function benchStore(root: string, dataDir: string): Promise<string[]> {
  const dir = join(dataDir, 'store-msmarco');
  mkdirSync(dir, { recursive: true });
  const documents = 1_000_000;
  const repetitions = Number(process.env.BENCH_IMPORT_REPETITIONS ?? 5);
  const corpus = join(dir, 'corpus-1m.jsonl');
  const corpusCsv = join(dir, 'corpus-1m.csv');
  const qrels = join(dir, 'qrels-1m.txt');
  const words = 'retrieval evaluation table query document relevance judgment pool run metric'.split(' ');
  const body = (i: number) => Array.from({ length: 40 }, (_, k) => words[(i * 7 + k * 3) % words.length]).join(' ');
  if (!existsSync(join(dir, 'run2.trec'))) {
    await writeNumberedLines(
      corpus,
      documents,
      (i) => `${JSON.stringify({ _id: docid(i), title: `Title ${i}`, text: body(i) })}\n`,
    );
    await writeNumberedLines(corpusCsv, documents, (i) => `${docid(i)},Title ${i},${body(i)}\n`);
    // 10,000 queries × 100 judged documents, labels 0–2.
    await writeNumberedLines(qrels, documents, (i) => `${qid(Math.floor(i / 100))} 0 ${docid(i)} ${i % 3}\n`);
    for (let r = 0; r < 3; r++) {
      await writeNumberedLines(join(dir, `run${r}.trec`), documents, (i) => {
        const q = Math.floor(i / 100);
        const rank = (i % 100) + 1;
        return `${qid(q)} Q0 ${docid((q * 37 + rank * (r + 3)) % documents)} ${rank} ${(200 - rank).toFixed(3)} run${r}\n`;
      });
    }
  }
  let queries = '';
  for (let q = 0; q < 10_000; q++) queries += `${JSON.stringify({ qid: qid(q), text: `query ${q}` })}\n`;
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
  const cli = join(root, 'bin', 'qrels-studio.cjs');
  const ours = {
    command: process.execPath,
    args: [cli, 'import', 'bench.assess'],
    cwd: dir,
    prepare: () => rmSync(join(dir, '.qrels-studio'), { recursive: true, force: true }),
  };
  const lines: string[] = [];
  const name = `import 10k queries + 1M JSONL documents (median of ${repetitions})`;
  const sqlite3 = findCommand('sqlite3');
  if (sqlite3 === undefined) {
    const [imported] = timeInterleaved([ours], repetitions);
    lines.push(`${name.padEnd(44)} ${seconds(imported!.seconds)}  ${mebibytes(imported!.peakMiB)} MiB`);
    lines.push('  no sqlite3 on the PATH: the import is not compared with sqlite3 .import (apt-get install sqlite3)');
  } else {
    // The baseline: sqlite3 importing the same documents as CSV into a table like ours (id, unique docid, title,
    // body), from an empty database each time.
    const baselineDb = join(dir, 'baseline.sqlite');
    const script =
      'PRAGMA journal_mode = WAL;\n' +
      'CREATE TABLE document (id INTEGER PRIMARY KEY, docid TEXT NOT NULL UNIQUE, title TEXT, body TEXT NOT NULL);\n' +
      'CREATE TEMP TABLE csv (docid TEXT, title TEXT, body TEXT);\n' +
      `.import --csv ${corpusCsv} csv\n` +
      'INSERT INTO document (docid, title, body) SELECT docid, title, body FROM csv;\n';
    const baseline = {
      command: sqlite3,
      args: [baselineDb],
      input: script,
      prepare: () => {
        for (const suffix of ['', '-wal', '-shm']) rmSync(`${baselineDb}${suffix}`, { force: true });
      },
    };
    const loadBefore = loadNote();
    const [imported, theirs] = timeInterleaved([ours, baseline], repetitions);
    const wall = pairedRatio(theirs!.all, imported!.all);
    const cpu = pairedRatio(theirs!.allCpu, imported!.allCpu);
    const range = (r: { low: number; high: number }) => `${r.low.toFixed(2)}–${r.high.toFixed(2)}`;
    const rate = (s: number) =>
      `${Math.round((documents + 10_000) / s)
        .toLocaleString('en')
        .padStart(10)} rows/s`;
    lines.push(
      `${'baseline: sqlite3 .import --csv, 1M documents'.padEnd(44)} ${seconds(theirs!.seconds)}  ` +
        `${mebibytes(theirs!.peakMiB)} MiB  ${rate(theirs!.seconds)}`,
    );
    lines.push(
      `${name.padEnd(44)} ${seconds(imported!.seconds)}  ${mebibytes(imported!.peakMiB)} MiB  ` +
        `${rate(imported!.seconds)}  ${wall.median.toFixed(2)}× sqlite3's speed (target ≥ 0.7), ` +
        `${(imported!.peakMiB / theirs!.peakMiB).toFixed(2)}× its peak RSS`,
    );
    lines.push(
      `  per round, sqlite3 over ours: wall ${range(wall)}, CPU median ${cpu.median.toFixed(2)}× (${range(cpu)}); ` +
        `CPU ours ${imported!.cpuSeconds.toFixed(1)} s, sqlite3 ${theirs!.cpuSeconds.toFixed(1)} s; ` +
        `${loadBefore} before, ${loadNote()} after`,
    );
  }

  // Into the study the last repetition left: 1M judgments of its documents, then the pool (no peer: absolute).
  const judged = timeOnce({
    command: process.execPath,
    args: [cli, 'import', 'bench.assess', '--qrels', 'qrels-1m.txt', '--annotator', 'nist'],
    cwd: dir,
  });
  lines.push(
    `${'import 1M qrels lines'.padEnd(44)} ${seconds(judged.seconds)}  ${mebibytes(judged.peakKiB / 1024)} MiB  ` +
      `${Math.round(documents / judged.seconds)
        .toLocaleString('en')
        .padStart(10)} rows/s`,
  );
  const pooled = timeOnce({
    command: process.execPath,
    args: [cli, 'pool', 'bench.assess', ...[0, 1, 2].flatMap((r) => ['--run', `run${r}.trec`, '--depth', '100'])],
    cwd: dir,
  });
  lines.push(
    `${'pool 3 runs × 10k queries × depth 100'.padEnd(44)} ${seconds(pooled.seconds)}  ` +
      `${mebibytes(pooled.peakKiB / 1024)} MiB`,
  );
  return lines;
}

// `node scripts/benchStore.ts`: these rows alone (needs dist/: npm run package).
if (import.meta.main) {
  const root = join(import.meta.dirname, '..');
  for (const line of await benchStore(root, join(root, 'bench-data'))) console.log(line);
}
