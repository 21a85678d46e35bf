// What an automatic review finding is: a check of one generated item (a rewrite against its source, or an
// instruction with its table set) that says what it found, so the reviewer sees it beside the diff. One check = one
// module in this folder, listed in registry.ts.

export interface ReviewFinding {
  /** The check's id (`dropped-number`, `label-leak`, …). */
  check: string;
  severity: 'warning' | 'info';
  message: string;
  /** The source text's words the finding is about (to highlight in the diff). */
  terms?: string[];
}

/** A generated text and what it was generated from. */
export interface RewriteItem {
  /** The original (the positive document's sentence, the query). */
  source: string;
  /** The generated text (the hard negative, the rewrite). */
  rewrite: string;
  /** Sentences the generator was asked to change (MultiConIR: one). */
  declaredChanges?: number;
  /** A query expansion (its type says so): meant to grow, so growing is no length drift. */
  expansion?: boolean;
}

/** A table an instruction's relevance labels name, with its label (2 compliant, 1 violating, 0 off-topic). */
export interface LabelledTable {
  id: string;
  label: number;
  title?: string;
  caption?: string;
  /** Its text (cells), for entity checks. */
  text?: string;
}

export interface InstructionItem {
  instruction: string;
  tables: LabelledTable[];
}

export interface FindingOptions {
  /** Largest relative change in word count before length drift is flagged (default 0.25). */
  lengthDrift: number;
  /** Words that give a table's label away in its title or caption. */
  labelWords: readonly string[];
  /** FollowTable's rule: at least this many compliant and this many violating tables per instruction. */
  minimumCompliant: number;
  minimumViolating: number;
}

export const defaultFindingOptions: FindingOptions = {
  lengthDrift: 0.25,
  labelWords: [
    'compliant',
    'non-compliant',
    'violating',
    'violates',
    'relevant',
    'irrelevant',
    'off-topic',
    'excluded',
    'excluding',
  ],
  minimumCompliant: 3,
  minimumViolating: 3,
};

export interface RewriteCheck {
  id: string;
  description: string;
  check(item: RewriteItem, options: FindingOptions): ReviewFinding[];
}

export interface InstructionCheck {
  id: string;
  description: string;
  check(item: InstructionItem, options: FindingOptions): ReviewFinding[];
}
