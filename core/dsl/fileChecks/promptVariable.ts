import { promptVariableNames } from '../../judge/promptTemplate.ts';
import type { BlockNode } from '../ast.ts';
import { closestWords } from '../editDistance.ts';
import { existingReferences, type FileCheck } from './fileCheck.ts';

/** `{{ name }}` in a prompt template. */
const variablePattern = /\{\{\s*([^{}]*?)\s*\}\}/g;

/**
 * The variables a judge prompt can use: exactly those the judge fills in (core/judge/promptTemplate.ts) — the
 * pair's query, instruction, document and title, the query's conditions and the study's scale. The same for every
 * block: a review's critic gets its item as `instruction` and the item's parent query as `query`.
 */
export function promptVariables(_block: BlockNode): string[] {
  return [...promptVariableNames];
}

export const promptVariable: FileCheck = {
  code: 'prompt-variable',
  severity: 'error',
  description:
    'A `{{variable}}` in a judge prompt template that the judge does not fill in (query, instruction, document, ' +
    'title, conditions, scale): it would reach the model unfilled.',
  async check(context) {
    for (const ref of await existingReferences(context, ['prompt'])) {
      const template = await context.readText(context.resolve(ref.path.value));
      if (template === undefined) {
        context.report({ range: ref.path.range, message: `cannot read the prompt template ${ref.path.value}` });
        continue;
      }
      const available = promptVariables(ref.block);
      const reported = new Set<string>();
      const lines = template.split('\n');
      lines.forEach((line, index) => {
        for (const match of line.matchAll(variablePattern)) {
          const name = match[1]!;
          if (available.includes(name) || reported.has(name)) continue;
          reported.add(name);
          const close = closestWords(name, available);
          context.report({
            range: ref.path.range,
            message:
              `${ref.path.value} line ${index + 1} uses {{${name}}}, which the judge does not fill in ` +
              `(available: ${available.join(', ')})` +
              (close.length > 0 ? `; did you mean {{${close[0]}}}?` : ''),
          });
        }
      });
    }
  },
};
