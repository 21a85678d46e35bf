// The SQLite adapter's part of "Show version and runtime" (core/runtime/runtimeReport.ts): that the shipped SQLite
// binary loads in this runtime and that a WAL database works — written through one connection, read back through
// another — in a scratch file the caller removes.
import { openDatabase } from '../sqliteDatabase.ts';

export interface SqliteRuntimeProbe {
  sqliteVersion: string;
  journalMode: string;
  walReadBack: boolean;
}

/** Creates the database `file` (in a scratch folder), writes a row and reads it back through a second connection. */
export function probeSqliteRuntime(file: string, nativeBinding: string): SqliteRuntimeProbe {
  const writer = openDatabase(file, { nativeBinding });
  try {
    const journalMode = String(writer.pragma('journal_mode', { simple: true }));
    const sqliteVersion = String(writer.prepare('select sqlite_version() as v').pluck().get());
    writer.exec('create table probe (id integer primary key, note text not null)');
    writer.prepare('insert into probe (note) values (?)').run('written by the runtime report');
    const reader = openDatabase(file, { nativeBinding, readonly: true });
    let walReadBack = false;
    try {
      walReadBack = reader.prepare('select count(*) from probe').pluck().get() === 1;
    } finally {
      reader.close();
    }
    return { sqliteVersion, journalMode, walReadBack };
  } finally {
    writer.close();
  }
}
