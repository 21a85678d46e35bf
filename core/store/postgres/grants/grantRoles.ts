// `qrels-studio store grant`'s work in the PostgreSQL record (the SQL is grantSql.ts; it says what each role may
// do): in one transaction, run by the owner of the record's tables, it creates the roles that do not exist (LOGIN,
// no password: the owner sets one, or maps an existing role), records the person annotators, fills annotator_role
// with the mapping, (re)creates the policy functions and policies, grants the mapped roles their privileges and
// takes them back from roles no longer mapped. Run again, it does the same: nothing is duplicated.
import pg from 'pg';
import { StoreError } from '../../studyDatabase.ts';
import { lockInSchema } from '../advisoryLocks.ts';
import { ensureAnnotatorId } from '../annotators.ts';
import { type PostgresPool, runTransaction } from '../postgresContext.ts';
import { functionsSql, grantStatements, policiesSql, privilegesSql, revokeSql } from './grantSql.ts';

export type Duty = 'annotator' | 'adjudicator' | 'judge';

/** Who gets a role: each person (annotator or adjudicator) with the role that acts for them, and the judge role. */
export interface GrantPlan {
  people: readonly { name: string; duty: Exclude<Duty, 'judge'>; role: string }[];
  /** The role that runs the study's LLM judges; by default `<database>_judge`. */
  judgeRole?: string;
}

export interface GrantReport {
  /** Where: the database and schema. */
  database: string;
  schema: string;
  /** Each role of the plan: whom it acts for, and whether this grant created it. */
  roles: { role: string; acts: string[]; created: boolean }[];
  /** Roles mapped before and no longer: their privileges on the record were taken back. */
  revoked: string[];
}

/** Why `role` cannot be a team role (undefined: it can). */
export function roleNameProblem(role: string): string | undefined {
  if (role.trim() === '') return 'a role name is empty';
  if (Buffer.byteLength(role) > 63) return `role name '${role}' is longer than 63 bytes`;
  if (/^pg_/i.test(role) || role.toLowerCase() === 'public') return `'${role}' is reserved by PostgreSQL`;
  return undefined;
}

/** Applies `plan` to the record `pool` connects to, as its owner. */
export async function grantRoles(pool: PostgresPool, location: string, plan: GrantPlan): Promise<GrantReport> {
  const acting = new Map<string, string>();
  for (const { name, role } of plan.people) {
    const problem = roleNameProblem(role);
    if (problem !== undefined) throw new StoreError(problem);
    const other = acting.get(role);
    if (other !== undefined && other !== name) {
      throw new StoreError(`role '${role}' cannot act for both ${other} and ${name}: one role per person`);
    }
    acting.set(role, name);
  }
  const ident = (name: string): string => pg.escapeIdentifier(name);
  return runTransaction(
    pool,
    async (client) => {
      await lockInSchema(client, 'grant');
      const where = (await client.query<{ schema: string; database: string }>(grantStatements.currentSchema)).rows[0]!;
      const owner = (await client.query<{ owner: string }>(grantStatements.tableOwner)).rows[0]?.owner;
      const me = (await client.query<{ me: string }>(grantStatements.currentUser)).rows[0]!.me;
      if (owner === undefined) throw new StoreError(`${location} holds no study record yet: sync or import it first`);
      if (owner !== me) {
        throw new StoreError(
          `store grant is run by the owner of ${location}'s tables (${owner}), not ${me}: connect as ${owner}`,
        );
      }
      const judgeRole = plan.judgeRole ?? `${where.database}_judge`;
      const problem = roleNameProblem(judgeRole);
      if (problem !== undefined) throw new StoreError(problem);
      if (acting.has(judgeRole)) {
        throw new StoreError(
          `the judge role '${judgeRole}' is ${acting.get(judgeRole)}'s role: give the judges a role of their own`,
        );
      }
      const roles = new Map<string, { acts: string[]; created: boolean }>();
      const add = (role: string, acts: string): void => {
        const entry = roles.get(role) ?? { acts: [], created: false };
        entry.acts.push(acts);
        roles.set(role, entry);
      };
      for (const person of plan.people)
        add(person.role, person.duty === 'adjudicator' ? `${person.name} (adjudicator)` : person.name);
      add(judgeRole, 'the LLM judges');
      for (const [role, entry] of roles) {
        if (role === owner) continue;
        const known = (await client.query<{ bypasses: boolean }>(grantStatements.roleExists, [role])).rows[0];
        if (known?.bypasses) {
          // A superuser or a BYPASSRLS role is not held by any policy: mapping it would promise what it cannot keep.
          throw new StoreError(
            `role '${role}' is a superuser or bypasses row-level security: the policies would not hold it; map a role without those attributes`,
          );
        }
        if (known !== undefined) continue;
        try {
          await client.query(`CREATE ROLE ${ident(role)} LOGIN`);
        } catch (error) {
          if ((error as { code?: string }).code !== '42501') throw error;
          throw new StoreError(
            `${me} may not create role '${role}' (creating roles needs CREATEROLE): ask the server's administrator ` +
              'to create the roles, then map them with --role NAME=ROLE',
            { cause: error },
          );
        }
        entry.created = true;
      }
      const before = (await client.query<{ role: string }>(grantStatements.mappedRoles)).rows.map((r) => r.role);
      await client.query(grantStatements.clearMapping);
      for (const person of plan.people) {
        const id = await ensureAnnotatorId(client, location, person.name, 'human');
        await client.query(grantStatements.addMapping, [person.role, person.duty, id]);
      }
      await client.query(grantStatements.addMapping, [judgeRole, 'judge', null]);
      const schema = ident(where.schema);
      await client.query(functionsSql(schema));
      await client.query(policiesSql());
      const granted = [...roles.keys()].filter((role) => role !== owner);
      if (granted.length > 0) {
        await client.query(
          privilegesSql(schema, granted.map(ident).join(', '), judgeRole === owner ? undefined : ident(judgeRole)),
        );
      }
      const revoked = before.filter((role) => !roles.has(role) && role !== owner);
      for (const role of revoked) {
        if ((await client.query(grantStatements.roleExists, [role])).rows.length > 0) {
          await client.query(revokeSql(schema, ident(role)));
        }
      }
      return {
        database: where.database,
        schema: where.schema,
        roles: [...roles].map(([role, entry]) => ({ role, ...entry })),
        revoked,
      };
    },
    {},
    location,
  );
}
