#!/usr/bin/env node
// Launcher of the qrels-studio CLI. Written in old, plain JavaScript on purpose: it must run on any Node.js and,
// on one older than the CLI needs, either hand over to the project's own Node (the `node` devDependency that
// `npm ci` installs) or say clearly what to do, instead of crashing inside a native module.
'use strict';
var path = require('path');
var fs = require('fs');
var childProcess = require('child_process');

var MINIMUM_MAJOR = 22;

function main() {
  var packageDir = path.join(__dirname, '..');
  var cli = path.join(packageDir, 'dist', 'cli.cjs');
  var major = Number(process.versions.node.split('.')[0]);

  if (!fs.existsSync(cli)) {
    process.stderr.write('qrels-studio: ' + cli + " is missing. Run 'npm ci && npm run build' in " + packageDir + '.\n');
    process.exit(1);
  }
  if (major >= MINIMUM_MAJOR) {
    require(cli);
    return;
  }
  var projectNode = path.join(packageDir, 'node_modules', 'node', 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  if (!fs.existsSync(projectNode) || process.env.QRELS_STUDIO_NO_REEXEC) {
    process.stderr.write(
      'qrels-studio needs Node.js ' + MINIMUM_MAJOR + ' or newer; this is Node.js ' + process.versions.node +
        ' (' + process.execPath + ').\n' +
        'Install Node.js ' + MINIMUM_MAJOR + '+ (for example with nvm or your package manager), or run `npm ci` in ' +
        packageDir + " to get the project's own Node.js 24.\n",
    );
    process.exit(1);
  }
  var child = childProcess.spawnSync(projectNode, [cli].concat(process.argv.slice(2)), {
    stdio: 'inherit',
    env: Object.assign({}, process.env, { QRELS_STUDIO_NO_REEXEC: '1' }),
  });
  if (child.error) {
    process.stderr.write('qrels-studio: could not start ' + projectNode + ': ' + child.error.message + '\n');
    process.exit(1);
  }
  if (child.signal) process.kill(process.pid, child.signal);
  process.exit(child.status === null ? 1 : child.status);
}

main();
