// Go to definition: a path string opens that file (resolved against the study file's directory); a name or
// number in a derive expression jumps to the aspect, `conditions` statement or scale entry that declares it.
import { statementsOf } from '../ast.ts';
import { fileReferences, resolveStudyPath } from '../fileChecks/fileCheck.ts';
import type { ParsedStudyFile, TextRange } from '../types.ts';
import { blockAt, deriveOperandAt, meaningOf, tokenAt } from './lookup.ts';

export function definitionAt(
  parsed: ParsedStudyFile,
  offset: number,
  studyPath: string,
): { path: string } | { range: TextRange } | undefined {
  const token = tokenAt(parsed.tokens, offset);
  if (!token) return undefined;
  if (token.kind === 'string') {
    const exports = parsed.ast.blocks.flatMap((b) =>
      statementsOf(b, 'export').flatMap((e) => (e.path ? [e.path] : [])),
    );
    const paths = [...fileReferences(parsed.ast).map((r) => r.path), ...exports];
    const path = paths.find((p) => p.range.start === token.start);
    return path && path.value !== '' ? { path: resolveStudyPath(studyPath, path.value) } : undefined;
  }
  const block = blockAt(parsed.ast, offset);
  if (!block || !deriveOperandAt(block, token.start)) return undefined;
  const meaning = meaningOf(block, token);
  if (!meaning) return undefined;
  switch (meaning.kind) {
    case 'aspect':
      return { range: meaning.aspect.name!.range };
    case 'scale-value':
      return { range: meaning.entry.range };
    case 'conditions':
      return { range: meaning.statement.range };
  }
}
