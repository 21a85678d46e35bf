// The measures beyond trec_eval's, by one naming scheme used everywhere (eval -m, --json, the study's `measures`
// statement, the Evaluate view): `FAMILY@PARAMETER`, lower case, where the parameter is a rank depth (`err@20`) or
// RBP's persistence (`rbp@0.8`), and a bare family name for the measures that take none (`nrbp`). Why `@` and not
// trec_eval's `.`: trec_eval's `P.5,10` lists cutoffs of one measure and prints `P_5`; these names are printed as
// written, so `err@20` in -m is `err@20` in the output, in --json and in the view. Each family says which tool
// computes it and under which of that tool's names, so that the README table and the language server's hover read
// one source.

/** The reference tools whose numbers these measures equal. */
export type NamedMeasureTool = 'gdeval' | 'ndeval' | 'rbp_eval';

/** What the part after `@` is. */
export type NamedMeasureParameter =
  /** A rank depth, any integer ≥ 1. */
  | { kind: 'depth' }
  /** A rank depth among the ones the tool computes (ndeval: 5, 10 and 20). */
  | { kind: 'depth'; allowed: readonly number[] }
  /** RBP's persistence p, 0 < p < 1. */
  | { kind: 'persistence' }
  /** No parameter: the bare name. */
  | { kind: 'none' };

export interface NamedMeasureFamily {
  /** The name before `@`. */
  name: string;
  parameter: NamedMeasureParameter;
  tool: NamedMeasureTool;
  /** The tool's own name for the value, with `K`/`P` standing for the parameter (`ERR@K`). */
  toolName: string;
  /** What the measure is (README table, hover). */
  help: string;
  /** Needs diversity qrels (`topic subtopic docno grade`) rather than the ordinary qrels. */
  diversity: boolean;
  /** A name that shows the form (`err@20`). */
  example: string;
}

const ndevalDepths = [5, 10, 20] as const;
const ndevalDepth: NamedMeasureParameter = { kind: 'depth', allowed: ndevalDepths };

export const namedMeasureFamilies: readonly NamedMeasureFamily[] = [
  {
    name: 'ndcg_gd',
    parameter: { kind: 'depth' },
    tool: 'gdeval',
    toolName: 'ndcg@K (gdeval.pl -k K)',
    help:
      "nDCG at depth K as the TREC Web track's gdeval.pl computes it: gain 2^grade − 1, log2 discount, ties in " +
      "score ordered as gdeval orders them (not trec_eval's ndcg_cut.K, whose gain is the grade)",
    diversity: false,
    example: 'ndcg_gd@20',
  },
  {
    name: 'err',
    parameter: { kind: 'depth' },
    tool: 'gdeval',
    toolName: 'err@K (gdeval.pl -k K)',
    help: 'Expected Reciprocal Rank at depth K (Chapelle et al., CIKM 2009) as gdeval.pl computes it',
    diversity: false,
    example: 'err@20',
  },
  {
    name: 'err_ia',
    parameter: ndevalDepth,
    tool: 'ndeval',
    toolName: 'ERR-IA@K',
    help: 'intent-aware ERR at depth K over the subtopics, collection-independent normalisation (ndeval)',
    diversity: true,
    example: 'err_ia@20',
  },
  {
    name: 'nerr_ia',
    parameter: ndevalDepth,
    tool: 'ndeval',
    toolName: 'nERR-IA@K',
    help: 'intent-aware ERR at depth K, normalised by the ideal ranking of the collection (ndeval)',
    diversity: true,
    example: 'nerr_ia@20',
  },
  {
    name: 'alpha_dcg',
    parameter: ndevalDepth,
    tool: 'ndeval',
    toolName: 'alpha-DCG@K',
    help: 'α-DCG at depth K (Clarke et al., SIGIR 2008), redundancy penalty α (ndeval -alpha, 0.5)',
    diversity: true,
    example: 'alpha_dcg@20',
  },
  {
    name: 'alpha_ndcg',
    parameter: ndevalDepth,
    tool: 'ndeval',
    toolName: 'alpha-nDCG@K',
    help: 'α-nDCG at depth K: α-DCG over that of ndeval’s greedy ideal ranking',
    diversity: true,
    example: 'alpha_ndcg@20',
  },
  {
    name: 'p_ia',
    parameter: ndevalDepth,
    tool: 'ndeval',
    toolName: 'P-IA@K',
    help: 'intent-aware precision at depth K (ndeval)',
    diversity: true,
    example: 'p_ia@10',
  },
  {
    name: 'strec',
    parameter: ndevalDepth,
    tool: 'ndeval',
    toolName: 'strec@K',
    help: 'subtopic recall at depth K: the share of the topic’s subtopics the top K documents cover (ndeval)',
    diversity: true,
    example: 'strec@20',
  },
  {
    name: 'nrbp',
    parameter: { kind: 'none' },
    tool: 'ndeval',
    toolName: 'NRBP',
    help: 'novelty- and rank-biased precision (Clarke et al., ICTIR 2009), α and β as ndeval (0.5)',
    diversity: true,
    example: 'nrbp',
  },
  {
    name: 'nnrbp',
    parameter: { kind: 'none' },
    tool: 'ndeval',
    toolName: 'nNRBP',
    help: 'NRBP normalised by the ideal ranking (ndeval)',
    diversity: true,
    example: 'nnrbp',
  },
  {
    name: 'map_ia',
    parameter: { kind: 'none' },
    tool: 'ndeval',
    toolName: 'MAP-IA',
    help: 'intent-aware mean average precision (ndeval)',
    diversity: true,
    example: 'map_ia',
  },
  {
    name: 'rbp',
    parameter: { kind: 'persistence' },
    tool: 'rbp_eval',
    toolName: 'rbp_eval -p P: the base value, and the residual as rbp_residual@P',
    help:
      'rank-biased precision with persistence P (Moffat & Zobel, 2008); asking for it also prints ' +
      'rbp_residual@P, the most the unjudged and unretrieved documents could add, as rbp_eval prints both',
    diversity: false,
    example: 'rbp@0.8',
  },
];

export class NamedMeasureError extends Error {}

/** One asked named measure: its family, its parameter, and the value names it prints (in that order). */
export interface NamedMeasure {
  family: NamedMeasureFamily;
  /** The depth or persistence; absent for the families without one. */
  parameter?: number;
  /** The canonical name (`err@20`, `rbp@0.8`). */
  name: string;
  /** The value lines it prints: its name, and rbp's residual after it. */
  valueNames: string[];
}

export function findNamedMeasureFamily(name: string): NamedMeasureFamily | undefined {
  return namedMeasureFamilies.find((family) => family.name === name);
}

/**
 * Whether a -m spec is one of these measures: written with `@`, or the bare name of a family without parameter
 * (`nrbp`). A bare `rbp` stays trec_eval's (its rbp measure), as `P` does.
 */
export function isNamedMeasureSpec(spec: string): boolean {
  return spec.includes('@') || findNamedMeasureFamily(spec)?.parameter.kind === 'none';
}

/** Parses `err@20`, `rbp@0.8`, `nrbp`; the error says what was expected and what was found. */
export function parseNamedMeasure(spec: string): NamedMeasure {
  const at = spec.indexOf('@');
  const familyName = at === -1 ? spec : spec.slice(0, at);
  const family = findNamedMeasureFamily(familyName);
  if (!family) {
    throw new NamedMeasureError(
      `unknown measure '${familyName}' in '${spec}'; measures written NAME@PARAMETER are ` +
        namedMeasureFamilies
          .filter((f) => f.parameter.kind !== 'none')
          .map((f) => f.example)
          .join(', '),
    );
  }
  const parameterText = at === -1 ? undefined : spec.slice(at + 1);
  const { parameter } = family;
  if (parameter.kind === 'none') {
    if (parameterText !== undefined) {
      throw new NamedMeasureError(`measure '${family.name}' takes no parameter, found '${spec}'`);
    }
    return { family, name: family.name, valueNames: [family.name] };
  }
  if (parameterText === undefined) {
    throw new NamedMeasureError(
      `measure '${family.name}' needs its ${parameter.kind === 'depth' ? 'depth' : 'persistence'} after @, as in ${family.example}`,
    );
  }
  if (parameter.kind === 'depth') {
    if (!/^\d+$/.test(parameterText) || Number(parameterText) < 1) {
      throw new NamedMeasureError(
        `measure '${spec}': expected a depth (an integer ≥ 1) after @, found '${parameterText}'`,
      );
    }
    const depth = Number(parameterText);
    if ('allowed' in parameter && !parameter.allowed.includes(depth)) {
      throw new NamedMeasureError(
        `measure '${spec}': ${family.tool} computes ${family.name} at depths ${parameter.allowed.join(', ')} only, found ${depth}`,
      );
    }
    const name = `${family.name}@${depth}`;
    return { family, parameter: depth, name, valueNames: [name] };
  }
  // Persistence: a decimal strictly between 0 and 1, printed as the number it is (rbp@.80 is rbp@0.8).
  const persistence = /^(?:0?\.\d+|0)$/.test(parameterText) ? Number(parameterText) : Number.NaN;
  if (!(persistence > 0 && persistence < 1)) {
    throw new NamedMeasureError(
      `measure '${spec}': expected a persistence between 0 and 1 after @ (as in rbp@0.8), found '${parameterText}'`,
    );
  }
  const name = `${family.name}@${persistence}`;
  return { family, parameter: persistence, name, valueNames: [name, `rbp_residual@${persistence}`] };
}

/**
 * The named measures among `specs` (each once, in the order first asked) and the specs left for trec_eval's
 * selection and the other measure families.
 */
export function splitNamedMeasureSpecs(specs: readonly string[]): { named: NamedMeasure[]; rest: string[] } {
  const named: NamedMeasure[] = [];
  const rest: string[] = [];
  for (const spec of specs) {
    if (!isNamedMeasureSpec(spec)) {
      rest.push(spec);
      continue;
    }
    const measure = parseNamedMeasure(spec);
    if (!named.some((m) => m.name === measure.name)) named.push(measure);
  }
  return { named, rest };
}

/** Every name a user may write for these measures, for did-you-mean and completion (one example per family). */
export function namedMeasureExamples(): string[] {
  return namedMeasureFamilies.map((family) => family.example);
}
