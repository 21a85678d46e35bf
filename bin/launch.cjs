// Shared by the launchers in this folder (bin/qrels-studio.cjs, bin/qrels-studio-lsp.cjs). Written in old, plain
// JavaScript on purpose: it must run on any Node.js and, on one older than the bundles need, either hand over to
// the project's own Node (the `node` devDependency that `npm ci` installs) or say clearly what to do, instead of
// crashing inside a native module.
'use strict';
var path = require('path');
var fs = require('fs');
var childProcess = require('child_process');

var MINIMUM_MAJOR = 22;

/**
 * Node's on-disk cache of compiled code (module.enableCompileCache, Node 22.1+; in the temp directory, keyed by the
 * file's content): a run after the first skips compiling the bundle (1.4 MB), most of a short command's startup.
 * NODE_DISABLE_COMPILE_CACHE=1 turns it off, as for Node itself.
 */
function enableCompileCache() {
  var nodeModule = require('module');
  if (typeof nodeModule.enableCompileCache !== 'function') return;
  try {
    nodeModule.enableCompileCache();
    // biome-ignore lint/correctness/noUnusedVariables: a catch without its binding does not parse on an old Node
  } catch (error) {
    // A read-only or full temp directory: run without the cache.
  }
}

/**
 * A bundle's start file, when it has one, runs first: dist/cli.start.cjs starts eval's second thread before the
 * CLI's 1.5 MB bundle loads (the thread boots ~15 ms sooner; core/metrics/parallel/workerStart.ts).
 */
function runStartFile(bundleFile) {
  var start = bundleFile.replace(/\.cjs$/, '.start.cjs');
  if (fs.existsSync(start)) require(start);
}

/** Runs dist/<bundle> on this Node (22+) or the project's Node, with this process's arguments (or `defaultArgs`). */
function launch(name, bundle, defaultArgs) {
  var packageDir = path.join(__dirname, '..');
  var cli = path.join(packageDir, 'dist', bundle);
  var major = Number(process.versions.node.split('.')[0]);
  var args = process.argv.slice(2);
  if (args.length === 0 && defaultArgs) args = defaultArgs;

  if (!fs.existsSync(cli)) {
    process.stderr.write(name + ': ' + cli + " is missing. Run 'npm ci && npm run build' in " + packageDir + '.\n');
    process.exit(1);
  }
  if (major >= MINIMUM_MAJOR) {
    process.argv = process.argv.slice(0, 2).concat(args);
    enableCompileCache();
    runStartFile(cli);
    require(cli);
    return;
  }
  var projectNode = path.join(packageDir, 'node_modules', 'node', 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  if (!fs.existsSync(projectNode) || process.env.QRELS_STUDIO_NO_REEXEC) {
    process.stderr.write(
      name + ' needs Node.js ' + MINIMUM_MAJOR + ' or newer; this is Node.js ' + process.versions.node +
        ' (' + process.execPath + ').\n' +
        'Install Node.js ' + MINIMUM_MAJOR + '+ (for example with nvm or your package manager), or run `npm ci` in ' +
        packageDir + " to get the project's own Node.js 24.\n",
    );
    process.exit(1);
  }
  var child = childProcess.spawnSync(projectNode, [cli].concat(args), {
    stdio: 'inherit',
    env: Object.assign({}, process.env, { QRELS_STUDIO_NO_REEXEC: '1' }),
  });
  if (child.error) {
    process.stderr.write(name + ': could not start ' + projectNode + ': ' + child.error.message + '\n');
    process.exit(1);
  }
  if (child.signal) process.kill(process.pid, child.signal);
  process.exit(child.status === null ? 1 : child.status);
}

module.exports = { launch: launch };
