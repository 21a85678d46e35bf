// Semantic highlighting from the parser's annotations: keywords, enumerated values, roles, names, strings,
// numbers, operators and comments, in text order. Tokens never span a line (strings and comments end at the end
// of their line), which is what LSP clients without multiline-token support need.
import type { SemanticType } from '../lexer.ts';
import type { ParsedStudyFile } from '../types.ts';

export interface DslSemanticToken {
  start: number;
  length: number;
  type: SemanticType;
}

export function semanticTokens(parsed: ParsedStudyFile): DslSemanticToken[] {
  const out: DslSemanticToken[] = [];
  for (const token of parsed.tokens) {
    let type: SemanticType | undefined;
    switch (token.kind) {
      case 'comment':
        type = 'comment';
        break;
      case 'string':
        type = 'string';
        break;
      case 'number':
        type = 'number';
        break;
      case 'name':
        type = token.semantic ?? 'variable';
        break;
      case 'punct':
        type = token.semantic === 'operator' ? 'operator' : undefined;
        break;
    }
    if (type && token.end > token.start) out.push({ start: token.start, length: token.end - token.start, type });
  }
  return out;
}
