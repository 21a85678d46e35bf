// `npm start` opens a copy of demo/, never demo/ itself: what a newcomer tries there (the quick fix the demo invites,
// labels, exports) is saved into the copy, so the repository's demo — which the end-to-end tests copy — stays as
// committed. The copy is kept between runs and replaced, with a word, only when demo/ itself changed.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The file in the copy that records which content of demo/ it was made from. */
export const sourceMarker = '.qrels-studio-demo-source';

/** A digest of every file of `folder` (paths and bytes), skipping databases a run may have left in it. */
export function folderDigest(folder: string): string {
  const hash = createHash('sha256');
  const visit = (path: string): void => {
    for (const entry of readdirSync(path).sort()) {
      if (entry === '.qrels-studio' || entry === sourceMarker) continue;
      const child = join(path, entry);
      if (statSync(child).isDirectory()) visit(child);
      else
        hash
          .update(`${relative(folder, child)}\0`)
          .update(readFileSync(child))
          .update('\0');
    }
  };
  visit(folder);
  return hash.digest('hex');
}

/**
 * The workspace `npm start` opens: `copy`, made from `demo` when missing or when `demo` changed since it was made
 * (then the old copy, with whatever was tried in it, is replaced). Returns the folder and what happened.
 */
export function prepareDemoWorkspace(demo: string, copy: string): { folder: string; made: 'new' | 'kept' | 'renewed' } {
  const digest = folderDigest(demo);
  const markerPath = join(copy, sourceMarker);
  const existing = existsSync(markerPath) ? readFileSync(markerPath, 'utf8').trim() : undefined;
  if (existing === digest) return { folder: copy, made: 'kept' };
  const made = existsSync(copy) ? 'renewed' : 'new';
  rmSync(copy, { recursive: true, force: true });
  mkdirSync(copy, { recursive: true });
  cpSync(demo, copy, { recursive: true, filter: (path) => !path.split(/[\\/]/).includes('.qrels-studio') });
  writeFileSync(markerPath, `${digest}\n`);
  return { folder: copy, made };
}
