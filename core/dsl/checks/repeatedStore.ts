import type { StudyCheck } from './check.ts';

export const repeatedStore: StudyCheck = {
  code: 'repeated-store',
  severity: 'error',
  description:
    'A second top-level `store` statement: every block of a file lives in one store, so which one applies would be ' +
    'a guess. Reported on the second.',
  check(context) {
    const [first, ...rest] = context.file.stores;
    for (const store of rest) {
      context.report({
        range: store.keyword,
        message: 'expected one `store` statement per file (it applies to every block), found a second',
        related: { range: first!.keyword, message: 'first `store`' },
      });
    }
  },
};
