import type { StudyCheck } from './check.ts';

export const duplicateBlockName: StudyCheck = {
  code: 'duplicate-block-name',
  severity: 'error',
  description:
    'Two studies or reviews with the same name in one file: the name identifies the block in the task database ' +
    'and on the command line.',
  check({ file, report }) {
    const first = new Map<string, { kind: string; range: { start: number; end: number } }>();
    for (const block of file.blocks) {
      if (!block.name) continue;
      const earlier = first.get(block.name.value);
      if (!earlier) {
        first.set(block.name.value, { kind: block.kind, range: block.name.range });
        continue;
      }
      report({
        range: block.name.range,
        message: `duplicate name ${JSON.stringify(block.name.value)}: a ${earlier.kind} in this file already has it`,
        related: { range: earlier.range, message: `first ${earlier.kind} named ${JSON.stringify(block.name.value)}` },
      });
    }
  },
};
