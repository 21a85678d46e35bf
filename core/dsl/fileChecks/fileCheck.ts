// A cross-file check: like a semantic check (../checks/check.ts) but async, and it may ask the injected
// StudyHost about the files the study names. It never calls node:fs itself. The context resolves paths against
// the study file's directory and remembers host answers, so five checks asking about one file cost one read.
import { dirname, isAbsolute, resolve } from 'node:path';
import type { BlockNode, StringNode, StudyFileAst } from '../ast.ts';
import type { CheckReport } from '../checks/check.ts';
import type { StudyHost } from '../studyHost.ts';
import type { DslSeverity } from '../types.ts';

export interface FileCheckContext {
  readonly file: StudyFileAst;
  readonly text: string;
  /** The study file's absolute path. */
  readonly studyPath: string;
  /** A path as written in the study file, made absolute. */
  resolve(path: string): string;
  exists(path: string): Promise<boolean>;
  readFields(path: string): Promise<{ fields: string[] } | { problem: string }>;
  readText(path: string): Promise<string | undefined>;
  readonly host: StudyHost;
  report(problem: CheckReport): void;
}

export interface FileCheck {
  readonly code: string;
  readonly severity: DslSeverity;
  readonly description: string;
  check(context: FileCheckContext): Promise<void>;
}

export function resolveStudyPath(studyPath: string, path: string): string {
  return isAbsolute(path) ? path : resolve(dirname(studyPath), path);
}

export function createFileCheckContext(
  file: StudyFileAst,
  text: string,
  studyPath: string,
  host: StudyHost,
  report: FileCheckContext['report'],
): FileCheckContext {
  const memo = <T>(ask: (path: string) => Promise<T>) => {
    const answers = new Map<string, Promise<T>>();
    return (path: string): Promise<T> => {
      let answer = answers.get(path);
      if (!answer) {
        answer = ask(path);
        answers.set(path, answer);
      }
      return answer;
    };
  };
  return {
    file,
    text,
    studyPath,
    host,
    report,
    resolve: (path) => resolveStudyPath(studyPath, path),
    exists: memo((path) => host.exists(path)),
    readFields: memo((path) => host.readFields(path)),
    readText: memo((path) => host.readText(path)),
  };
}

export type ReferenceKind = 'guidelines' | 'queries' | 'corpus' | 'items' | 'tables' | 'pool' | 'prompt' | 'import';

export interface FileReference {
  kind: ReferenceKind;
  path: StringNode;
  block: BlockNode;
}

/** Every file the study reads (export paths are outputs and are not here). */
export function fileReferences(file: StudyFileAst): FileReference[] {
  const out: FileReference[] = [];
  for (const block of file.blocks) {
    for (const statement of block.statements) {
      switch (statement.kind) {
        case 'guidelines':
        case 'tables':
        case 'queries':
        case 'corpus':
        case 'items':
        case 'pool':
        case 'import':
          if (statement.path) out.push({ kind: statement.kind, path: statement.path, block });
          break;
        case 'judge':
          for (const option of statement.options) {
            if (option.name === 'prompt' && option.value && typeof option.value.value === 'string') {
              out.push({ kind: 'prompt', path: option.value as StringNode, block });
            }
          }
          break;
      }
    }
  }
  return out;
}

/** The references whose file exists (checks that read a file skip missing ones: file-not-found reports them). */
export async function existingReferences(
  context: FileCheckContext,
  kinds: readonly ReferenceKind[],
): Promise<FileReference[]> {
  const refs = fileReferences(context.file).filter((r) => kinds.includes(r.kind) && r.path.value !== '');
  const exists = await Promise.all(refs.map((r) => context.exists(context.resolve(r.path.value))));
  return refs.filter((_, i) => exists[i]);
}
