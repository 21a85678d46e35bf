// Completion: the parser is run on the text up to the cursor (up to the start of the word or string being
// typed) and says what it would have accepted there — so only what is valid at that place is offered: the
// statement keywords of the block the cursor is in, the options of a judge block, the values after `scale` or
// `from`, the roles of a mapping, a data file's fields after `role:`, paths inside a path string, and in a derive
// expression the declared aspects, `conditions`, `all`/`any`/`count` and the scale values.
import { measureCompletions } from '../../metrics/measureNames.ts';
import { statementOf, statementsOf } from '../ast.ts';
import { type KeywordContext, keywordDoc } from '../keywords.ts';
import type { Token } from '../lexer.ts';
import { expectationsAt } from '../parser.ts';
import type { ParsedStudyFile, TextRange } from '../types.ts';
import { blockAt, tokenAt } from './lookup.ts';

export interface DslCompletion {
  label: string;
  kind: 'keyword' | 'field' | 'path' | 'name' | 'value';
  detail?: string;
  insertText?: string;
  /** The text the completion replaces (the word or path being typed). */
  range?: TextRange;
}

export interface CompletionContext {
  /** Field names of the data file of a source (`queries`, `corpus`, `items`) of the block at the cursor. */
  fieldsOf?(source: 'queries' | 'corpus' | 'items'): string[];
  /** Paths (relative to the study file) that start with `prefix`. */
  paths?(prefix: string): string[];
}

const valueContexts: ReadonlySet<KeywordContext> = new Set([
  'scale-kind',
  'agreement-metric',
  'agreement-level',
  'export-kind',
  'import-kind',
  'label-source',
  'format',
  'store-kind',
  'judge-mode',
  'currency',
  'gate-metric',
]);

/** A path as it must be written inside a string. */
function escapeString(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}

export function completionsAt(
  parsed: ParsedStudyFile,
  offset: number,
  context: CompletionContext = {},
): DslCompletion[] {
  const { text } = parsed;
  offset = Math.max(0, Math.min(offset, text.length));
  const token = tokenAt(parsed.tokens, offset) ?? tokenAt(parsed.tokens, offset - 1);
  const inside = token && token.start < offset && (offset < token.end || (offset === token.end && isOpenEnded(token)));

  if (inside && token.kind === 'comment') return [];
  if (inside && token.kind === 'string') {
    const { expectations } = expectationsAt(text.slice(0, token.start));
    if (!expectations.some((e) => e.kind === 'path')) return [];
    const range = { start: token.start + 1, end: token.unterminated ? token.end : token.end - 1 };
    const prefix = text.slice(token.start + 1, offset).replace(/\\(["\\])/g, '$1');
    return (context.paths?.(prefix) ?? []).map((path) => ({
      label: path,
      kind: 'path',
      insertText: escapeString(path),
      range,
    }));
  }

  // The word being typed is replaced; the parser sees the text before it.
  const word = token?.kind === 'name' && token.start < offset && offset <= token.end ? token : undefined;
  const cut = word ? word.start : offset;
  const range = word ? { start: word.start, end: word.end } : undefined;
  const { expectations } = expectationsAt(text.slice(0, cut));

  const out: DslCompletion[] = [];
  const seen = new Set<string>();
  const add = (completion: DslCompletion) => {
    const key = `${completion.kind}:${completion.label}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(range ? { ...completion, range } : completion);
  };
  const block = blockAt(parsed.ast, cut);

  for (const expectation of expectations) {
    switch (expectation.kind) {
      case 'words':
        for (const id of expectation.ids) {
          const doc = keywordDoc(id);
          if (!doc) continue;
          add({ label: doc.word, kind: valueContexts.has(doc.context) ? 'value' : 'keyword', detail: doc.syntax });
        }
        break;
      case 'path':
        for (const path of context.paths?.('') ?? []) {
          add({ label: path, kind: 'path', insertText: `"${escapeString(path)}"` });
        }
        break;
      case 'field':
        for (const field of context.fieldsOf?.(expectation.source) ?? [])
          add(fieldCompletion(field, `${expectation.role} field`));
        break;
      case 'query-field': {
        for (const field of context.fieldsOf?.('queries') ?? []) add(fieldCompletion(field, 'query field'));
        break;
      }
      case 'measure':
        for (const measure of measureCompletions()) {
          add({
            label: measure.name,
            kind: 'value',
            detail: measure.detail,
            ...(!/^[\p{L}_][\p{L}\p{N}_-]*$/u.test(measure.name) && { insertText: `"${measure.name}"` }),
          });
        }
        break;
      case 'derive-operand': {
        if (!block) break;
        for (const aspect of statementsOf(block, 'aspect')) {
          if (aspect.name) add({ label: aspect.name.text, kind: 'name', detail: aspect.question?.value ?? 'aspect' });
        }
        if (statementOf(block, 'conditions'))
          add({ label: 'conditions', kind: 'name', detail: 'the per-condition checkboxes' });
        add({ label: 'all', kind: 'keyword', detail: 'all(NAME, …)', insertText: 'all(' });
        add({ label: 'any', kind: 'keyword', detail: 'any(NAME, …)', insertText: 'any(' });
        add({ label: 'count', kind: 'keyword', detail: 'count(NAME, …)', insertText: 'count(' });
        for (const entry of statementsOf(block, 'scale').flatMap((s) => s.entries)) {
          if (Number.isFinite(entry.value.value))
            add({ label: entry.value.text, kind: 'value', detail: entry.label?.value ?? '' });
        }
        break;
      }
    }
  }
  return out;
}

function fieldCompletion(field: string, detail: string): DslCompletion {
  const bare = /^[\p{L}_][\p{L}\p{N}_-]*$/u.test(field);
  return { label: field, kind: 'field', detail, ...(!bare && { insertText: `"${escapeString(field)}"` }) };
}

/** A token that goes on to the end of its line (an unterminated string, a comment): the cursor at its end is in it. */
function isOpenEnded(token: Token): boolean {
  return token.kind === 'comment' || token.unterminated === true;
}
