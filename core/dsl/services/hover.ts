// Hover: the keyword table's entry for every keyword, clause word, value and role (keywords.ts), and for names
// what they stand for (an aspect its question, a scale value its label and description).
import { measureDescription } from '../../metrics/measureNames.ts';
import { statementsOf } from '../ast.ts';
import { keywordDoc, keywordMarkdown } from '../keywords.ts';
import type { ParsedStudyFile, TextRange } from '../types.ts';
import { blockAt, meaningOf, tokenAt } from './lookup.ts';

export function hoverAt(parsed: ParsedStudyFile, offset: number): { range: TextRange; markdown: string } | undefined {
  const token = tokenAt(parsed.tokens, offset);
  if (!token) return undefined;
  const range = { start: token.start, end: token.end };
  const doc = token.doc === undefined ? undefined : keywordDoc(token.doc);
  if (doc) return { range, markdown: keywordMarkdown(doc) };
  const block = blockAt(parsed.ast, offset);
  if (!block) return undefined;
  // A name in `measures`: what the measure is and which tool it equals.
  for (const statement of statementsOf(block, 'measures')) {
    const name = statement.names.find((n) => n.range.start <= token.start && token.end <= n.range.end);
    const markdown = name && measureDescription(name.text);
    if (name && markdown) return { range: name.range, markdown };
  }
  const meaning = meaningOf(block, token);
  if (!meaning) return undefined;
  switch (meaning.kind) {
    case 'aspect': {
      const { aspect } = meaning;
      return { range, markdown: `**aspect** \`${aspect.name!.text}\`\n\n${aspect.question?.value ?? '(no question)'}` };
    }
    case 'scale-value': {
      const { entry } = meaning;
      const lines = [`**scale value ${entry.value.text}** — ${entry.label?.value ?? '(no label)'}`];
      if (entry.description) lines.push(entry.description.value);
      if (entry.key) lines.push(`Key: \`${entry.key.value}\``);
      return { range, markdown: lines.join('\n\n') };
    }
    case 'conditions':
      return {
        range,
        markdown: `**conditions** — the per-condition checkboxes, read from \`${meaning.statement.field?.text ?? '?'}\``,
      };
  }
}
