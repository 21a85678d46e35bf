// `qrels-studio store grant STUDY.assess [--role NAME=ROLE]… [--judge-role ROLE]`: run by the owner of a study's
// PostgreSQL record, gives each person the study file names (annotators, adjudicator) a database role of their own and
// the study's LLM judges one, with row-level security deciding what each may read and write
// (core/store/postgres/grants/ holds the SQL and says what each role may do). The study file is synced first (as
// every command that opens a record does), so the policies read the file's `blind`. Idempotent: run it again after
// adding an annotator. Roles it creates can log in but have no password: it prints what the owner does next. It
// never prints or stores a password.
import { openPostgresStore, storesFromEnvironment } from '../../core/store/openStudyStore.ts';
import { type GrantPlan, grantRoles, roleNameProblem } from '../../core/store/postgres/grants/grantRoles.ts';
import { PostgresStudyStore } from '../../core/store/postgres/postgresStudyStore.ts';
import { StoreError } from '../../core/store/studyDatabase.ts';
import { type CliContext, UsageError } from '../cliContext.ts';
import { optionValue, readStudyFile } from '../studyDatabaseCommand.ts';

export const grantUsage = 'qrels-studio store grant STUDY.assess [--role NAME=ROLE]… [--judge-role ROLE]';

export const grantDetails =
  'store grant (run by the owner of the PostgreSQL record, the role that created its tables) gives every\n' +
  "annotator and the adjudicator of the study file's studies and reviews a database role, and the LLM judges one,\n" +
  'and turns on row-level security: an annotator writes labels, notes and verdicts only under their own name, reads\n' +
  "others' labels, suggestions and verdicts in a blind study only on pairs they have labelled, and never writes an\n" +
  "adjudicated label; only the adjudicator does; only the judge role records judge calls. A person's role is their\n" +
  'name unless --role NAME=ROLE maps it to another (an existing role, e.g. --role alice=pg_alice; repeat it per\n' +
  'person); the judge role is <database>_judge unless --judge-role ROLE. Missing roles are created LOGIN without a\n' +
  "password: set one with psql's \\password ROLE (or map roles that have one). Run it again after adding an annotator.\n";

/** `store grant`'s arguments after `grant`. */
export async function runStoreGrant(args: readonly string[], context: CliContext): Promise<number> {
  let studyArg: string | undefined;
  let judgeRole: string | undefined;
  const mapped = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--role') {
      const value = optionValue(args, i++, 'NAME=ROLE (a person of the study and the role that acts for them)');
      const at = value.indexOf('=');
      if (at <= 0 || at === value.length - 1) throw new UsageError(`--role takes NAME=ROLE, found '${value}'`);
      mapped.set(value.slice(0, at), value.slice(at + 1));
    } else if (arg === '--judge-role') judgeRole = optionValue(args, i++, 'a role name');
    else if (arg.startsWith('-')) throw new UsageError(`unknown option '${arg}'`);
    else if (studyArg === undefined) studyArg = arg;
    else throw new UsageError(`unexpected argument '${arg}'`);
  }
  if (studyArg === undefined) throw new UsageError('no study file');
  const { model } = await readStudyFile(studyArg, context);
  if (model.store.kind !== 'postgres') {
    throw new UsageError(
      `${studyArg} has no store postgres statement: roles and row-level security are PostgreSQL's (store copy moves a study there)`,
    );
  }
  const people: { name: string; duty: 'annotator' | 'adjudicator'; role: string }[] = [];
  const seen = new Set<string>();
  const add = (name: string, duty: 'annotator' | 'adjudicator'): void => {
    if (seen.has(`${duty}\0${name}`)) return;
    seen.add(`${duty}\0${name}`);
    people.push({ name, duty, role: mapped.get(name) ?? name });
  };
  for (const block of [...model.studies, ...model.reviews]) {
    for (const name of block.annotators) add(name, 'annotator');
    if (block.adjudicator !== undefined) add(block.adjudicator, 'adjudicator');
  }
  if (people.length === 0) {
    throw new UsageError(`${studyArg} names no annotators nor adjudicator: declare them (annotators NAME…) first`);
  }
  for (const name of mapped.keys()) {
    if (!people.some((person) => person.name === name)) {
      const names = [...new Set(people.map((person) => person.name))].join(', ');
      throw new UsageError(
        `--role ${name}=…: '${name}' is no annotator or adjudicator of ${studyArg} (it names ${names})`,
      );
    }
  }
  for (const role of [...people.map((person) => person.role), ...(judgeRole === undefined ? [] : [judgeRole])]) {
    const problem = roleNameProblem(role);
    if (problem !== undefined) throw new UsageError(problem);
  }
  const plan: GrantPlan = { people, ...(judgeRole !== undefined && { judgeRole }) };
  const store = await openPostgresStore(model.store.name, {
    env: process.env,
    settings: storesFromEnvironment(process.env),
    onWarning: (message) => context.stderr(`warning: ${message}\n`),
  });
  try {
    if (!(store instanceof PostgresStudyStore)) throw new StoreError(`store "${model.store.name}" is not PostgreSQL`);
    await store.studies.sync(model);
    const report = await grantRoles(store.pool, store.location, plan);
    context.stdout(`granted ${store.location} (database ${report.database}, schema ${report.schema}):\n`);
    for (const role of report.roles) {
      context.stdout(`  ${role.role}: ${role.acts.join(', ')}${role.created ? ' (created, no password yet)' : ''}\n`);
    }
    if (report.revoked.length > 0) {
      context.stdout(`no longer mapped, privileges taken back: ${report.revoked.join(', ')}\n`);
    }
    const created = report.roles.filter((role) => role.created).map((role) => role.role);
    context.stdout('next:\n');
    if (created.length > 0) {
      context.stdout(
        `  set each new role's password in psql as ${report.database}'s owner: ${created.map((r) => `\\password ${r}`).join('; ')}\n` +
          '  (or run store grant again with --role NAME=ROLE to map a role that has one)\n',
      );
    }
    context.stdout(
      `  each person sets qrelsStudio.stores "${model.store.name}" to this server and database with their role as user,\n` +
        '  and their password with Set Store Password (or PGPASSWORD / ~/.pgpass); qrelsStudio.annotator stays their name\n',
    );
    return 0;
  } finally {
    await store.close();
  }
}
