import type { RecordRule } from '../rule.ts';

export const recordFormat: RecordRule = {
  id: 'record-format',
  severity: 'error',
  description:
    'The file is not one-record-per-line data: its format cannot be told (not JSONL, no CSV or TSV header), it is ' +
    'a TREC qrels or run file or a BEIR qrels TSV, or more than half of its first 100 records are malformed for ' +
    'the format it was given. Said once, instead of one error per line; nothing else is reported for the file.',
  formats: [],
};
