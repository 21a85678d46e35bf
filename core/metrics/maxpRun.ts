// MaxP (CRUMB): a passage run, whose ids are `<docid>:<n>` or chunks the corpus gives a `parent`, as a document run
// — each document scored by its best passage, for the queries the rule names — written as a TREC run file, so that trec_eval's measures evaluate it exactly as they evaluate a document
// run (ranks in trec_eval's order; ids byte for byte, however long; the passage run's tag, the last line's, which
// is the one trec_eval reports).
import { writeFileSync } from 'node:fs';
import { type MaxpRule, readScoredRun } from './instruction/instructionInputs.ts';

/** Writes the document run of `passageFile` to `outFile`; errors in the passage run point at its lines. */
export async function writeMaxpRun(passageFile: string, outFile: string, rule: MaxpRule = {}): Promise<void> {
  let tag = 'maxp';
  const run = await readScoredRun(passageFile, {
    maxp: latin1Rule(rule),
    bytes: true,
    onLastTag: (last) => {
      tag = last;
    },
  });
  const lines: string[] = [];
  for (const [qid, documents] of run) {
    // String(score) is the shortest text that parses back to the same double: the order is kept exactly.
    documents.forEach((d, i) => {
      lines.push(`${qid} Q0 ${d.docid} ${i + 1} ${String(d.score)} ${tag}\n`);
    });
  }
  writeFileSync(outFile, lines.join(''), 'latin1');
}

/** The rule with its ids as the byte-for-byte reader holds them (one character a byte). */
function latin1Rule(rule: MaxpRule): MaxpRule {
  const bytes = (id: string) => Buffer.from(id, 'utf8').toString('latin1');
  return {
    ...(rule.parents && { parents: new Map([...rule.parents].map(([chunk, doc]) => [bytes(chunk), bytes(doc)])) }),
    ...(rule.queries && { queries: new Set([...rule.queries].map(bytes)) }),
  };
}
