import { type LintRule, plural, quote } from '../rule.ts';

/** 12345 → "12,345" (plural's digits without a noun). */
function count(value: number): string {
  return plural(value, 'x').replace(/ xs?$/, '');
}

/** Query ids listed in the message before "and N more". */
const listed = 10;

export const queryMissingFromRun: LintRule = {
  id: 'query-missing-from-run',
  severity: 'warning',
  description:
    "Queries of the study's qrels that the run does not rank. trec_eval 10 stops with an error on them unless run " +
    'with -c (which scores them 0 and averages over every qrels query). Only when a study file names the qrels ' +
    '(export or import qrels). Reported once, on the first line.',
  fileTypes: ['run'],
  scope: 'file',
  readsFields: true,
  create({ study, report }) {
    const qrels = study?.qrels;
    if (qrels === undefined) return {};
    const ranked = new Set<string>();
    let first: { line: number; endColumn: number } | undefined;
    // The previous line's qid bytes: a run's lines come query by query, so most lines make no string.
    let lastBytes = new Uint8Array(0);
    return {
      line(line) {
        if (line.kind !== 'content' || line.fieldCount === 0) return;
        first ??= { line: line.number, endColumn: line.fieldEndColumn(0) };
        const start = line.starts[0]!;
        const end = line.ends[0]!;
        if (end - start === lastBytes.length) {
          let i = 0;
          while (i < lastBytes.length && lastBytes[i] === line.bytes[start + i]) i++;
          if (i === lastBytes.length) return;
        }
        lastBytes = Uint8Array.prototype.slice.call(line.bytes, start, end); // a copy: the buffer is read into again
        ranked.add(line.fieldString(0));
      },
      end() {
        if (first === undefined) return;
        const missing = [...qrels.queryIds].filter((id) => !ranked.has(id));
        if (missing.length === 0) return;
        const shown = missing.slice(0, listed).map(quote).join(', ');
        const more = missing.length > listed ? ` and ${count(missing.length - listed)} more` : '';
        const queries = `${count(missing.length)} ${missing.length === 1 ? 'query' : 'queries'}`;
        report({
          line: first.line,
          column: 1,
          endColumn: first.endColumn,
          message:
            `${queries} of ${qrels.source} ${missing.length === 1 ? 'has' : 'have'} no ` +
            `ranking in this run: ${shown}${more}; trec_eval 10 stops with an error unless run with -c`,
        });
      },
    };
  },
};
