import { existingReferences, type FileCheck } from './fileCheck.ts';

export const runFileInvalid: FileCheck = {
  code: 'run-file-invalid',
  severity: 'error',
  description: 'A pool run file that does not parse as a TREC run: pooling would skip or misread its lines.',
  async check(context) {
    for (const ref of await existingReferences(context, ['pool'])) {
      const result = await context.host.checkRunFile(context.resolve(ref.path.value));
      if (result.errors === 0) continue;
      const first = result.first
        ? `, first at ${result.first.line}:${result.first.column}: ${result.first.message}`
        : '';
      context.report({
        range: ref.path.range,
        message: `${ref.path.value} does not parse: ${result.errors} error${result.errors === 1 ? '' : 's'}${first}`,
      });
    }
  },
};
