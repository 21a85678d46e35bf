import { quote, type RecordRule } from '../rule.ts';

export const duplicateHeader: RecordRule = {
  id: 'duplicate-header',
  severity: 'error',
  description:
    "A column name that appears twice in a CSV/TSV header. pandas renames the second ('text.1'), csv.DictReader " +
    "keeps only the second one's values: either way a mapping to that name reads one column and drops the other.",
  formats: ['csv', 'tsv'],
  create({ report }) {
    return {
      header(header) {
        const seen = new Map<string, number>();
        header.names.forEach((name, index) => {
          if (name === '') return;
          const first = seen.get(name);
          if (first === undefined) {
            seen.set(name, index);
            return;
          }
          const span = header.spans[index]!;
          const firstSpan = header.spans[first]!;
          report({
            line: span.line,
            column: span.column,
            endLine: span.endLine,
            endColumn: span.endColumn,
            message:
              `column ${quote(name)} appears again (first as column ${first + 1}): pandas renames this one to ` +
              `${quote(`${name}.1`)}, csv.DictReader keeps only its values`,
            related: { line: firstSpan.line, column: firstSpan.column, message: `first column named ${quote(name)}` },
          });
        });
      },
    };
  },
};
