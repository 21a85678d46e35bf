// The SQLite adapter's statements for each version of the migration list (core/store/migrations/registry.ts).

import type { Migration, MigrationSql } from '../../migrations/migration.ts';
import { migrations } from '../../migrations/registry.ts';
import { initialSchema } from './001_initial.ts';
import { labellingDetail } from './002_labellingDetail.ts';
import { labellingSession } from './003_labellingSession.ts';
import { judgeCalls } from './004_judgeCalls.ts';
import { reviewLineage } from './005_reviewLineage.ts';
import { gradedAspects } from './006_gradedAspects.ts';
import { labelKind } from './007_labelKind.ts';
import { labelCommitIds } from './008_labelCommitIds.ts';
import { annotatorRoles } from './009_annotatorRoles.ts';
import { judgeBatches } from './010_judgeBatches.ts';
import { chunkParentIndex } from './011_chunkParentIndex.ts';

/** Version → SQLite statements. */
export const sqliteMigrationSql: MigrationSql = new Map([
  [1, initialSchema],
  [2, labellingDetail],
  [3, labellingSession],
  [4, judgeCalls],
  [5, reviewLineage],
  [6, gradedAspects],
  [7, labelKind],
  [8, labelCommitIds],
  [9, annotatorRoles],
  [10, judgeBatches],
  [11, chunkParentIndex],
]);

/** A migration of the list with its SQLite statements. */
export interface SqliteMigration extends Migration {
  readonly sql: string;
}

/** The list, each with its SQLite statements (a version without any is an error when this module loads). */
export const sqliteMigrations: readonly SqliteMigration[] = migrations.map((migration) => {
  const sql = sqliteMigrationSql.get(migration.version);
  if (sql === undefined) throw new Error(`no SQLite statements for schema version ${migration.version}`);
  return { ...migration, sql };
});
