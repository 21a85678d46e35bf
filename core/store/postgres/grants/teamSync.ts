// Syncing a study file as a team member's role (`store grant`): only the owner of the record writes the study's
// definition (its model — blind, overlap, annotators — is what the row-level security policies read, so an
// annotator must not change it). A role without the right to update `study` syncs read-only: every study and
// review of the file must be in the record already (the owner synced it), and nothing is written, so the team's
// Label views open on the owner's definition of the study.
import type { StudyFileModel } from '../../../dsl/model.ts';
import { StoreError, type SyncReport } from '../../studyDatabase.ts';
import type { PostgresClient } from '../postgresContext.ts';

/** Whether the connection's role may write the study's definition (the owner: yes; a granted team role: no). */
export async function maySyncStudies(client: PostgresClient): Promise<boolean> {
  const { rows } = await client.query<{ may: boolean }>("SELECT has_table_privilege('study', 'UPDATE') AS may");
  return rows[0]?.may === true;
}

/** A team member's sync: checks that the owner synced every study of `model`; writes nothing. */
export async function teamSync(client: PostgresClient, location: string, model: StudyFileModel): Promise<SyncReport> {
  const names = [...model.studies, ...model.reviews].map((s) => s.name);
  const { rows } = await client.query<{ name: string }>('SELECT name FROM study WHERE name = ANY($1::text[])', [names]);
  const known = new Set(rows.map((row) => row.name));
  const missing = names.filter((name) => !known.has(name));
  if (missing.length > 0) {
    const user = (await client.query<{ me: string }>('SELECT current_user AS me')).rows[0]?.me;
    throw new StoreError(
      `${missing.map((name) => `'${name}'`).join(', ')} ${missing.length === 1 ? 'is' : 'are'} not in ${location} yet, ` +
        `and ${user} may not add ${missing.length === 1 ? 'it' : 'them'}: the study's owner syncs the study file ` +
        '(opens it, or runs store grant) first',
    );
  }
  return { studies: names, addedScaleValues: {} };
}
