// Tells the type of a file from its first lines, not from its name (real qrels end in .txt, .tsv, .trec):
// TREC qrels have 4 whitespace-separated columns, TREC runs 6, a BEIR qrels TSV 3 tab-separated columns under a
// header line, a statAP/MQ prels file 5 (qid docid rel stratum probability).
import { parseFloatField, parseIntegerField } from '../formats/trecFields.ts';
import { viewerCopyColumns } from '../importers/hfViewer.ts';
import { LineView } from './lineView.ts';
import type { DetectedFileType } from './types.ts';

export interface SampleLine {
  bytes: Uint8Array;
  number: number;
}

export interface Detection {
  type: DetectedFileType;
  /** The shape of the content, for messages: "6 columns". */
  description: string;
  /** Lines looked at (not blank, not a comment). */
  contentLines: number;
}

const standardBeirHeader = ['query-id', 'corpus-id', 'score'];

function isStandardBeirHeader(line: LineView): boolean {
  return standardBeirHeader.every((name, field) => {
    const text = Buffer.from(line.bytes.subarray(line.starts[field], line.ends[field])).toString('latin1');
    return text.trim().toLowerCase().replace('_', '-') === name;
  });
}

function integerAt(line: LineView, field: number): boolean {
  let start = line.starts[field]!;
  let end = line.ends[field]!;
  while (start < end && line.bytes[start] === 32) start++;
  while (end > start && line.bytes[end - 1] === 32) end--;
  return !Number.isNaN(parseIntegerField(line.bytes, start, end));
}

function hasText(line: LineView, field: number): boolean {
  for (let i = line.starts[field]!; i < line.ends[field]!; i++) {
    const c = line.bytes[i]!;
    if (c !== 32 && (c < 9 || c > 13)) return true;
  }
  return false;
}

function numberAt(line: LineView, field: number): boolean {
  return !Number.isNaN(parseFloatField(line.bytes, line.starts[field]!, line.ends[field]!));
}

/** Whitespace field counts and BEIR shape of one line. */
interface Shape {
  fields: number;
  /** The standard BEIR header: query-id, corpus-id, score. */
  beirStandardHeader: boolean;
  /** Three tab-separated fields with an integer third: a BEIR judgment. */
  beirRow: boolean;
  /** Three tab-separated fields with a non-integer third: a BEIR header. */
  beirHeader: boolean;
  /** Five fields shaped like a prels line: integer rel, numeric stratum and probability. */
  prelsRow: boolean;
}

export function detectFileType(sample: readonly SampleLine[]): Detection {
  // A Hugging Face dataset-viewer copy (name/type line pairs, then a line per column per record) is a corpus or
  // queries file: told first, or its one-column lines read as "1 column, unknown".
  const viewerColumns = viewerCopyColumns(
    sample.map(({ bytes }) =>
      Buffer.from(bytes)
        .toString('utf8')
        .replace(/^\uFEFF/, '')
        .replace(/\r$/, ''),
    ),
  );
  if (viewerColumns !== undefined) {
    return {
      type: 'hf-viewer',
      description: `columns ${viewerColumns.join(', ')}`,
      contentLines: sample.length,
    };
  }
  const line = new LineView();
  const shapes: Shape[] = [];
  for (const { bytes, number } of sample) {
    line.reset(bytes, 0, bytes.length, number);
    const first = line.firstNonSpace();
    if (first === -1 || first === 35 /* # */) continue;
    line.splitOnTabs();
    // Three tab-separated fields, none of them empty (a space-separated line ending in two tabs is not BEIR).
    const tabs3 = line.fieldCount === 3 && [0, 1, 2].every((field) => hasText(line, field));
    const beirRow = tabs3 && integerAt(line, 2);
    const beirHeader = tabs3 && !beirRow;
    const beirStandardHeader = beirHeader && isStandardBeirHeader(line);
    line.splitOnWhitespace();
    const prelsRow = line.fieldCount === 5 && integerAt(line, 2) && numberAt(line, 3) && numberAt(line, 4);
    shapes.push({ fields: line.fieldCount, beirStandardHeader, beirRow, beirHeader, prelsRow });
  }
  const contentLines = shapes.length;
  const first = shapes[0];
  if (first === undefined) return { type: 'empty', description: 'no content lines', contentLines };
  const rest = shapes.slice(1);
  const most = (test: (shape: Shape) => boolean, of: readonly Shape[]): boolean =>
    of.filter(test).length * 2 > of.length;

  if (first.beirStandardHeader || (first.beirHeader && rest.filter((s) => s.beirRow).length * 2 >= rest.length)) {
    return { type: 'beir-qrels', description: '3 tab-separated columns under a header', contentLines };
  }
  const histogram = new Map<number, number>();
  for (const shape of shapes) histogram.set(shape.fields, (histogram.get(shape.fields) ?? 0) + 1);
  let mode = first.fields;
  for (const [fields, count] of histogram) if (count > histogram.get(mode)!) mode = fields;

  if (mode === 4) return { type: 'qrels', description: '4 columns', contentLines };
  if (mode >= 6) return { type: 'run', description: `${mode} columns`, contentLines };
  if (mode === 5 && most((s) => s.prelsRow, shapes)) {
    return { type: 'prels', description: '5 columns: qid docid rel stratum probability', contentLines };
  }
  if (mode === 3 && most((s) => s.beirRow, shapes)) {
    return { type: 'beir-qrels', description: '3 tab-separated columns', contentLines };
  }
  const which = mode === 1 ? '1 column' : `${mode} columns`;
  const where = contentLines === 1 ? 'its only line' : `most of the first ${contentLines} lines`;
  return { type: 'unknown', description: `${which} (${where})`, contentLines };
}

const names: Record<DetectedFileType, string> = {
  qrels: 'TREC qrels',
  run: 'a TREC run',
  'beir-qrels': 'a BEIR qrels TSV',
  'diversity-qrels': 'diversity qrels',
  prels: 'a statAP prels file',
  'hf-viewer': 'a Hugging Face dataset-viewer copy',
  empty: 'empty',
  unknown: 'unknown',
};

/** "TREC qrels", "a TREC run", ... for messages. */
export function fileTypeName(type: DetectedFileType): string {
  return names[type];
}
