// The one place that opens SQLite. better-sqlite3's prebuilt N-API binary is shipped next to each bundle
// (dist/native/) and loaded through `nativeBinding`, so the extension never depends on node_modules or on a
// rebuild against the host's ABI.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

export type SqliteDatabase = Database.Database;

/** Prebuild targets carried by better-sqlite3 13 (and so by our package). */
export const nativeBindingTargets = [
  'linux-x64',
  'linux-arm64',
  'linuxmusl-x64',
  'linuxmusl-arm64',
  'darwin-x64',
  'darwin-arm64',
  'win32-x64',
  'win32-arm64',
] as const;
export type NativeBindingTarget = (typeof nativeBindingTargets)[number];

export function nativeBindingFileName(target: NativeBindingTarget): string {
  return `better_sqlite3-${target}.node`;
}

function isMuslLinux(): boolean {
  try {
    // The libc loader mapped into this process tells musl from glibc without spawning anything.
    return /\/ld-musl-[^/\s]*\.so/.test(readFileSync('/proc/self/maps', 'latin1'));
  } catch {
    return false;
  }
}

export function currentNativeBindingTarget(
  platform: string = process.platform,
  arch: string = process.arch,
  musl: boolean = platform === 'linux' && isMuslLinux(),
): NativeBindingTarget | undefined {
  const name = `${platform === 'linux' && musl ? 'linuxmusl' : platform}-${arch}`;
  return (nativeBindingTargets as readonly string[]).includes(name) ? (name as NativeBindingTarget) : undefined;
}

export class NativeBindingMissingError extends Error {}

/** Path of the binary for this process in `nativeDir`, or a clear error saying what is missing. */
export function locateNativeBinding(nativeDir: string): string {
  const target = currentNativeBindingTarget();
  if (!target) {
    throw new NativeBindingMissingError(
      `SQLite is not available on ${process.platform}-${process.arch}: Qrels Studio carries better-sqlite3 binaries for ${nativeBindingTargets.join(', ')} only.`,
    );
  }
  const file = join(nativeDir, nativeBindingFileName(target));
  if (!existsSync(file)) {
    throw new NativeBindingMissingError(
      `SQLite binary for ${target} not found at ${file}; the package is incomplete (rebuild with 'npm run build').`,
    );
  }
  return file;
}

const minimumNapiVersion = 10;

export interface OpenDatabaseOptions {
  nativeBinding: string;
  readonly?: boolean;
}

/**
 * Opens (creating if needed) a database file in WAL mode with foreign keys on and a busy timeout, the settings
 * every Qrels Studio database uses.
 */
export function openDatabase(file: string, options: OpenDatabaseOptions): SqliteDatabase {
  const napi = Number(process.versions.napi ?? 0);
  if (napi < minimumNapiVersion) {
    // better-sqlite3 13 is built for N-API 10 and crashes (not throws) on older runtimes such as Node 20.
    throw new NativeBindingMissingError(
      `SQLite needs a runtime with N-API ${minimumNapiVersion} (Node.js 22 or newer); this is Node.js ${process.versions.node} with N-API ${napi}.`,
    );
  }
  const db = new Database(file, {
    nativeBinding: options.nativeBinding,
    readonly: options.readonly ?? false,
    timeout: 5000,
  });
  if (!options.readonly) db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  return db;
}
