// Reliability data: who gave which label to which unit. A unit is a (query, document) pair; every annotator gives a
// unit at most one label (their current one). Stored as a units × annotators matrix of category indices (-1: not
// labelled) so the statistics in this folder run over typed arrays: a million labels take milliseconds.

export type AnnotatorKind = 'human' | 'llm';

export interface AgreementAnnotator {
  name: string;
  kind: AnnotatorKind;
}

export interface ReliabilityData {
  /** Unit i is (qids[i], docids[i]), in the order first seen. */
  qids: string[];
  docids: string[];
  annotators: AgreementAnnotator[];
  /**
   * The ordered categories (label values): the scale when one is given and holds every label seen, else the sorted
   * union of both. Weighted κ weighs by index in this list, Krippendorff's ordinal α ranks by it.
   */
  values: number[];
  /** units × annotators, row-major: index into `values`, or -1 when the annotator did not label the unit. */
  cells: Int32Array;
  /** Labels the scale does not list (then `values` holds them too). */
  offScale: number[];
  /**
   * `values` is a scale (the study's, or binarised labels' 0 and 1), so weighted κ weighs every pair by index on it;
   * false: `values` is just the labels seen, and weighted κ orders each pair's categories by that pair's own labels
   * (as scikit-learn's cohen_kappa_score does without `labels`), so other annotators' labels cannot move its weights.
   */
  fromScale: boolean;
  /** Where each cell's label came from (the `line` given to ReliabilityBuilder.add; 0 for no label or none given). */
  lines: Int32Array;
}

/** Two labels for the same unit by the same annotator, with where each came from (a line number, 0 if none). */
export class DuplicateLabelError extends Error {
  override name = 'DuplicateLabelError';
  readonly qid: string;
  readonly docid: string;
  readonly annotator: string;
  readonly firstLine: number;
  readonly secondLine: number;
  constructor(qid: string, docid: string, annotator: string, firstLine: number, secondLine: number) {
    super(`a second label by '${annotator}' for query '${qid}', document '${docid}'`);
    this.qid = qid;
    this.docid = docid;
    this.annotator = annotator;
    this.firstLine = firstLine;
    this.secondLine = secondLine;
  }
}

/** An LLM judge's annotator name, as the judge records it (`llm:<model>` or `llm:<model>@<prompt>`). */
export function kindOfAnnotator(name: string): AnnotatorKind {
  return name.startsWith('llm:') ? 'llm' : 'human';
}

/** Collects labels one by one (from a file or the database) and builds the matrix. */
export class ReliabilityBuilder {
  private readonly unitIndex = new Map<string, number>();
  private readonly qids: string[] = [];
  private readonly docids: string[] = [];
  private readonly annotatorIndex = new Map<string, number>();
  private readonly annotators: AgreementAnnotator[] = [];
  private unitColumn = new Int32Array(1024);
  private annotatorColumn = new Int32Array(1024);
  private labelColumn = new Float64Array(1024);
  private lineColumn = new Int32Array(1024);
  private length = 0;

  get labelCount(): number {
    return this.length;
  }

  /** Adds a label; `line` says where it came from, for the error a second label of the unit by the annotator gets. */
  add(qid: string, docid: string, annotator: string, label: number, line = 0, kind?: AnnotatorKind): void {
    const key = `${qid}\u0000${docid}`;
    let unit = this.unitIndex.get(key);
    if (unit === undefined) {
      unit = this.qids.length;
      this.unitIndex.set(key, unit);
      this.qids.push(qid);
      this.docids.push(docid);
    }
    let coder = this.annotatorIndex.get(annotator);
    if (coder === undefined) {
      coder = this.annotators.length;
      this.annotatorIndex.set(annotator, coder);
      this.annotators.push({ name: annotator, kind: kind ?? kindOfAnnotator(annotator) });
    }
    if (this.length === this.unitColumn.length) this.grow();
    this.unitColumn[this.length] = unit;
    this.annotatorColumn[this.length] = coder;
    this.labelColumn[this.length] = label;
    this.lineColumn[this.length] = line;
    this.length++;
  }

  /**
   * The matrix. `scale`: the study's label values in order. Throws DuplicateLabelError for a unit labelled twice by
   * one annotator (naming both lines).
   */
  build(scale?: readonly number[]): ReliabilityData {
    const seen = new Set<number>();
    for (let i = 0; i < this.length; i++) seen.add(this.labelColumn[i]!);
    const offScale = scale && scale.length > 0 ? [...seen].filter((v) => !scale.includes(v)).sort((a, b) => a - b) : [];
    const values =
      scale && scale.length > 0
        ? offScale.length === 0
          ? [...scale]
          : [...new Set([...scale, ...offScale])].sort((a, b) => a - b)
        : [...seen].sort((a, b) => a - b);
    const index = new Map(values.map((v, i) => [v, i]));
    const width = this.annotators.length;
    const cells = new Int32Array(this.qids.length * width).fill(-1);
    const lines = new Int32Array(this.qids.length * width);
    for (let i = 0; i < this.length; i++) {
      const at = this.unitColumn[i]! * width + this.annotatorColumn[i]!;
      if (cells[at] !== -1) {
        const unit = this.unitColumn[i]!;
        throw new DuplicateLabelError(
          this.qids[unit]!,
          this.docids[unit]!,
          this.annotators[this.annotatorColumn[i]!]!.name,
          lines[at]!,
          this.lineColumn[i]!,
        );
      }
      cells[at] = index.get(this.labelColumn[i]!)!;
      lines[at] = this.lineColumn[i]!;
    }
    return {
      qids: this.qids,
      docids: this.docids,
      annotators: this.annotators,
      values,
      cells,
      offScale,
      fromScale: scale !== undefined && scale.length > 0,
      lines,
    };
  }

  private grow(): void {
    const size = this.unitColumn.length * 2;
    const grow = <T extends Int32Array | Float64Array>(from: T, to: T): T => {
      to.set(from);
      return to;
    };
    this.unitColumn = grow(this.unitColumn, new Int32Array(size));
    this.annotatorColumn = grow(this.annotatorColumn, new Int32Array(size));
    this.labelColumn = grow(this.labelColumn, new Float64Array(size));
    this.lineColumn = grow(this.lineColumn, new Int32Array(size));
  }
}

/** The same units with only the annotators `keep` says yes to (units left unlabelled stay, with no label). */
export function selectAnnotators(data: ReliabilityData, keep: (a: AgreementAnnotator) => boolean): ReliabilityData {
  const columns = data.annotators.flatMap((a, i) => (keep(a) ? [i] : []));
  if (columns.length === data.annotators.length) return data;
  const width = data.annotators.length;
  const cells = new Int32Array(data.qids.length * columns.length);
  const lines = new Int32Array(cells.length);
  for (let u = 0; u < data.qids.length; u++) {
    for (let j = 0; j < columns.length; j++) {
      cells[u * columns.length + j] = data.cells[u * width + columns[j]!]!;
      lines[u * columns.length + j] = data.lines[u * width + columns[j]!]!;
    }
  }
  return { ...data, annotators: columns.map((i) => data.annotators[i]!), cells, lines };
}

/** Relevant (1) when the label is ≥ `threshold`, else not relevant (0): TREC DL binarises its 0–3 labels at 2. */
export function binarise(data: ReliabilityData, threshold: number): ReliabilityData {
  const relevant = data.values.map((v) => (v >= threshold ? 1 : 0));
  const cells = new Int32Array(data.cells.length);
  for (let i = 0; i < cells.length; i++) {
    const c = data.cells[i]!;
    cells[i] = c < 0 ? -1 : relevant[c]!;
  }
  return { ...data, values: [0, 1], cells, offScale: [], fromScale: true };
}

/** The units at `indices` (in that order): one query's units, say. */
export function selectUnits(data: ReliabilityData, indices: readonly number[]): ReliabilityData {
  const width = data.annotators.length;
  const cells = new Int32Array(indices.length * width);
  const lines = new Int32Array(indices.length * width);
  indices.forEach((u, i) => {
    cells.set(data.cells.subarray(u * width, u * width + width), i * width);
    lines.set(data.lines.subarray(u * width, u * width + width), i * width);
  });
  return {
    ...data,
    qids: indices.map((u) => data.qids[u]!),
    docids: indices.map((u) => data.docids[u]!),
    cells,
    lines,
  };
}

/** The labels whose line (order) is at most `line`; the others as not given. */
export function labelsUpTo(data: ReliabilityData, line: number): ReliabilityData {
  const cells = data.cells.map((c, i) => (data.lines[i]! <= line ? c : -1));
  return { ...data, cells };
}

/**
 * The data the people's statistics are over: the human annotators (every annotator with `includeLlm`, or when there
 * are no humans), the units at least one of them labelled, in the order of their first label. Units only an LLM
 * judge labelled are left out and the order ignores the judges' labels, so a bootstrap over these units draws the
 * same units whether or not a judge has run.
 */
export function peopleScope(data: ReliabilityData, includeLlm = false): ReliabilityData {
  const humans = data.annotators.some((a) => a.kind === 'human');
  const scoped = includeLlm || !humans ? data : selectAnnotators(data, (a) => a.kind === 'human');
  const width = scoped.annotators.length;
  const first: { unit: number; line: number }[] = [];
  for (let u = 0; u < scoped.qids.length; u++) {
    let line = Number.POSITIVE_INFINITY;
    for (let j = 0; j < width; j++) {
      if (scoped.cells[u * width + j]! >= 0) line = Math.min(line, scoped.lines[u * width + j]!);
    }
    if (line !== Number.POSITIVE_INFINITY) first.push({ unit: u, line });
  }
  // A stable sort: units whose labels carry no line (0) keep the order they were first seen in.
  first.sort((x, y) => x.line - y.line);
  const units = first.map((f) => f.unit);
  if (units.length === scoped.qids.length && units.every((u, i) => u === i)) return scoped;
  return selectUnits(scoped, units);
}
