import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import type { StudyModel } from '../../core/dsl/model.ts';
import { messageQueryId } from '../../core/formats/queryIdCache.ts';
import { type Qrels, readQrels } from '../../core/formats/trecQrels.ts';
import { readZscores } from '../../core/formats/zscores.ts';
import { type EvaluationOptions, evaluateRunFile, type RunEvaluation } from '../../core/metrics/evaluate.ts';
import { instructionMeasures } from '../../core/metrics/instruction/registry.ts';
import { writeMaxpRun } from '../../core/metrics/maxpRun.ts';
import { MeasureSpecError, selectMeasures } from '../../core/metrics/measureSelection.ts';
import { evaluateInTwoThreads } from '../../core/metrics/parallel/parallelEvaluation.ts';
import { whenWorkerBooted } from '../../core/metrics/parallel/workerStart.ts';
import { compareRunEvaluations } from '../../core/metrics/runComparison.ts';
import { scaleGains } from '../../core/metrics/scaleGains.ts';
import { evaluationJson, type RunidLine, writeTrecEvalBytes } from '../../core/metrics/trecEvalOutput.ts';
import { type CliCommand, UsageError } from '../cliContext.ts';
import { evalAsGdeval, requestsGdeval } from './evalAsGdeval.ts';
import { evalAsNdeval, withoutNdevalRequest } from './evalAsNdeval.ts';
import { evalAsRbp, requestsRbpEval } from './evalAsRbp.ts';
import {
  comparisonText,
  evaluateInstructionRuns,
  type InstructionArguments,
  instructionOnlyOptions,
  instructionRunsOutput,
  instructionUsage,
  maxpRuleOf,
  parseInstructionOption,
  splitMeasureSpecs,
} from './evalInstructions.ts';
import { addNamedMeasures, namedMeasuresOf, namedMeasuresUsage, takeDiversityQrels } from './evalNamedMeasures.ts';

// The study reader (store, DSL) is loaded only when a study is read: a plain eval does not pay for it.
const readStudyBlock: typeof import('../studyDatabaseCommand.ts').readStudyBlock = async (...args) =>
  (await import('../studyDatabaseCommand.ts')).readStudyBlock(...args);

export interface EvalArguments {
  perQuery: boolean;
  complete: boolean;
  json: boolean;
  relevanceLevel: number;
  maxRetrieved: number;
  measureSpecs: string[];
  files: string[];
  /** The instruction-following measures' options (evalInstructions.ts). */
  instruction: InstructionArguments;
  /** --gains: each label's gain in ndcg and ndcg_cut. */
  gains?: Map<number, number>;
  /** -n: no summary lines (trec_eval's -n), only the per-query ones. */
  noSummary?: boolean;
  /** -J: only judged documents are evaluated. */
  judgedOnly?: boolean;
  /** -N: number of documents in the collection (utility). */
  numDocsInCollection?: number;
  /** -Z: trec_eval's zscores file (qid measure mean stddev). */
  zscoresFile?: string;
}

/** `--gains 0:0,1:0,2:1`: LABEL:GAIN pairs, each label once, gains ≥ 0 (the ideal ranking needs no negative gain). */
export function parseGains(text: string | undefined): Map<number, number> {
  if (text === undefined || text.startsWith('-'))
    throw new UsageError('--gains needs LABEL:GAIN pairs, as 0:0,1:0,2:1');
  const gains = new Map<number, number>();
  for (const pair of text.split(',')) {
    const match = /^(-?\d+):(\d+(?:\.\d+)?)$/.exec(pair);
    if (!match) {
      throw new UsageError(
        `--gains: expected LABEL:GAIN (an integer label, a gain ≥ 0) as in 0:0,1:0,2:1, found '${pair}'`,
      );
    }
    const label = Number(match[1]);
    if (gains.has(label)) throw new UsageError(`--gains: label ${label} is given twice`);
    gains.set(label, Number(match[2]));
  }
  return gains;
}

function integerOption(flag: string, text: string | undefined, minimum: number): number {
  if (text === undefined) throw new UsageError(`option -${flag} needs a value`);
  if (!/^-?\d+$/.test(text) || Number(text) < minimum) {
    throw new UsageError(`option -${flag}: expected an integer ≥ ${minimum}, found '${text}'`);
  }
  return Number(text);
}

/** trec_eval's getopt forms: -q -c, bundled (-qc), values attached (-l2, -mP.5,10) or separate (-l 2, -m map). */
export function parseEvalArguments(args: readonly string[]): EvalArguments {
  const parsed: EvalArguments = {
    perQuery: false,
    complete: false,
    json: false,
    relevanceLevel: 1,
    maxRetrieved: Number.POSITIVE_INFINITY,
    measureSpecs: [],
    files: [],
    instruction: {},
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--json') {
      parsed.json = true;
    } else if (arg === '--') {
      parsed.files.push(...args.slice(i + 1));
      break;
    } else if (arg === '--gains') {
      if (parsed.gains) throw new UsageError('--gains is given twice');
      parsed.gains = parseGains(args[++i]);
    } else if (arg.startsWith('--')) {
      i = parseInstructionOption(args, i, parsed.instruction);
    } else if (arg.startsWith('-') && arg.length > 1) {
      for (let j = 1; j < arg.length; j++) {
        const flag = arg[j]!;
        if (flag === 'q') parsed.perQuery = true;
        else if (flag === 'c') parsed.complete = true;
        else if (flag === 'J') parsed.judgedOnly = true;
        else if (flag === 'n') parsed.noSummary = true;
        else if (flag === 'l' || flag === 'M' || flag === 'm' || flag === 'N' || flag === 'Z') {
          const value = j + 1 < arg.length ? arg.slice(j + 1) : args[++i];
          // Negative levels would count unjudged documents as relevant; trec_eval's numbers for them are nonsense.
          if (flag === 'l') parsed.relevanceLevel = integerOption('l', value, 0);
          else if (flag === 'M') parsed.maxRetrieved = integerOption('M', value, 0);
          else if (flag === 'N') parsed.numDocsInCollection = integerOption('N', value, 0);
          else if (flag === 'Z') {
            if (value === undefined || value === '') throw new UsageError('option -Z needs a zscores file');
            parsed.zscoresFile = value;
          } else if (value === undefined || value === '') throw new UsageError('option -m needs a measure');
          else parsed.measureSpecs.push(value);
          break;
        } else {
          throw new UsageError(`unknown option '-${flag}'${arg.length > 2 ? ` in '${arg}'` : ''}`);
        }
      }
    } else {
      parsed.files.push(arg);
    }
  }
  if (parsed.files.length < 2) throw new UsageError('expected a qrels file and at least one run file');
  return parsed;
}

export const evalCommand: CliCommand = {
  name: 'eval',
  summary: 'evaluate runs against qrels exactly as trec_eval 10 does (text or --json)',
  usage:
    'qrels-studio eval [-q] [-c] [-n] [-J] [-l LEVEL] [-M DEPTH] [-N DOCS] [-Z ZSCORES] [-m MEASURE[.PARAMS]]... [--gains L:G,…] [--json] QRELS RUN [RUN...]\n' +
    '  -q  also print each query      -c  count qrels queries missing from a run as 0\n' +
    '  -l  minimum relevant label (1)  -M  evaluate only the top DEPTH documents per query\n' +
    '  -J  evaluate only judged documents   -N  number of documents in the collection (utility)\n' +
    '  -n  no summary lines (with -q: the per-query lines only)\n' +
    "  -Z  trec_eval's zscores file (qid measure mean stddev): per-query values become z-scores\n" +
    "  -m  any trec_eval 10 measure (map, P, ndcg, infAP, set_F, rbp, unj, …; see the README's table),\n" +
    '      or official (the default) / set / all_trec; parameters as trec_eval: -m P.5,10\n' +
    '      -m iprec_at_recall.0.25,0.5  -m set_F.0.5  -m utility.1,-1,0,0  -m relstring.20  -m ndcg.1=3,2=9  -m rbp.p=0.8\n' +
    "  --gains 0:0,1:0,2:1  each label's gain in ndcg and ndcg_cut (a label not listed gains itself)\n" +
    "      without it, --study STUDY.assess [--name S] gives the gains the study's scale declares (gain G)\n" +
    '  several runs: one block each, in file order, opened by its line runid all TAG\n' +
    namedMeasuresUsage +
    instructionUsage,
  async run(args, context) {
    // Eval's garbage dies young (a query's ranking and values): a young generation that keeps doubling only raises
    // the peak (17 MB of trec_eval's 168 on 1M lines). V8 reads this flag each time it would grow it (Node 22–24).
    // Set once eval's second thread, if one is starting, has booted: a flag set before costs it its code cache.
    whenWorkerBooted(() => setFlagsFromString('--semi-space-growth-factor=1'));
    if (requestsGdeval(args)) return evalAsGdeval(args, context);
    if (requestsRbpEval(args)) return evalAsRbp(args, context);
    if (withoutNdevalRequest(args)) return evalAsNdeval.run(withoutNdevalRequest(args)!, context);
    const { args: evalArgs, diversityQrels } = takeDiversityQrels(args);
    const parsed = parseEvalArguments(evalArgs);
    const select = (specs: readonly string[]): ReturnType<typeof selectMeasures> => {
      try {
        return selectMeasures(specs);
      } catch (error) {
        if (!(error instanceof MeasureSpecError)) throw error;
        const instructionNames = instructionMeasures.map((m) => m.name).join(', ');
        throw new UsageError(
          error.message.startsWith('unknown measure')
            ? `${error.message}; and the instruction-following ${instructionNames}`
            : error.message,
        );
      }
    };
    const specs = splitMeasureSpecs(parsed.measureSpecs);
    const gainsRead = (names: readonly string[]) => names.some((name) => name === 'ndcg' || name === 'ndcg_cut');
    if (specs.instruction.length > 0 && specs.trec.length === 0) {
      if (parsed.gains) throw new UsageError('--gains: only ndcg and ndcg_cut read it, and no -m asks for them');
      return evaluateInstructionRuns(parsed, context);
    }
    const unread = specs.instruction.length > 0 ? [] : instructionOnlyOptions(parsed.instruction);
    if (unread.length > 0) {
      throw new UsageError(
        `${unread.join(', ')}: only the instruction-following measures (-m irs, p_mrr, nfr, …) read ` +
          `${unread.length === 1 ? 'it' : 'them'}; the trec_eval measures would ignore ${unread.length === 1 ? 'it' : 'them'}`,
      );
    }
    const { compare, study: studyFile } = parsed.instruction;
    const named = namedMeasuresOf(specs.trec);
    // Only named measures asked: no trec_eval measure (its default set would be printed otherwise).
    const selection =
      named.rest.length === 0 && named.measures.length > 0 ? { measures: [], skipped: [] } : select(named.rest);
    const ndcgAsked = gainsRead(selection.measures.map((m) => m.measure.name));
    // --study without --gains: ndcg takes its gains from the study's scale (`VALUE "label" key "k" gain G`).
    const studyGainsWanted = studyFile !== undefined && parsed.gains === undefined && ndcgAsked;
    const maxp = await maxpRuleOf(parsed.instruction, context, studyGainsWanted);
    if (compare && parsed.files.length < 3) throw new UsageError('--compare needs two runs or more');
    if (parsed.gains && !ndcgAsked) {
      throw new UsageError('--gains: only ndcg and ndcg_cut read it, and no -m asks for them');
    }
    const gains =
      parsed.gains ??
      (studyGainsWanted
        ? scaleGains(
            ((await readStudyBlock(studyFile, parsed.instruction.studyName, context, 'study')).block as StudyModel)
              .scale,
          )
        : undefined);
    if (studyGainsWanted && !gains && !maxp) {
      throw new UsageError(
        `--study is read for MaxP and for the gains its scale declares, and ${studyFile} declares none ` +
          '(`VALUE "label" key "k" gain G`): give --maxp, --maxp-type or --maxp-queries with it',
      );
    }
    if (selection.skipped.length > 0) {
      context.stderr(`note: not computed by qrels-studio (trec_eval measures): ${selection.skipped.join(', ')}\n`);
    }
    const options: EvaluationOptions = {
      measures: selection.measures,
      relevanceLevel: parsed.relevanceLevel,
      maxRetrieved: parsed.maxRetrieved,
      complete: parsed.complete,
      ...(gains && { gains }),
      ...(parsed.judgedOnly && { judgedOnly: true }),
      ...(parsed.numDocsInCollection !== undefined && { numDocsInCollection: parsed.numDocsInCollection }),
      ...(parsed.zscoresFile !== undefined && { zscores: await readZscores(parsed.zscoresFile) }),
    };
    // Instruction measures asked with trec_eval's (TARGET's R@10 with capped R@10): evaluated first, each run's
    // lines printed after its trec_eval block.
    const instruction =
      specs.instruction.length > 0
        ? await instructionRunsOutput({ ...parsed, measureSpecs: specs.instruction }, context)
        : undefined;
    const [qrelsFile, ...runFiles] = parsed.files as [string, ...string[]];
    // One run of trec_eval's measures: the qrels and the run are read and evaluated on two threads when the files
    // allow it (core/metrics/parallel), else the qrels are read first, as trec_eval does.
    const twoThreads = runFiles.length === 1 && !maxp && selection.measures.length > 0;
    let qrels: Qrels | undefined = twoThreads ? undefined : await readQrels(qrelsFile);
    const evaluateRun = async (evaluated: string, runFile: string): Promise<RunEvaluation> => {
      const runOptions = selection.measures.length > 0 ? options : { ...options, complete: true };
      if (twoThreads) {
        const outcome = await evaluateInTwoThreads(
          qrelsFile,
          evaluated,
          runOptions,
          named.rest,
          runFile,
          parsed.perQuery,
        );
        // QRELS_STUDIO_DEBUG: which path eval took, and why (how fast it is depends on it).
        if (process.env.QRELS_STUDIO_DEBUG) {
          context.stderr(
            'evaluation' in outcome
              ? `eval: two threads (the second started by ${outcome.startedBy})\n`
              : `eval: one thread: ${outcome.oneThread}\n`,
          );
        }
        if ('evaluation' in outcome) return outcome.evaluation;
      }
      qrels ??= await readQrels(qrelsFile);
      return evaluateRunFile(qrels, evaluated, runOptions, runFile);
    };
    const evaluations: RunEvaluation[] = [];
    // trec_eval evaluates one run, so its output never needs to say which; with several, each block opens with
    // trec_eval's own runid line (whatever -m says), and runs sharing a tag are told apart by their order.
    const runidLine: RunidLine =
      runFiles.length > 1 ? 'first' : selection.measures.some((s) => s.measure.kind === 'runid') ? 'summary' : 'none';
    const runids: string[] = [];
    // --maxp: each passage run becomes a document run in a scratch folder, evaluated under its own name.
    const scratch = maxp ? mkdtempSync(join(tmpdir(), 'qrels-studio-maxp-')) : undefined;
    try {
      for (const [i, runFile] of runFiles.entries()) {
        let evaluated = runFile;
        if (scratch) {
          evaluated = join(scratch, `run${i}.trec`);
          await writeMaxpRun(runFile, evaluated, maxp);
        }
        const evaluation = await addNamedMeasures(
          // Named measures alone: trec_eval's side only reads the run (its tag); each tool says what it evaluates.
          await evaluateRun(evaluated, runFile),
          named.measures,
          {
            qrels: qrelsFile,
            run: evaluated,
            complete: parsed.complete,
            ...(diversityQrels !== undefined && { diversityQrels }),
          },
        );
        if (parsed.json || compare) evaluations.push(evaluation);
        if (!parsed.json) {
          const sameRunid = runFiles.slice(0, i).find((_, earlier) => runids[earlier] === evaluation.runid);
          if (sameRunid !== undefined) {
            context.stderr(
              `note: ${sameRunid} and ${runFile} share the runid '${messageQueryId(evaluation.runid)}'; ` +
                'their blocks are in the order of the files\n',
            );
          }
          runids.push(evaluation.runid);
          // qids and the runid are byte strings (latin1): written back as the bytes they were, as trec_eval does.
          // Written in pieces: -m all_trec -q prints 1.2M lines for 10,000 queries, never held whole.
          writeTrecEvalBytes(
            evaluation,
            { perQuery: parsed.perQuery, runidLine, ...(parsed.noSummary && { summary: false }) },
            context.stdout,
            context.stdoutReleased,
          );
          if (instruction) context.stdout(instruction.runTexts[i]!);
        }
      }
    } finally {
      if (scratch) rmSync(scratch, { recursive: true, force: true });
    }
    const { seed, samples } = parsed.instruction;
    const testOptions = { ...(seed !== undefined && { seed }), ...(samples !== undefined && { samples }) };
    const comparisons = compare
      ? evaluations
          .slice(1)
          .map((b) => ({ a: runFiles[0]!, b: b.file, tests: compareRunEvaluations(evaluations[0]!, b, testOptions) }))
      : [];
    if (parsed.json) {
      context.stdout(
        `${JSON.stringify({
          ...evaluationJson(evaluations, { perQuery: parsed.perQuery }),
          ...(compare && { comparisons }),
          ...(instruction && { instruction: instruction.json }),
        })}\n`,
      );
    } else {
      for (const { a, b, tests } of comparisons) context.stdout(comparisonText(a, b, tests));
      if (instruction) context.stdout(instruction.comparisonsText);
    }
    return 0;
  },
};
