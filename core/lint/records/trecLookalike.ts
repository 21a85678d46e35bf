// Whether a file given to the record linter is really a TREC qrels or run, a statAP prels or a BEIR qrels file
// (core/lint's detection), so the linter can say so once instead of linting its lines as records. A CSV/TSV header
// is a line of names: a sample counts as TREC data only when its first line is a data line too (a TSV of short
// queries can have four words per line, like qrels, but its header has no integer label).
import { FieldSplitter, parseFloatField, parseIntegerField } from '../../formats/trecFields.ts';
import { detectFileType, fileTypeName, type SampleLine } from '../detectFileType.ts';

/** "TREC qrels (4 columns)" when the sample looks like a file core/lint lints; undefined otherwise. */
export function trecLookalike(sample: readonly SampleLine[], firstLineMustBeData: boolean): string | undefined {
  const detection = detectFileType(sample);
  const type = detection.type;
  if (type === 'unknown' || type === 'empty') return undefined;
  const described = `${fileTypeName(type)} (${detection.description})`;
  if (!firstLineMustBeData) return described;
  const first = sample.find((line) => !isBlankLine(line.bytes));
  if (first === undefined) return undefined;
  const bytes = first.bytes;
  if (type === 'beir-qrels') {
    const header = Buffer.from(bytes).toString('utf8').trim().toLowerCase().replaceAll('_', '-');
    return header === 'query-id\tcorpus-id\tscore' ? described : undefined;
  }
  const fields = new FieldSplitter(8);
  const count = fields.split(bytes, 0, bytes.length);
  const integer = (i: number): boolean => !Number.isNaN(parseIntegerField(bytes, fields.starts[i]!, fields.ends[i]!));
  const number = (i: number): boolean => !Number.isNaN(parseFloatField(bytes, fields.starts[i]!, fields.ends[i]!));
  const data =
    (type === 'qrels' && count === 4 && integer(3)) ||
    (type === 'run' && count === 6 && integer(3) && number(4)) ||
    (type === 'prels' && count === 5 && integer(2) && number(3) && number(4));
  return data ? described : undefined;
}

function isBlankLine(bytes: Uint8Array): boolean {
  for (const c of bytes) if (c !== 32 && !(c >= 9 && c <= 13)) return false;
  return true;
}
