// The house rules that keep the storage port a seam, checked on the source itself (test/scripts/houseRules.test.ts
// runs this on every `npm test`):
// 1. `core/` is editor-free: no `vscode` import in it (the CLI and the language server run it without an editor);
// 2. SQL lives in `core/store/` only: no SQL text, no `prepare()`/`pragma()` call and no `better-sqlite3` import
//    anywhere else in the product's code, so a second backend is an adapter, not a rewrite of every feature;
// 3. webviews import no store code: following their value imports (type-only imports are erased), nothing under
//    `core/store/` or `core/worker/`, no `better-sqlite3`, no `node:` module is reached — a webview gets its data as
//    messages, and its protocol is types.
// A violation is reported as `file:line:col`, the rule, and what was found there.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

export interface HouseRuleViolation {
  /** Relative to the checked root, with `/`. */
  file: string;
  line: number;
  column: number;
  rule: 'core-is-editor-free' | 'sql-only-in-core-store' | 'webviews-import-no-store-code';
  found: string;
}

/** The product's source folders (tests and scripts may open a store and read its files). */
const productFolders = ['core', 'cli', 'extension', 'language-server', 'webview'];

/** SQL statements as this code base writes them: keywords in capitals, at the start of a clause. */
const sqlText =
  /\b(SELECT\s+(DISTINCT\s+)?[\w*(]|INSERT\s+(OR\s+\w+\s+)?INTO\b|UPDATE\s+\w+\s+SET\b|DELETE\s+FROM\b|CREATE\s+(TEMP\s+|UNIQUE\s+)?(TABLE|INDEX|VIEW|TRIGGER)\b|DROP\s+(TABLE|INDEX|VIEW)\b|ALTER\s+TABLE\b|PRAGMA\s+\w)/;

/** Calls only a database handle makes. */
const databaseMethods = new Set(['prepare', 'pragma']);

function sourceFiles(root: string, folder: string): string[] {
  const start = join(root, folder);
  if (!existsSync(start)) return [];
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|tsx|mts|cts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(path);
    }
  };
  walk(start);
  return files.sort();
}

interface ModuleImport {
  specifier: string;
  /** Erased when compiled: `import type`, or only type specifiers. */
  typeOnly: boolean;
  node: ts.Node;
}

function importsOf(source: ts.SourceFile): ModuleImport[] {
  const found: ModuleImport[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      found.push({ specifier: node.moduleSpecifier.text, typeOnly, node });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly, node });
    } else if (
      ts.isCallExpression(node) &&
      node.arguments.length > 0 &&
      ts.isStringLiteral(node.arguments[0]!) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require'))
    ) {
      found.push({ specifier: (node.arguments[0] as ts.StringLiteral).text, typeOnly: false, node });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
}

function position(root: string, source: ts.SourceFile, node: ts.Node) {
  const { line, character } = source.getLineAndCharacterOfPosition(node.getStart(source));
  return { file: relative(root, source.fileName).split(sep).join('/'), line: line + 1, column: character + 1 };
}

function under(root: string, file: string, folder: string): boolean {
  const rel = relative(root, file).split(sep).join('/');
  return rel === folder || rel.startsWith(`${folder}/`);
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

function quoted(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}

function sqlViolations(root: string, source: ts.SourceFile): HouseRuleViolation[] {
  const found: HouseRuleViolation[] = [];
  const add = (node: ts.Node, what: string) =>
    found.push({ ...position(root, source, node), rule: 'sql-only-in-core-store', found: what });
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      if (sqlText.test(node.text)) add(node, `SQL text \`${quoted(node.text)}\``);
    } else if (ts.isTemplateExpression(node)) {
      const text = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ');
      if (sqlText.test(text)) add(node, `SQL text \`${quoted(text)}\``);
    } else if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      databaseMethods.has(node.expression.name.text)
    ) {
      add(node.expression.name, `a database call .${node.expression.name.text}()`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  for (const { specifier, node } of importsOf(source)) {
    if (packageName(specifier) === 'better-sqlite3') add(node, `an import of '${specifier}'`);
  }
  return found;
}

/** Resolves a relative import as this code base writes them (with the file's extension). */
function resolveImport(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const target = resolve(dirname(from), specifier);
  for (const candidate of [target, `${target}.ts`, `${target}.tsx`, join(target, 'index.ts')]) {
    if (existsSync(candidate) && /\.(ts|tsx)$/.test(candidate)) return candidate;
  }
  return undefined;
}

/** Node's own modules and the SQLite driver: nothing a webview may load. */
function isNodeOrSqlite(specifier: string): boolean {
  return specifier.startsWith('node:') || packageName(specifier) === 'better-sqlite3';
}

function relativePath(root: string, file: string): string {
  return relative(root, file).split(sep).join('/');
}

function webviewViolations(root: string, files: readonly string[]): HouseRuleViolation[] {
  const found: HouseRuleViolation[] = [];
  const forbiddenFolders = ['core/store', 'core/worker'];
  const parsed = new Map<string, ts.SourceFile>();
  const sourceOf = (file: string) => {
    let source = parsed.get(file);
    if (source === undefined) {
      source = parse(file);
      parsed.set(file, source);
    }
    return source;
  };
  const isStoreCode = (file: string) => forbiddenFolders.some((folder) => under(root, file, folder));
  /** Why a module is store code in all but name: it holds SQL, or imports the store for its values. */
  const storeBound = (file: string): string | undefined => {
    if (sqlViolations(root, sourceOf(file)).length > 0) return 'holds SQL';
    for (const imported of importsOf(sourceOf(file))) {
      const target = imported.typeOnly ? undefined : resolveImport(file, imported.specifier);
      if (target !== undefined && isStoreCode(target)) return `imports ${relativePath(root, target)}`;
    }
    return undefined;
  };
  for (const start of files) {
    const startSource = sourceOf(start);
    // What a webview file names directly, types included: its protocol and view models come from modules that
    // are plain types and logic, never from a module that talks to the record.
    for (const imported of importsOf(startSource)) {
      const target = resolveImport(start, imported.specifier);
      if (target === undefined || under(root, target, 'webview')) continue;
      const why = isStoreCode(target) ? 'is store code' : storeBound(target);
      if (why !== undefined) {
        found.push({
          ...position(root, startSource, imported.node),
          rule: 'webviews-import-no-store-code',
          found: `${imported.typeOnly ? 'a type import' : 'an import'} of ${relativePath(root, target)}, which ${why}`,
        });
      }
    }
    // Everything its code pulls in at run time (value imports, followed): no store, no Node. Each module reached is
    // reported at the webview file's import that first led to it.
    const report = (first: ModuleImport, what: string) =>
      found.push({ ...position(root, startSource, first.node), rule: 'webviews-import-no-store-code', found: what });
    const seen = new Set([start]);
    const visiting: { file: string; first: ModuleImport }[] = [];
    for (const first of importsOf(startSource)) {
      if (first.typeOnly) continue;
      const target = resolveImport(start, first.specifier);
      if (isNodeOrSqlite(first.specifier)) report(first, `an import of '${first.specifier}'`);
      else if (target !== undefined && !seen.has(target)) {
        seen.add(target);
        // Store code the webview file imports itself was reported above, by what it names.
        if (!isStoreCode(target)) visiting.push({ file: target, first });
      }
    }
    while (visiting.length > 0) {
      const { file, first } = visiting.shift()!;
      const path = relativePath(root, file);
      for (const imported of importsOf(sourceOf(file))) {
        if (imported.typeOnly) continue;
        if (isNodeOrSqlite(imported.specifier)) {
          report(first, `'${imported.specifier}' at run time (imported by ${path})`);
          continue;
        }
        const target = resolveImport(file, imported.specifier);
        if (target === undefined || seen.has(target)) continue;
        seen.add(target);
        if (isStoreCode(target)) {
          const through = relativePath(root, resolveImport(start, first.specifier) ?? file);
          report(first, `store code ${relativePath(root, target)} at run time (through ${through})`);
        } else visiting.push({ file: target, first });
      }
    }
  }
  return found;
}

/** Every violation of the house rules under `root` (a checkout), in file order. */
export function houseRuleViolations(root: string): HouseRuleViolation[] {
  const violations: HouseRuleViolation[] = [];
  for (const file of sourceFiles(root, 'core')) {
    const source = parse(file);
    for (const { specifier, node } of importsOf(source)) {
      if (specifier === 'vscode' || specifier.startsWith('vscode/')) {
        violations.push({
          ...position(root, source, node),
          rule: 'core-is-editor-free',
          found: `an import of '${specifier}'`,
        });
      }
    }
  }
  for (const folder of productFolders) {
    for (const file of sourceFiles(root, folder)) {
      if (under(root, file, 'core/store')) continue;
      violations.push(...sqlViolations(root, parse(file)));
    }
  }
  violations.push(...webviewViolations(root, sourceFiles(root, 'webview')));
  return violations.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);
}

export function formatViolation(v: HouseRuleViolation): string {
  return `${v.file}:${v.line}:${v.column}: ${v.rule}: ${v.found}`;
}

if (import.meta.main) {
  const violations = houseRuleViolations(resolve(import.meta.dirname, '..'));
  for (const v of violations) console.log(formatViolation(v));
  console.log(violations.length === 0 ? 'house rules: no violation' : `house rules: ${violations.length} violations`);
  process.exitCode = violations.length === 0 ? 0 : 1;
}
