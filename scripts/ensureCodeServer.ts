// Installs code-server (a real VS Code server, used by the end-to-end tests) from the npm registry into
// .cache/code-server/, once. `node scripts/ensureCodeServer.ts` installs it if needed and prints its entry script;
// tests call `ensureCodeServer()`.
//
// Why it is fiddly:
// - code-server 4.139 runs on Node 24 only (its postinstall refuses any other major) and builds about ten native
//   modules with node-gyp. npm and node-gyp must therefore run on the project's Node 24 (node_modules/.bin/node),
//   and node-gyp must compile against Node 24's headers: ~/.npmrc may say `nodedir=/usr` (the system Node 20's
//   headers), and a build against those "succeeds" but cannot load. We point `npm_config_nodedir` at the headers
//   that ship in the npm package `node-<platform>-<arch>` and afterwards check every native build's ABI.
// - npm 11 only runs dependency install scripts that package.json's `allowScripts` approves (or, for unreviewed
//   ones, with a notice today). The prefix gets its own package.json approving code-server's postinstall (which
//   runs `npm install` in lib/vscode, whose own package.json approves VS Code's native modules) and argon2's.
// - A half-finished install is worse than none: success is recorded in a marker file only after the checks pass,
//   and without that marker the prefix is wiped and installed again.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

export const codeServerVersion = '4.139.1';
/** code-server's postinstall insists on this Node major. */
const requiredNodeMajor = 24;

const root = join(import.meta.dirname, '..');
/** QRELS_STUDIO_CACHE_DIR moves the cache (e.g. to one a CI keeps between runs); .cache/ by default. */
const cacheDir = process.env.QRELS_STUDIO_CACHE_DIR || join(root, '.cache');
export const codeServerPrefix = join(cacheDir, 'code-server');
const packageDir = join(codeServerPrefix, 'node_modules', 'code-server');
const markerFile = join(codeServerPrefix, 'installed.json');
const lockDir = join(cacheDir, 'code-server.lock');
const installLog = join(cacheDir, 'code-server-install.log');
const headersPrefix = join(cacheDir, 'node-headers');
const kerberosHeader = '/usr/include/gssapi/gssapi.h';

interface Marker {
  version: string;
  node: string;
  abi: string;
  installedAt: string;
  seconds: number;
}

/** code-server's Node entry script; start it as `node <entry> …` with Node 24 (`process.execPath` in tests). */
export function codeServerEntry(): string {
  return join(packageDir, 'out', 'node', 'entry.js');
}

/** True when a verified install of `codeServerVersion` for this Node's ABI is in place. */
export function isCodeServerInstalled(): boolean {
  const marker = readMarker();
  return (
    marker !== undefined &&
    marker.version === codeServerVersion &&
    marker.abi === process.versions.modules &&
    existsSync(codeServerEntry()) &&
    installedVersion() === codeServerVersion
  );
}

/**
 * Makes sure code-server is installed (a minute or two the first time, instant afterwards) and returns its entry
 * script. Throws with an actionable message when something it needs is missing or the install fails.
 */
export async function ensureCodeServer(options: { log?: (line: string) => void } = {}): Promise<string> {
  const log = options.log ?? ((line: string) => console.error(line));
  if (isCodeServerInstalled()) return codeServerEntry();
  checkPrerequisites();
  const release = await acquireLock(log);
  try {
    // Another process may have finished the install while we waited for the lock.
    if (isCodeServerInstalled()) return codeServerEntry();
    await install(log);
    return codeServerEntry();
  } finally {
    release();
  }
}

function checkPrerequisites(): void {
  const major = Number(process.versions.node.split('.')[0]);
  if (major !== requiredNodeMajor) {
    throw new Error(
      `code-server ${codeServerVersion} needs Node ${requiredNodeMajor}, but this is Node ${process.versions.node} ` +
        `(${process.execPath}). Run through npm (\`npm test\`) or put node_modules/.bin first on PATH so the ` +
        `project's own Node ${requiredNodeMajor} runs.`,
    );
  }
  if (process.platform === 'linux' && !existsSync(kerberosHeader)) {
    throw new Error(
      `code-server builds the \`kerberos\` module from source and needs the Kerberos headers (${kerberosHeader} ` +
        `is missing). Install them with: ${process.getuid?.() === 0 ? '' : 'sudo '}apt-get install -y libkrb5-dev`,
    );
  }
  const npm = spawnSync('npm', ['--version'], { env: installEnv(), encoding: 'utf8' });
  if (npm.status !== 0) throw new Error(`npm is not on PATH (${npm.error?.message ?? npm.stderr})`);
}

async function install(log: (line: string) => void): Promise<void> {
  const started = Date.now();
  mkdirSync(cacheDir, { recursive: true });
  const nodedir = await ensureNodeHeaders(log);

  rmSync(codeServerPrefix, { recursive: true, force: true });
  mkdirSync(codeServerPrefix, { recursive: true });
  writeFileSync(
    join(codeServerPrefix, 'package.json'),
    `${JSON.stringify(
      {
        name: 'qrels-studio-code-server',
        private: true,
        description: 'code-server for the end-to-end tests; written by scripts/ensureCodeServer.ts',
        allowScripts: { [`code-server@${codeServerVersion}`]: true, argon2: true },
      },
      null,
      2,
    )}\n`,
  );

  log(
    `Installing code-server ${codeServerVersion} into ${codeServerPrefix} (a minute or two; log: ${installLog}) ` +
      `with Node ${process.versions.node}, headers from ${nodedir}`,
  );
  await run(
    'npm',
    [
      'install',
      '--prefix',
      codeServerPrefix,
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--foreground-scripts',
      `code-server@${codeServerVersion}`,
    ],
    { ...installEnv(), npm_config_nodedir: nodedir },
    installLog,
  );

  const builds = verifyInstall();
  const seconds = Math.round((Date.now() - started) / 1000);
  const marker: Marker = {
    version: codeServerVersion,
    node: process.versions.node,
    abi: process.versions.modules,
    installedAt: new Date().toISOString(),
    seconds,
  };
  writeFileSync(markerFile, `${JSON.stringify(marker, null, 2)}\n`);
  log(`code-server ${codeServerVersion} installed in ${seconds} s (${builds} native builds for ABI ${marker.abi})`);
}

/**
 * A directory node-gyp accepts as `nodedir` for exactly this Node: the `node-<platform>-<arch>` package that the
 * `node` devDependency installs (npm may prune it later), or a copy installed into .cache/node-headers.
 */
async function ensureNodeHeaders(log: (line: string) => void): Promise<string> {
  const name = `node-${process.platform}-${process.arch}`;
  const candidates = [
    join(root, 'node_modules', 'node', 'node_modules', name),
    join(headersPrefix, 'node_modules', name),
  ];
  const found = candidates.find(headersMatchThisNode);
  if (found) return found;
  log(`Installing Node ${process.versions.node} headers (${name}) into ${headersPrefix}`);
  rmSync(headersPrefix, { recursive: true, force: true });
  await run(
    'npm',
    ['install', '--prefix', headersPrefix, '--no-save', '--no-audit', '--no-fund', `${name}@${process.versions.node}`],
    installEnv(),
    installLog,
  );
  const installed = candidates[1]!;
  if (!headersMatchThisNode(installed)) {
    throw new Error(`${name}@${process.versions.node} did not provide headers for this Node under ${installed}`);
  }
  return installed;
}

function headersMatchThisNode(dir: string): boolean {
  const header = join(dir, 'include', 'node', 'node_version.h');
  if (!existsSync(header) || !existsSync(join(dir, 'include', 'node', 'common.gypi'))) return false;
  const text = readFileSync(header, 'utf8');
  const define = (name: string): string | undefined => text.match(new RegExp(`#define ${name} (\\d+)`))?.[1];
  const version = ['NODE_MAJOR_VERSION', 'NODE_MINOR_VERSION', 'NODE_PATCH_VERSION'].map(define).join('.');
  return version === process.versions.node && define('NODE_MODULE_VERSION') === process.versions.modules;
}

/**
 * Proves the install scripts ran and built for this Node: VS Code's dependencies exist (code-server's postinstall
 * installs them), and every node-gyp build recorded this Node's ABI. Returns the number of native builds.
 */
function verifyInstall(): number {
  const entry = codeServerEntry();
  if (!existsSync(entry)) throw new Error(`the install left no ${entry}; see ${installLog}`);
  if (installedVersion() !== codeServerVersion) {
    throw new Error(`installed code-server is ${installedVersion()}, expected ${codeServerVersion}`);
  }
  const vscodeModules = join(packageDir, 'lib', 'vscode', 'node_modules');
  for (const dir of [vscodeModules, join(packageDir, 'lib', 'vscode', 'extensions', 'node_modules')]) {
    if (!existsSync(dir)) {
      throw new Error(`${dir} is missing: code-server's postinstall did not run (npm install scripts blocked?)`);
    }
  }
  const configs = findFiles(join(codeServerPrefix, 'node_modules'), 'config.gypi', 8);
  const builds = configs.filter((file) => file.endsWith(join('build', 'config.gypi')));
  const wrong = builds
    .map((file) => ({ file, abi: readFileSync(file, 'utf8').match(/"node_module_version":\s*(\d+)/)?.[1] }))
    .filter(({ abi }) => abi !== process.versions.modules);
  if (builds.length === 0 || !builds.some((file) => file.startsWith(vscodeModules))) {
    throw new Error(`no native module was built under ${vscodeModules} (install scripts skipped?); see ${installLog}`);
  }
  if (wrong.length > 0) {
    throw new Error(
      `native modules were built for the wrong Node (this Node's ABI is ${process.versions.modules}): ` +
        wrong.map(({ file, abi }) => `${file} (ABI ${abi ?? 'unknown'})`).join(', '),
    );
  }
  return builds.length;
}

function findFiles(dir: string, name: string, depth: number): string[] {
  if (depth < 0 || !existsSync(dir)) return [];
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...findFiles(path, name, depth - 1));
    else if (entry.name === name) found.push(path);
  }
  return found;
}

function installedVersion(): string | undefined {
  try {
    return JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).version as string;
  } catch {
    return undefined;
  }
}

function readMarker(): Marker | undefined {
  try {
    return JSON.parse(readFileSync(markerFile, 'utf8')) as Marker;
  } catch {
    return undefined;
  }
}

/**
 * This Node first on PATH, so `npm`, the lifecycle scripts and node-gyp all run on it; and not the user agent an
 * outer npm set: npm reads npm_config_user_agent as its own, and code-server's postinstall takes the Node version
 * from it, so an outer `npm test` on the system Node 20 made it refuse. (Dropping every npm_* variable instead
 * made the nested install hang here.)
 */
function installEnv(): NodeJS.ProcessEnv {
  const { npm_config_user_agent: _outerUserAgent, ...env } = process.env;
  return {
    ...env,
    PATH: [dirname(process.execPath), process.env.PATH ?? ''].join(delimiter),
    npm_config_update_notifier: 'false',
  };
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv, logFile: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const logStream = createWriteStream(logFile, { flags: 'a' });
    logStream.write(`\n$ ${command} ${args.join(' ')}\n`);
    const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(logStream, { end: false });
    child.stderr.pipe(logStream, { end: false });
    child.on('error', (error) => {
      logStream.end();
      reject(error);
    });
    child.on('close', (code, signal) => {
      logStream.end(() => {
        if (code === 0) return resolve();
        const tail = readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n');
        reject(
          new Error(
            `\`${command} ${args.join(' ')}\` failed (${signal ?? `exit ${code}`}); end of ${logFile}:\n${tail}`,
          ),
        );
      });
    });
  });
}

/** One installer at a time (test files run concurrently); a lock left by a dead process is taken over. */
async function acquireLock(log: (line: string) => void): Promise<() => void> {
  mkdirSync(cacheDir, { recursive: true });
  const deadline = Date.now() + 15 * 60_000;
  let announced = false;
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(join(lockDir, 'pid'), String(process.pid));
      return () => rmSync(lockDir, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = Number(readFileIfExists(join(lockDir, 'pid')));
    if (owner > 0 && !isAlive(owner)) {
      rmSync(lockDir, { recursive: true, force: true });
      continue;
    }
    if (!owner) {
      // The owner has created the directory but not yet written its pid; give it a moment, then take over.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      if (!readFileIfExists(join(lockDir, 'pid'))) rmSync(lockDir, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for the code-server install of process ${owner}`);
    if (!announced) log(`Waiting for process ${owner}, which is installing code-server…`);
    announced = true;
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

function readFileIfExists(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

if (process.argv[1] === import.meta.filename) {
  try {
    console.log(await ensureCodeServer());
  } catch (error) {
    console.error(`✗ ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
