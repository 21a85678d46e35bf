import { type LintRule, plural, quote } from '../rule.ts';

interface TagUse {
  line: number;
  column: number;
  endColumn: number;
  count: number;
}

export const mixedRunTags: LintRule = {
  id: 'mixed-run-tags',
  severity: 'warning',
  description:
    'A run file whose lines carry more than one run tag (last column). trec_eval reports only the tag of the last ' +
    'line, so a concatenation of runs is evaluated as one. Reported once per different tag, at its first line, ' +
    "pointing at the file's first tag.",
  fileTypes: ['run'],
  scope: 'file',
  readsFields: true,
  create({ format, report }) {
    const field = format.tagField;
    const uses = new Map<string, TagUse>();
    // The previous line's tag bytes: consecutive lines almost always share the tag, so no string is made for them.
    let last: TagUse | undefined;
    let lastBytes = new Uint8Array(0);
    return {
      line(line) {
        if (line.kind !== 'content' || !line.wellFormed) return;
        const bytes = line.bytes;
        const start = line.starts[field]!;
        const end = line.ends[field]!;
        if (last !== undefined && end - start === lastBytes.length) {
          let i = 0;
          while (i < lastBytes.length && lastBytes[i] === bytes[start + i]) i++;
          if (i === lastBytes.length) {
            last.count++;
            return;
          }
        }
        lastBytes = Uint8Array.prototype.slice.call(bytes, start, end); // a copy: the buffer is read into again
        const tag = Buffer.from(lastBytes).toString('utf8');
        last = uses.get(tag);
        if (last === undefined) {
          last = { line: line.number, column: line.column(start), endColumn: line.column(end), count: 0 };
          uses.set(tag, last);
        }
        last.count++;
      },
      end() {
        if (uses.size < 2) return;
        const [mainTag, main] = uses.entries().next().value!;
        for (const [tag, use] of uses) {
          if (use === main) continue;
          report({
            line: use.line,
            column: use.column,
            endColumn: use.endColumn,
            message:
              `run tag ${quote(tag)} (${plural(use.count, 'line')}) differs from ${quote(mainTag)} of line ` +
              `${main.line} (${plural(main.count, 'line')}): trec_eval evaluates the file as one run and reports only ` +
              "the last line's tag",
            related: { line: main.line, column: main.column, message: `first run tag, ${quote(mainTag)}` },
          });
        }
      },
    };
  },
};
