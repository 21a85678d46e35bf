// One factory for the "declared twice" checks (scale values, keys, annotators, aspects, taxonomy codes, rubric
// levels and dimensions, verdicts, mapping roles, judges): the second declaration is the error, pointing at the
// first, because the first is the one the rest of the file already uses.
import type { BlockNode } from '../ast.ts';
import type { TextRange } from '../types.ts';
import { eachBlock, type StudyCheck } from './check.ts';

export interface Declared {
  /** What makes two declarations the same. */
  key: string;
  /** How the declaration reads in a message. */
  shown: string;
  range: TextRange;
}

export function duplicateNamesCheck(options: {
  code: string;
  description: string;
  /** "scale value", "annotator". */
  noun: string;
  /** Groups of declarations that must be unique within each group. */
  collect(block: BlockNode): Declared[][];
}): StudyCheck {
  return {
    code: options.code,
    severity: 'error',
    description: options.description,
    check(context) {
      eachBlock(context, (block, report) => {
        for (const group of options.collect(block)) {
          const first = new Map<string, Declared>();
          for (const declared of group) {
            const earlier = first.get(declared.key);
            if (!earlier) {
              first.set(declared.key, declared);
              continue;
            }
            report({
              range: declared.range,
              message: `duplicate ${options.noun} ${declared.shown}: already declared`,
              related: { range: earlier.range, message: `first ${options.noun} ${earlier.shown}` },
            });
          }
        }
      });
    },
  };
}
