import { existingReferences, type FileCheck } from './fileCheck.ts';

export const dataFileUnreadable: FileCheck = {
  code: 'data-file-unreadable',
  severity: 'error',
  description:
    'A queries, corpus or items file exists but its fields cannot be read (not JSONL, CSV or TSV; broken first records).',
  async check(context) {
    for (const ref of await existingReferences(context, ['queries', 'corpus', 'items'])) {
      const answer = await context.readFields(context.resolve(ref.path.value));
      if ('problem' in answer) {
        context.report({
          range: ref.path.range,
          message: `cannot read the fields of ${ref.path.value}: ${answer.problem}`,
        });
      }
    }
  },
};
