import { type FileCheck, fileReferences } from './fileCheck.ts';

export const fileNotFound: FileCheck = {
  code: 'file-not-found',
  severity: 'error',
  description:
    'A file the study reads (guidelines, queries, corpus, items, pool runs, prompt, imported qrels) does not exist.',
  async check(context) {
    const refs = fileReferences(context.file);
    await Promise.all(
      refs.map(async (ref) => {
        if (ref.path.value === '') {
          context.report({ range: ref.path.range, message: `expected a file path, found an empty string` });
          return;
        }
        const absolute = context.resolve(ref.path.value);
        if (await context.exists(absolute)) return;
        context.report({ range: ref.path.range, message: `file not found: ${absolute}` });
      }),
    );
  },
};
