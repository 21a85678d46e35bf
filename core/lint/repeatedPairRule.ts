// Shared by duplicate-pair (qrels) and duplicate-docid (runs): a (query, document) pair seen again, reported on
// the second occurrence with a link to the first. The session finds repeats (line.firstPair); rules word them.
import { type LintRule, quote } from './rule.ts';
import type { LintFileType } from './types.ts';

export interface RepeatedPairWording {
  id: string;
  description: string;
  fileTypes: readonly LintFileType[];
  /** "judged" / "ranked". */
  verb: string;
  /** "judgment" / "ranking". */
  noun: string;
  /** What the reader of this file does about it. */
  consequence(fileType: LintFileType): string;
}

export function repeatedPairRule(wording: RepeatedPairWording): LintRule {
  return {
    id: wording.id,
    severity: 'error',
    description: wording.description,
    fileTypes: wording.fileTypes,
    scope: 'query',
    skipsPlainLines: true,
    create({ format, queries, pairs, report }) {
      const field = format.docidField;
      const consequence = wording.consequence(format.type);
      return {
        line(line) {
          if (line.firstPair < 0 || line.kind !== 'content') return;
          const first = line.firstPair;
          const docid = quote(line.fieldText(field));
          const query = quote(queries.text(line.qid));
          const firstLine = pairs.line(first);
          report({
            line: line.number,
            column: line.fieldColumn(field),
            endColumn: line.fieldEndColumn(field),
            message: `document ${docid} is ${wording.verb} again for query ${query}: first ${wording.verb} on line ${firstLine} (${consequence})`,
            related: {
              line: firstLine,
              column: pairs.column(first),
              message: `first ${wording.noun} of ${docid} for query ${query}`,
            },
          });
        },
      };
    },
  };
}
