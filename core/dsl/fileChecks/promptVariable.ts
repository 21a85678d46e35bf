import { type BlockNode, sourceStatements } from '../ast.ts';
import { closestWords } from '../editDistance.ts';
import { existingReferences, type FileCheck } from './fileCheck.ts';

/** `{{ name }}` in a prompt template. */
const variablePattern = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** The variables a judge prompt of `block` can use: its mapped roles, plus the block's own declarations. */
export function promptVariables(block: BlockNode): string[] {
  const roles = sourceStatements(block).flatMap((s) => s.mappings.map((m) => m.role.text));
  const own = block.kind === 'study' ? ['scale', 'aspects', 'conditions'] : ['taxonomy', 'rubric', 'verdicts'];
  return [...new Set([...roles, ...own])];
}

export const promptVariable: FileCheck = {
  code: 'prompt-variable',
  severity: 'error',
  description:
    'A `{{variable}}` in a judge prompt template that the study does not provide (its mapped roles, `scale`, ' +
    '`aspects`, `conditions`; for reviews the items roles, `taxonomy`, `rubric`, `verdicts`): it would reach ' +
    'the model unfilled.',
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
              `${ref.path.value} line ${index + 1} uses {{${name}}}, which this ${ref.block.kind} does not provide ` +
              `(available: ${available.join(', ')})` +
              (close.length > 0 ? `; did you mean {{${close[0]}}}?` : ''),
          });
        }
      });
    }
  },
};
