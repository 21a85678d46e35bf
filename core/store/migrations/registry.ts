// Every schema migration, in order. Adding one: a module `NNN_what.ts` and one line here; a test opens a database
// at every older version and migrates it.
import { initialSchema } from './001_initial.ts';
import { labellingDetail } from './002_labellingDetail.ts';
import { labellingSession } from './003_labellingSession.ts';
import { judgeCalls } from './004_judgeCalls.ts';
import { reviewLineage } from './005_reviewLineage.ts';
import { gradedAspects } from './006_gradedAspects.ts';
import { labelKind } from './007_labelKind.ts';
import type { Migration } from './migration.ts';

export const migrations: readonly Migration[] = [
  initialSchema,
  labellingDetail,
  labellingSession,
  judgeCalls,
  reviewLineage,
  gradedAspects,
  labelKind,
];
