// "Show version and runtime": proves, on the user's machine, that the shipped SQLite binary loads in this runtime
// and that a WAL database works (write through one connection, read through another).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../store/sqliteDatabase.ts';

export interface RuntimeReport {
  productVersion: string;
  host: string;
  node: string;
  napi: string;
  abi: string;
  platform: string;
  arch: string;
  sqliteVersion: string;
  journalMode: string;
  walReadBack: boolean;
  nativeBinding: string;
}

export interface RuntimeReportInput {
  productVersion: string;
  host: string;
  nativeBinding: string;
  scratchDir?: string;
}

export function buildRuntimeReport(input: RuntimeReportInput): RuntimeReport {
  const dir = mkdtempSync(join(input.scratchDir ?? tmpdir(), 'qrels-studio-runtime-'));
  try {
    const file = join(dir, 'probe.sqlite');
    const writer = openDatabase(file, { nativeBinding: input.nativeBinding });
    try {
      const journalMode = String(writer.pragma('journal_mode', { simple: true }));
      const sqliteVersion = String(writer.prepare('select sqlite_version() as v').pluck().get());
      writer.exec('create table probe (id integer primary key, note text not null)');
      writer.prepare('insert into probe (note) values (?)').run('written by the runtime report');
      const reader = openDatabase(file, { nativeBinding: input.nativeBinding, readonly: true });
      let walReadBack = false;
      try {
        walReadBack = reader.prepare('select count(*) from probe').pluck().get() === 1;
      } finally {
        reader.close();
      }
      return {
        productVersion: input.productVersion,
        host: input.host,
        node: process.versions.node,
        napi: process.versions.napi ?? 'unknown',
        abi: process.versions.modules ?? 'unknown',
        platform: process.platform,
        arch: process.arch,
        sqliteVersion,
        journalMode,
        walReadBack,
        nativeBinding: input.nativeBinding,
      };
    } finally {
      writer.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One line for a notification, several for a terminal. */
export function formatRuntimeReport(report: RuntimeReport, style: 'line' | 'lines'): string {
  const parts: [string, string][] = [
    ['Qrels Studio', report.productVersion],
    ['host', report.host],
    ['Node.js', `${report.node} (N-API ${report.napi}, ABI ${report.abi})`],
    ['platform', `${report.platform}-${report.arch}`],
    [
      'SQLite',
      `${report.sqliteVersion} (journal ${report.journalMode}${report.walReadBack ? ', WAL read-back ok' : ', WAL read-back FAILED'})`,
    ],
  ];
  if (style === 'line') return parts.map(([k, v]) => `${k} ${v}`).join(' · ');
  return [...parts, ['binding', report.nativeBinding] as [string, string]]
    .map(([k, v]) => `${k.padEnd(13)}${v}`)
    .join('\n');
}
