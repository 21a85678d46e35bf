// What `npm test` and `npm start` need from the operating system rather than from npm: Debian's Chromium (the
// webview and end-to-end tests drive it), PostgreSQL (the PostgreSQL store's tests run a throwaway cluster of it,
// test/pg/pgCluster.ts) and the Kerberos headers (code-server builds its `kerberos` module from source). On a bare
// Debian machine as root they are installed with apt-get, saying so; anyone else is told the one command to run.
// `node scripts/systemPackages.ts test|start` is that step on its own.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { isCodeServerInstalled } from './ensureCodeServer.ts';

export interface SystemRequirement {
  /** The Debian package that provides it. */
  debianPackage: string;
  /** Why the project needs it, in a few words. */
  neededFor: string;
  /** Whether it is already there. */
  present(): boolean;
}

export type Purpose = 'test' | 'start';

const chromiumPath = process.env.QRELS_STUDIO_CHROMIUM ?? '/usr/bin/chromium';
const kerberosHeader = '/usr/include/gssapi/gssapi.h';

const chromium: SystemRequirement = {
  debianPackage: 'chromium',
  neededFor: 'the webview and end-to-end tests run in it',
  present: () => existsSync(chromiumPath),
};

const kerberosHeaders: SystemRequirement = {
  debianPackage: 'libkrb5-dev',
  neededFor: 'code-server builds its kerberos module against it',
  // Once code-server is installed in .cache/ the headers are no longer needed.
  present: () => process.platform !== 'linux' || existsSync(kerberosHeader) || isCodeServerInstalled(),
};

/** Whether PostgreSQL's server programs are here: initdb in Debian's /usr/lib/postgresql/N/bin, or on the PATH. */
export function hasPostgresServer(): boolean {
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian) && readdirSync(debian).some((version) => existsSync(`${debian}/${version}/bin/initdb`))) {
    return true;
  }
  return onPath('initdb');
}

const postgresql: SystemRequirement = {
  debianPackage: 'postgresql',
  neededFor: "the PostgreSQL store's tests start a throwaway cluster of it",
  present: hasPostgresServer,
};

/** The requirements of `npm test` (everything) and of `npm start` (code-server only). */
export function requirementsFor(purpose: Purpose): SystemRequirement[] {
  return purpose === 'test' ? [chromium, postgresql, kerberosHeaders] : [kerberosHeaders];
}

export type InstallPlan =
  | { kind: 'nothing' }
  | { kind: 'install'; packages: string[]; commands: string[][] }
  | { kind: 'ask'; packages: string[]; message: string };

/** What to do about the missing requirements: nothing, install them (root with apt-get), or tell the user how. */
export function installPlan(missing: SystemRequirement[], context: { root: boolean; aptGet: boolean }): InstallPlan {
  if (missing.length === 0) return { kind: 'nothing' };
  const packages = missing.map((requirement) => requirement.debianPackage);
  if (context.root && context.aptGet) {
    return {
      kind: 'install',
      packages,
      commands: [
        ['apt-get', 'update', '-qq'],
        ['apt-get', 'install', '-y', '-qq', ...packages],
      ],
    };
  }
  const why = missing.map((requirement) => `  ${requirement.debianPackage}: ${requirement.neededFor}`).join('\n');
  const command = context.aptGet
    ? `sudo apt-get install -y ${packages.join(' ')}`
    : `install the equivalent of Debian's ${packages.join(', ')} with your system's package manager`;
  const who = context.root
    ? 'no apt-get on this machine to install them'
    : 'only root can install them, and this is not root';
  return { kind: 'ask', packages, message: `missing system packages (${who}):\n${why}\nrun: ${command}` };
}

function onPath(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** Installs what `purpose` needs when it is missing and we are root; otherwise throws the message to show. */
export function ensureSystemPackages(purpose: Purpose, log: (line: string) => void = console.log): void {
  const missing = requirementsFor(purpose).filter((requirement) => !requirement.present());
  const plan = installPlan(missing, { root: process.getuid?.() === 0, aptGet: onPath('apt-get') });
  if (plan.kind === 'nothing') return;
  if (plan.kind === 'ask') throw new Error(plan.message);
  log(`▶ installing Debian packages ${plan.packages.join(', ')} with apt-get (running as root; once per machine)…`);
  const started = performance.now();
  for (const command of plan.commands) {
    const result = spawnSync(command[0]!, command.slice(1), {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (result.status !== 0) {
      throw new Error(`\`${command.join(' ')}\` failed (exit ${result.status ?? result.signal})`);
    }
  }
  const still = missing.filter((requirement) => !requirement.present()).map((r) => r.debianPackage);
  if (still.length > 0)
    throw new Error(`apt-get installed ${plan.packages.join(', ')} but ${still.join(', ')} is still missing`);
  log(`  done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

if (import.meta.main) {
  const purpose = process.argv[2];
  if (purpose !== 'test' && purpose !== 'start') {
    console.error('usage: node scripts/systemPackages.ts test|start');
    process.exit(2);
  }
  try {
    ensureSystemPackages(purpose);
  } catch (error) {
    console.error(`✗ ${(error as Error).message}`);
    process.exit(1);
  }
}
