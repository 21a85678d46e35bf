import { growFloat64, growInt32 } from '../../formats/growableArrays.ts';
import { type LintRule, plural, quote } from '../rule.ts';

// trec_eval ignores the rank column: it sorts each query's documents by score, highest first, and breaks ties by
// docid compared byte by byte (strcmp), highest first. This rule compares that order with the order the ranks
// give. Per query, documents are taken in rank order (equal ranks form one group, in which any order is fine);
// the order disagrees where, between two consecutive rank groups, trec_eval would put a document of the later
// group before one of the earlier group. One warning per query, at the first such place in rank order, on the
// later-ranked document's rank and score, pointing at the earlier-ranked one; the message counts the other places.
// Lines with an invalid rank or score, and second occurrences of a docid, are left out.

export const rankScoreDisagreement: LintRule = {
  id: 'rank-score-disagreement',
  severity: 'warning',
  description:
    'In a query, the ranks order documents differently from how trec_eval orders them (score descending, ties ' +
    'by docid descending, ranks ignored), so the evaluated ranking is not the one the ranks describe. One warning ' +
    'per query, at the first disagreement in rank order.',
  fileTypes: ['run'],
  scope: 'query',
  readsPairsLater: true,
  create({ format, queries, pairs, expectedLines, report }) {
    let count = 0;
    let qids = new Int32Array(expectedLines);
    let entries = new Int32Array(expectedLines);
    let lines = new Int32Array(expectedLines);
    let columns = new Int32Array(expectedLines);
    let endColumns = new Int32Array(expectedLines);
    let ranks = new Float64Array(expectedLines);
    let scores = new Float64Array(expectedLines);

    /** True when trec_eval puts document `a` before document `b`. */
    const trecBefore = (a: number, b: number): boolean =>
      scores[a]! > scores[b]! || (scores[a] === scores[b] && pairs.compareDocids(entries[a]!, entries[b]!) > 0);

    function explain(later: number, earlier: number, others: number, query: string): string {
      const rank = ranks[later]!;
      const earlierRank = ranks[earlier]!;
      const where = `rank ${earlierRank} (line ${lines[earlier]})`;
      const why =
        scores[later]! > scores[earlier]!
          ? `its score ${scores[later]} is higher than the ${scores[earlier]} of ${where}`
          : `its score ${scores[later]} ties with ${where} and trec_eval breaks ties by docid, highest first: ` +
            `${quote(pairs.docid(entries[later]!))} > ${quote(pairs.docid(entries[earlier]!))}`;
      const more = others > 0 ? ` (${plural(others, 'more place')} like this in this query)` : '';
      return (
        `rank ${rank} of query ${query} disagrees with the score order: ${why}, so trec_eval, which ignores ` +
        `ranks, ranks this document above it${more}`
      );
    }

    return {
      line(line) {
        if (line.kind !== 'content' || !line.wellFormed || line.firstPair >= 0) return;
        if (Number.isNaN(line.rank) || Number.isNaN(line.score)) return;
        const i = count++;
        if (i === qids.length) {
          qids = growInt32(qids, i + 1);
          entries = growInt32(entries, i + 1);
          lines = growInt32(lines, i + 1);
          columns = growInt32(columns, i + 1);
          endColumns = growInt32(endColumns, i + 1);
          ranks = growFloat64(ranks, i + 1);
          scores = growFloat64(scores, i + 1);
        }
        qids[i] = line.qid;
        entries[i] = line.pair;
        lines[i] = line.number;
        columns[i] = line.fieldColumn(format.rankField);
        endColumns[i] = line.fieldEndColumn(format.scoreField);
        ranks[i] = line.rank;
        scores[i] = line.score;
      },
      end() {
        // Group the documents by query (counting sort: file order is kept within a query).
        const queryCount = queries.count;
        const offsets = new Int32Array(queryCount + 1);
        for (let i = 0; i < count; i++) offsets[qids[i]! + 1]!++;
        for (let q = 0; q < queryCount; q++) offsets[q + 1]! += offsets[q]!;
        const order = new Int32Array(count);
        const next = offsets.slice(0, queryCount);
        for (let i = 0; i < count; i++) order[next[qids[i]!]!++] = i;

        for (let q = 0; q < queryCount; q++) {
          const from = offsets[q]!;
          const to = offsets[q + 1]!;
          if (to - from < 2) continue;
          let sorted = true;
          for (let k = from + 1; k < to && sorted; k++) sorted = ranks[order[k - 1]!]! <= ranks[order[k]!]!;
          if (!sorted) order.subarray(from, to).sort((a, b) => ranks[a]! - ranks[b]! || a - b);

          let firstProblem = -1;
          let firstEarlier = -1;
          let places = 0;
          // Walk the rank groups, keeping the document trec_eval puts last in the previous group.
          let previousLast = -1;
          let k = from;
          while (k < to) {
            const rank = ranks[order[k]!]!;
            let groupFirst = order[k]!;
            let groupLast = groupFirst;
            let j = k + 1;
            for (; j < to && ranks[order[j]!] === rank; j++) {
              const d = order[j]!;
              if (trecBefore(d, groupFirst)) groupFirst = d;
              if (trecBefore(groupLast, d)) groupLast = d;
            }
            if (previousLast >= 0 && trecBefore(groupFirst, previousLast)) {
              if (places++ === 0) {
                firstProblem = groupFirst;
                firstEarlier = previousLast;
              }
            }
            previousLast = groupLast;
            k = j;
          }
          if (places === 0) continue;
          const query = quote(queries.text(q));
          report({
            line: lines[firstProblem]!,
            column: columns[firstProblem]!,
            endColumn: endColumns[firstProblem]!,
            message: explain(firstProblem, firstEarlier, places - 1, query),
            related: {
              line: lines[firstEarlier]!,
              column: columns[firstEarlier]!,
              message: `rank ${ranks[firstEarlier]}, score ${scores[firstEarlier]}`,
            },
          });
        }
      },
    };
  },
};
