// "Show version and runtime": proves, on the user's machine, that the shipped SQLite binary loads in this runtime
// and that a WAL database works (write through one connection, read through another; the SQLite adapter's
// runtimeProbe.ts does it).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probeSqliteRuntime } from '../store/sqlite/runtimeProbe.ts';
import type { RuntimeReport } from './runtimeTypes.ts';

export type { RuntimeReport } from './runtimeTypes.ts';

export interface RuntimeReportInput {
  productVersion: string;
  host: string;
  nativeBinding: string;
  scratchDir?: string;
}

export function buildRuntimeReport(input: RuntimeReportInput): RuntimeReport {
  const dir = mkdtempSync(join(input.scratchDir ?? tmpdir(), 'qrels-studio-runtime-'));
  try {
    const probe = probeSqliteRuntime(join(dir, 'probe.sqlite'), input.nativeBinding);
    return {
      productVersion: input.productVersion,
      host: input.host,
      node: process.versions.node,
      napi: process.versions.napi ?? 'unknown',
      abi: process.versions.modules ?? 'unknown',
      platform: process.platform,
      arch: process.arch,
      ...probe,
      nativeBinding: input.nativeBinding,
    };
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
