// `qrels-studio eval -m irs -m p_mrr … --baseline RUN_Q QRELS RUN_QI [RUN_QI2 …]`: the instruction-following
// measures (core/metrics/instruction/), printed as trec_eval prints a measure (`irs  all  0.1234`, with -q one line
// per instruction), then the macro means per instruction type and subset (`irs  type:C1  …`, `irs  subset:WQT  …`)
// and per the measure's own groups (`win_rate  k:3  …`), and micro averages (`nfr_micro  all  …`). With several runs
// and --compare, each later run against the first: mean difference and two-sided p of a paired randomisation test
// (seeded) and a paired t-test.
import { resolve } from 'node:path';
import type { DataSourceModel, StudyModel } from '../../core/dsl/model.ts';
import {
  compareEvaluations,
  evaluateInstructions,
  type InstructionEvaluation,
  InstructionInputError,
} from '../../core/metrics/instruction/evaluateInstructions.ts';
import {
  type MaxpRule,
  readGradedQrels,
  readInstructionMap,
  readScoredRun,
  readTraps,
} from '../../core/metrics/instruction/instructionInputs.ts';
import {
  defaultIrsOptions,
  type InstructionMeasure,
  type InstructionOptions,
  type IrsOptions,
  type PMrrMissing,
} from '../../core/metrics/instruction/instructionMeasure.ts';
import { instructionMeasure } from '../../core/metrics/instruction/registry.ts';
import type { PairedTest } from '../../core/metrics/significance.ts';
import { type CliContext, InputError, UsageError } from '../cliContext.ts';
import type { EvalArguments } from './eval.ts';

export interface InstructionArguments {
  baseline?: string;
  instructions?: string;
  traps?: string;
  maxp?: boolean;
  /** --parents FILE: the corpus whose records name their `parent` (MaxP by it instead of `<docid>:<n>`). */
  parents?: string;
  /** --parent-field FIELD: the corpus field holding the parent (default `parent`). */
  parentField?: string;
  /** --maxp-queries FILE: MaxP for these query ids only. */
  maxpQueries?: string;
  /** --maxp-type T,…: MaxP for the queries of these types of --queries FILE only. */
  maxpTypes?: string[];
  queries?: string;
  /** --study STUDY.assess [--name STUDY]: the parents and query types from the study's corpus and queries. */
  study?: string;
  studyName?: string;
  compare?: boolean;
  seed?: number;
  samples?: number;
  irs?: Partial<IrsOptions>;
  pMrrMissing?: PMrrMissing;
}

export const instructionUsage =
  "  instruction-following measures (alone, or with the above: each run's lines follow its trec_eval block):\n" +
  '      -m irs p_mrr nfr win_rate adjacent_win_rate flip_rate capped_recall[.K,…] with --baseline RUN_Q\n' +
  '      (query-only run; for flip_rate the other query style), --instructions MAP.tsv, --traps FILE (nfr),\n' +
  '      --maxp (passage ids <docid>:<n>), --compare\n' +
  '      (paired tests of each RUN against the first; --seed S, --samples N), --irs-list union|retrieved,\n' +
  '      --irs-missing expected|beyond, --irs-degenerate one|zero, --pmrr-missing own|shared\n' +
  "  --maxp and --compare (--seed, --samples) work with the trec_eval measures too; MaxP by the corpus's\n" +
  '      parent instead of <docid>:<n>: --parents CORPUS [--parent-field FIELD]; for some queries only:\n' +
  '      --maxp-queries IDS.txt, or --maxp-type T[,T…] --queries QUERIES (their type field); or both from\n' +
  "      a study's corpus and queries: --study STUDY.assess [--name STUDY]";

const choices: Record<string, { key: keyof IrsOptions; values: readonly string[] }> = {
  '--irs-list': { key: 'list', values: ['union', 'retrieved'] },
  '--irs-missing': { key: 'missing', values: ['expected', 'beyond'] },
  '--irs-degenerate': { key: 'degenerate', values: ['one', 'zero'] },
};

/** Reads the long option at `args[i]` into `into`; returns the index of its last argument. */
export function parseInstructionOption(args: readonly string[], i: number, into: InstructionArguments): number {
  const arg = args[i]!;
  const value = (what: string): string => {
    const next = args[i + 1];
    if (next === undefined || next.startsWith('-')) throw new UsageError(`${arg} needs ${what}`);
    return next;
  };
  const whole = (text: string, min: number): number => {
    if (!/^\d+$/.test(text) || Number(text) < min)
      throw new UsageError(`${arg} expects a whole number ≥ ${min}, found '${text}'`);
    return Number(text);
  };
  switch (arg) {
    case '--baseline':
      into.baseline = value('the query-only run');
      return i + 1;
    case '--instructions':
      into.instructions = value('the instruction map (MAP.tsv)');
      return i + 1;
    case '--traps':
      into.traps = value('the traps file');
      return i + 1;
    case '--maxp':
      into.maxp = true;
      return i;
    case '--parents':
      into.parents = value('the corpus whose records name their parent');
      return i + 1;
    case '--parent-field':
      into.parentField = value('the corpus field that holds the parent');
      return i + 1;
    case '--maxp-queries':
      into.maxpQueries = value('a file of query ids, one a line');
      return i + 1;
    case '--maxp-type':
      into.maxpTypes = value('query types, as legal,clinical').split(',');
      return i + 1;
    case '--queries':
      into.queries = value('the queries file');
      return i + 1;
    case '--study':
      into.study = value('the study file (STUDY.assess)');
      return i + 1;
    case '--name':
      into.studyName = value("the study's name");
      return i + 1;
    case '--compare':
      into.compare = true;
      return i;
    case '--seed':
      into.seed = whole(value('a seed'), 0);
      return i + 1;
    case '--samples':
      into.samples = whole(value('a number of samples'), 1);
      return i + 1;
  }
  if (arg === '--pmrr-missing') {
    const picked = value('own or shared');
    if (picked !== 'own' && picked !== 'shared')
      throw new UsageError(`${arg} expects own or shared, found '${picked}'`);
    into.pMrrMissing = picked;
    return i + 1;
  }
  const choice = choices[arg];
  if (!choice) throw new UsageError(`unknown option '${arg}'`);
  const picked = value(choice.values.join(' or '));
  if (!choice.values.includes(picked)) {
    throw new UsageError(`${arg} expects ${choice.values.join(' or ')}, found '${picked}'`);
  }
  into.irs = { ...into.irs, [choice.key]: picked };
  return i + 1;
}

const baseName = (spec: string): string => spec.split('.')[0]!;

/**
 * The MaxP rule the options ask for, or undefined without MaxP: --parents (and --parent-field) say which ids are
 * chunks of which document, --maxp-queries or --maxp-type with --queries which queries roll up; each implies MaxP.
 * `studyReadForGains`: --study is also read for its scale's gains in ndcg, so it may come without MaxP.
 */
export async function maxpRuleOf(
  options: InstructionArguments,
  context: CliContext,
  studyReadForGains = false,
): Promise<MaxpRule | undefined> {
  if (options.study !== undefined) {
    if (options.parents !== undefined || options.queries !== undefined)
      throw new UsageError('--study declares the corpus and the queries: give it, or --parents / --queries, not both');
    if (options.parentField !== undefined)
      throw new UsageError("--parent-field: the study's corpus declares its parent field (`parent: FIELD`)");
  }
  if (options.studyName !== undefined && options.study === undefined)
    throw new UsageError('--name picks a study of --study STUDY.assess: give the study file');
  if (options.parentField !== undefined && options.parents === undefined)
    throw new UsageError('--parent-field names a field of the --parents corpus: give --parents CORPUS');
  if (options.maxpTypes !== undefined && options.queries === undefined && options.study === undefined)
    throw new UsageError('--maxp-type selects queries by their type in --queries QUERIES: give the queries file');
  if (options.queries !== undefined && options.maxpTypes === undefined)
    throw new UsageError('--queries is read for --maxp-type: give the types whose queries MaxP applies to');
  if (options.maxpTypes !== undefined && options.maxpQueries !== undefined)
    throw new UsageError('--maxp-queries and --maxp-type both choose the MaxP queries: give one');
  const maxp =
    options.maxp ||
    options.parents !== undefined ||
    options.maxpQueries !== undefined ||
    options.maxpTypes !== undefined;
  if (!maxp) {
    if (options.study !== undefined && !studyReadForGains)
      throw new UsageError(
        '--study is read for MaxP, and for the gains of ndcg and ndcg_cut when --gains is not given: ' +
          'give --maxp, --maxp-type or --maxp-queries with it',
      );
    return undefined;
  }
  // Loaded only for MaxP: the study reader (store, DSL) and the corpus importers are no part of a plain eval.
  const [{ readStudyBlock }, { readChunkParents, readQueriesOfTypes, readQueryIdList }] = await Promise.all([
    import('../studyDatabaseCommand.ts'),
    import('../../core/metrics/maxpSources.ts'),
  ]);
  const path = (file: string) => resolve(context.cwd, file);
  const study =
    options.study === undefined
      ? undefined
      : ((await readStudyBlock(options.study, options.studyName, context, 'study')).block as StudyModel);
  const declared = (source: DataSourceModel | undefined, what: string) => {
    if (!source) throw new UsageError(`${options.study} declares no ${what}: MaxP by the study needs it`);
    return { file: source.absolutePath ?? path(source.path), mapping: source.fields };
  };
  const queries =
    options.maxpQueries !== undefined
      ? await readQueryIdList(path(options.maxpQueries))
      : options.maxpTypes === undefined
        ? undefined
        : study
          ? await (({ file, mapping }) => readQueriesOfTypes(file, options.maxpTypes!, mapping))(
              declared(study.queries, 'queries'),
            )
          : await readQueriesOfTypes(path(options.queries!), options.maxpTypes);
  const parents = study
    ? await (({ file, mapping }) => readChunkParents(file, mapping))(declared(study.corpus, 'corpus'))
    : options.parents !== undefined
      ? await readChunkParents(
          path(options.parents),
          options.parentField === undefined ? {} : { parent: options.parentField },
        )
      : undefined;
  return { ...(parents && { parents }), ...(queries && { queries }) };
}

/** Options that only the instruction measures read: given with trec_eval measures, they would be ignored. */
export function instructionOnlyOptions(options: InstructionArguments): string[] {
  const given: string[] = [];
  if (options.baseline !== undefined) given.push('--baseline');
  if (options.instructions !== undefined) given.push('--instructions');
  if (options.traps !== undefined) given.push('--traps');
  if (options.pMrrMissing !== undefined) given.push('--pmrr-missing');
  for (const [flag, { key }] of Object.entries(choices)) if (options.irs?.[key] !== undefined) given.push(flag);
  return given;
}

/** The -m specs split into the instruction measures' and the rest (trec_eval's), each in command-line order. */
export function splitMeasureSpecs(specs: readonly string[]): { instruction: string[]; trec: string[] } {
  const instruction = specs.filter((s) => instructionMeasure(baseName(s)) !== undefined);
  return { instruction, trec: specs.filter((s) => !instruction.includes(s)) };
}

function measuresOf(specs: readonly string[]): { measures: InstructionMeasure[]; cutoffs: number[] } {
  const measures: InstructionMeasure[] = [];
  // Cutoffs of capped recall from every spec that lists some (capped_recall.5 -m capped_recall.10: both), else 10.
  const listed = new Set<number>();
  for (const spec of specs) {
    const [name, list] = spec.split('.', 2) as [string, string?];
    const measure = instructionMeasure(name)!;
    if (list !== undefined) {
      if (name !== 'capped_recall') throw new UsageError(`measure '${name}' takes no cutoffs, found '${spec}'`);
      for (const k of list.split(',')) {
        if (!/^\d+$/.test(k) || Number(k) < 1) throw new UsageError(`expected cutoffs ≥ 1 in '${spec}', found '${k}'`);
        listed.add(Number(k));
      }
    }
    if (!measures.includes(measure)) measures.push(measure);
  }
  return { measures, cutoffs: listed.size > 0 ? [...listed].sort((a, b) => a - b) : [10] };
}

const line = (name: string, key: string, value: number | null): string =>
  value === null ? '' : `${name.padEnd(22)}\t${key}\t${value.toFixed(4)}\n`;

function evaluationText(run: string, evaluation: InstructionEvaluation, perQuery: boolean): string {
  let text = '';
  if (perQuery) {
    for (const c of evaluation.cases)
      for (const name of evaluation.valueNames) text += line(name, c.id, c.values[name] ?? null);
  }
  text += `${'run'.padEnd(22)}\tall\t${run}\n`;
  for (const name of evaluation.valueNames) {
    const average = evaluation.all[name]!;
    text +=
      average.value === null
        ? `${name.padEnd(22)}\tall\tundefined (no case has a value)\n`
        : line(name, 'all', average.value);
  }
  for (const [name, value] of Object.entries(evaluation.micro)) text += line(`${name}_micro`, 'all', value);
  for (const [group, averages] of Object.entries(evaluation.groups)) {
    for (const name of evaluation.valueNames) {
      const average = averages[name];
      if (average) text += line(name, group, average.value);
    }
  }
  return text;
}

/** A paired comparison of two runs as text: mean difference (b − a) and both tests' p per measure. */
export function comparisonText(a: string, b: string, tests: Record<string, PairedTest>): string {
  const p = (value: number | null) => (value === null ? 'n/a' : value.toFixed(4));
  let text = `# ${b} against ${a}: mean difference (b − a), paired randomisation p, paired t-test p, queries\n`;
  for (const [name, test] of Object.entries(tests)) {
    text +=
      `${name.padEnd(22)}\tcompare\t${test.meanDifference >= 0 ? '+' : ''}${test.meanDifference.toFixed(4)}\t` +
      `p_rand=${p(test.randomisationP)}\tp_t=${p(test.tTestP)}\tn=${test.n}\n`;
  }
  return text;
}

export async function evaluateInstructionRuns(parsed: EvalArguments, context: CliContext): Promise<number> {
  const output = await instructionRunsOutput(parsed, context);
  if (parsed.json) context.stdout(`${JSON.stringify(output.json)}\n`);
  else context.stdout(output.runTexts.join('') + output.comparisonsText);
  return 0;
}

/** What the instruction measures print: each run's lines (in file order), the comparisons, and the same as JSON. */
export interface InstructionRunsOutput {
  runTexts: string[];
  comparisonsText: string;
  json: Record<string, unknown>;
}

/** Evaluates the runs with the instruction measures of `parsed` (their warnings go to stderr, once). */
export async function instructionRunsOutput(
  parsed: EvalArguments,
  context: CliContext,
): Promise<InstructionRunsOutput> {
  const options = parsed.instruction;
  const { measures, cutoffs } = measuresOf(parsed.measureSpecs);
  const instructionOptions: InstructionOptions = {
    irs: { ...defaultIrsOptions, ...options.irs },
    pMrrMissing: options.pMrrMissing ?? 'own',
    relevanceLevel: parsed.relevanceLevel,
    cutoffs,
  };
  const path = (file: string) => resolve(context.cwd, file);
  const [qrelsFile, ...runFiles] = parsed.files as [string, ...string[]];
  const qrelsLines = new Map<string, number>();
  const qrels = await readGradedQrels(path(qrelsFile), qrelsLines);
  if (qrels.size === 0) throw new InputError(`${qrelsFile}: no judgments (the file is empty or only comments)`);
  const maxp = await maxpRuleOf(options, context);
  const baseline = options.baseline
    ? await readScoredRun(path(options.baseline), { ...(maxp && { maxp }) })
    : undefined;
  const instructions = options.instructions ? await readInstructionMap(path(options.instructions)) : undefined;
  const trapLines = new Map<string, number>();
  const traps = options.traps ? await readTraps(path(options.traps), trapLines) : undefined;
  const evaluations: { run: string; evaluation: InstructionEvaluation }[] = [];
  for (const runFile of runFiles) {
    const run = await readScoredRun(path(runFile), { ...(maxp && { maxp }) });
    try {
      evaluations.push({
        run: runFile,
        evaluation: evaluateInstructions(
          {
            run,
            ...(baseline && { baseline }),
            qrels,
            ...(instructions && { instructions }),
            ...(traps && { traps }),
            files: {
              qrels: path(qrelsFile),
              run: runFile,
              ...(options.baseline && { baseline: options.baseline }),
              ...(options.instructions && { instructions: options.instructions }),
              ...(options.traps && { traps: path(options.traps) }),
            },
            lines: { qrels: qrelsLines, traps: trapLines },
            complete: parsed.complete,
            ...(Number.isFinite(parsed.maxRetrieved) && { maxRetrieved: parsed.maxRetrieved }),
          },
          measures,
          instructionOptions,
        ),
      });
    } catch (error) {
      if (error instanceof InstructionInputError) throw new InputError(error.message);
      throw error;
    }
  }
  // The warnings are the same for every run (they are about the qrels and traps): said once.
  for (const warning of evaluations[0]?.evaluation.warnings ?? []) context.stderr(`${warning}\n`);
  if (options.compare && evaluations.length < 2) throw new UsageError('--compare needs two runs or more');
  const comparisons = options.compare
    ? evaluations.slice(1).map(({ run, evaluation }) => ({
        a: evaluations[0]!.run,
        b: run,
        tests: compareEvaluations(evaluations[0]!.evaluation, evaluation, {
          ...(options.seed !== undefined && { seed: options.seed }),
          ...(options.samples !== undefined && { samples: options.samples }),
        }),
      }))
    : [];
  return {
    runTexts: evaluations.map(({ run, evaluation }) => evaluationText(run, evaluation, parsed.perQuery)),
    comparisonsText: comparisons.map(({ a, b, tests }) => comparisonText(a, b, tests)).join(''),
    json: {
      options: instructionOptions,
      runs: evaluations.map(({ run, evaluation }) => ({
        run,
        all: evaluation.all,
        micro: evaluation.micro,
        groups: evaluation.groups,
        ...(parsed.perQuery && { cases: evaluation.cases }),
      })),
      ...(options.compare && { comparisons }),
    },
  };
}
