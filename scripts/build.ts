// Bundles every program of the product with esbuild and puts the SQLite binaries next to the Node bundles.
//   dist/extension.cjs  extension host (CJS, Node, `vscode` external)
//   dist/server.cjs     language server (CJS, Node)
//   dist/cli.cjs        CLI (CJS, Node; started by bin/qrels-studio.cjs)
//   dist/studyWorker.cjs the extension host's study store, in a worker thread (core/worker/)
//   dist/evalWorker.cjs  the second thread of a CLI eval (core/metrics/parallel/)
//   dist/cli.start.cjs   run by bin/launch.cjs before cli.cjs: starts that thread before the CLI's bundle loads
//   dist/webview/*.js   one browser bundle per webview/<name>/main.tsx
//   dist/tokenizer/     gpt-tokenizer's encodings, one file each, required when a judge budget counts tokens
//   dist/native/        better-sqlite3 N-API prebuilds, one per platform, loaded through `nativeBinding`
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type BuildOptions, build } from 'esbuild';
import { nativeBindingFileName, nativeBindingTargets } from '../core/store/sqliteDatabase.ts';

const root = join(import.meta.dirname, '..');
const dist = join(root, 'dist');
const production = process.argv.includes('--production');
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version as string;

rmSync(dist, { recursive: true, force: true });
mkdirSync(join(dist, 'native'), { recursive: true });

const nodeBundle: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: production ? false : 'linked',
  minify: production,
  legalComments: 'none',
  // import.meta.dirname: the bundle's folder (a worker's file beside it, see core/metrics/parallel).
  define: { QRELS_STUDIO_VERSION: JSON.stringify(version), 'import.meta.dirname': '__dirname' },
  // jsonc-parser's "main" is a UMD build whose require('./impl/…') calls esbuild cannot follow; its ES build bundles.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  logLevel: 'warning',
};

const nodeEntries: Record<string, string> = {
  extension: 'extension/extension.ts',
  server: 'language-server/server.ts',
  cli: 'cli/index.ts',
  // The extension host's study store runs in this worker thread (core/worker/workerStudyStore.ts).
  studyWorker: 'core/worker/studyWorker.ts',
  // The second thread of `eval` (core/metrics/parallel/parallelEvaluation.ts), beside cli.cjs.
  evalWorker: 'core/metrics/parallel/evalWorker.ts',
  // Run by bin/launch.cjs before cli.cjs loads: starts eval's second thread sooner.
  'cli.start': 'cli/startEvalWorkerFromLauncher.ts',
};

// The token encodings of core/judge/budget/tokenCount.ts: dist/tokenizer/<name>.cjs, required beside the bundles.
const tokenizerEncodings = ['o200k_base', 'cl100k_base'];

const webviewDir = join(root, 'webview');
const webviewEntries = readdirSync(webviewDir, { withFileTypes: true })
  .filter((e) => e.isDirectory() && existsSync(join(webviewDir, e.name, 'main.tsx')))
  .map((e) => e.name);

await Promise.all([
  ...Object.entries(nodeEntries)
    .filter(([, entry]) => existsSync(join(root, entry)))
    .map(([name, entry]) =>
      build({
        ...nodeBundle,
        entryPoints: [join(root, entry)],
        outfile: join(dist, `${name}.cjs`),
        // pg's optional native client (`require('pg-native')` behind a getter) is never used: pg is bundled pure JS.
        // gpt-tokenizer's encodings are files of their own (below), loaded only when a judge budget counts tokens.
        external: ['vscode', 'pg-native', 'gpt-tokenizer', 'gpt-tokenizer/*'],
      }),
    ),
  ...tokenizerEncodings.map((encoding) =>
    build({
      ...nodeBundle,
      entryPoints: [join(root, 'node_modules', 'gpt-tokenizer', 'esm', 'encoding', `${encoding}.js`)],
      outfile: join(dist, 'tokenizer', `${encoding}.cjs`),
    }),
  ),
  ...webviewEntries.map((name) =>
    build({
      bundle: true,
      platform: 'browser',
      format: 'iife',
      target: 'chrome120',
      sourcemap: production ? false : 'linked',
      minify: production,
      legalComments: 'none',
      define: { 'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development') },
      entryPoints: [join(webviewDir, name, 'main.tsx')],
      outfile: join(dist, 'webview', `${name}.js`),
      logLevel: 'warning',
    }),
  ),
]);

const prebuilds = join(root, 'node_modules', 'better-sqlite3', 'prebuilds');
for (const target of nativeBindingTargets) {
  copyFileSync(join(prebuilds, `${target}.node`), join(dist, 'native', nativeBindingFileName(target)));
}

console.log(
  `built ${Object.keys(nodeEntries)
    .filter((n) => existsSync(join(dist, `${n}.cjs`)))
    .join(', ')}` +
    `${webviewEntries.length ? `, webviews ${webviewEntries.join(', ')}` : ''}` +
    ` and ${nativeBindingTargets.length} SQLite binaries (${production ? 'production' : 'development'})`,
);
