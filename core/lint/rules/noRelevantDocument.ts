import { growInt32, growUint8 } from '../../formats/growableArrays.ts';
import { type LintRule, plural, quote } from '../rule.ts';

function labels(count: number): string {
  return count === 1 ? 'its only label is ≤ 0' : `all its ${plural(count, 'label')} are ≤ 0`;
}

export const noRelevantDocument: LintRule = {
  id: 'no-relevant-document',
  severity: 'hint',
  description:
    'A query whose judgments are all ≤ 0: it has no relevant document, so its recall-based measures are 0 or ' +
    'undefined and it pulls averages down. Real collections have such queries; this is a hint, at the first line ' +
    'of the query.',
  fileTypes: ['qrels', 'beir-qrels'],
  scope: 'query',
  create({ queries, report }) {
    let judged = new Int32Array(1024);
    let relevant = new Uint8Array(1024);
    return {
      line(line) {
        if (line.kind !== 'content' || Number.isNaN(line.label)) return;
        const q = line.qid;
        if (q >= judged.length) {
          judged = growInt32(judged, q + 1);
          relevant = growUint8(relevant, q + 1);
        }
        judged[q]!++;
        if (line.label > 0) relevant[q] = 1;
      },
      end() {
        const count = Math.min(queries.count, judged.length);
        for (let q = 0; q < count; q++) {
          if (judged[q] === 0 || relevant[q] === 1) continue;
          report({
            line: queries.firstLine(q),
            column: queries.firstColumn(q),
            endColumn: queries.firstEndColumn(q),
            message: `query ${quote(queries.text(q))} has no relevant document: ${labels(judged[q]!)}`,
          });
        }
      },
    };
  },
};
