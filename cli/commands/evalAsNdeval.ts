// `qrels-studio eval --as ndeval [ndeval's options] DIVERSITY_QRELS RUN`: prints what ndeval 4.5 prints, with its
// options spelled as ndeval spells them (-alpha 0.5, -beta 0.5, -traditional, -M 20, -c).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseDiversityQrels } from '../../core/formats/diversityQrels.ts';
import { evaluateNdeval, type NdevalOptions, ndevalText } from '../../core/metrics/ndeval/ndeval.ts';
import { parseNdevalRun } from '../../core/metrics/ndeval/ndevalRun.ts';
import { type CliCommand, type CliContext, InputError, UsageError } from '../cliContext.ts';

export interface NdevalArguments extends NdevalOptions {
  traditional: boolean;
  depth: number;
  /** -baseline: a run the values are taken relative to (risk-sensitive evaluation). */
  baselineFile?: string;
  riskAlpha: number;
  /** -riskAlpha as written: ndeval prints it in the runid column. */
  riskAlphaText: string;
  qrelsFile: string;
  runFile: string;
}

function unitInterval(option: string, text: string | undefined): number {
  const value = text === undefined ? Number.NaN : Number(text);
  if (text === undefined || text.trim() === '' || Number.isNaN(value) || value < 0 || value > 1) {
    throw new UsageError(
      `${option} needs a number between 0 and 1, found ${text === undefined ? 'nothing' : `'${text}'`}`,
    );
  }
  return value;
}

export function parseNdevalArguments(args: readonly string[]): NdevalArguments {
  const parsed: Omit<NdevalArguments, 'qrelsFile' | 'runFile'> = {
    alpha: 0.5,
    beta: 0.5,
    complete: false,
    traditional: false,
    depth: 0,
    riskAlpha: 0,
    riskAlphaText: '0',
  };
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-alpha') parsed.alpha = unitInterval('-alpha', args[++i]);
    else if (arg === '-beta') parsed.beta = unitInterval('-beta', args[++i]);
    else if (arg === '-traditional') parsed.traditional = true;
    else if (arg === '-M') {
      const text = args[++i];
      if (text === undefined || !/^\d+$/.test(text) || Number(text) <= 0) {
        throw new UsageError(
          `-M needs a depth (an integer ≥ 1), found ${text === undefined ? 'nothing' : `'${text}'`}`,
        );
      }
      parsed.depth = Number(text);
    } else if (arg === '-baseline') {
      const file = args[++i];
      if (file === undefined) throw new UsageError('-baseline needs a run file');
      parsed.baselineFile = file;
    } else if (arg === '-riskAlpha') {
      const text = args[++i];
      const value = text === undefined || text.trim() === '' ? Number.NaN : Number(text);
      if (Number.isNaN(value) || value < 0) {
        throw new UsageError(`-riskAlpha needs a number ≥ 0, found ${text === undefined ? 'nothing' : `'${text}'`}`);
      }
      [parsed.riskAlpha, parsed.riskAlphaText] = [value, text!];
    } else if (/^-[ca]+$/.test(arg)) {
      // -a is accepted by ndeval and changes nothing in its output.
      if (arg.includes('c')) parsed.complete = true;
    } else if (arg.startsWith('-') && arg.length > 1) {
      throw new UsageError(
        `unknown ndeval option '${arg}' (ndeval's are -alpha A, -beta B, -traditional, -M D, -c, -baseline RUN, -riskAlpha A)`,
      );
    } else files.push(arg);
  }
  if (files.length !== 2) {
    throw new UsageError(`--as ndeval expects a diversity qrels file and one run file, found ${files.length} files`);
  }
  return { ...parsed, qrelsFile: files[0]!, runFile: files[1]! };
}

/** A whole file as latin1 (one character per byte: docnos compare as bytes, as ndeval's strcmp does). */
function fileText(file: string, context: CliContext): string {
  try {
    return readFileSync(resolve(context.cwd, file), 'latin1');
  } catch (error) {
    throw new InputError(
      `${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
}

export const evalAsNdevalUsage =
  'qrels-studio eval --as ndeval [-alpha A] [-beta B] [-traditional] [-M DEPTH] [-c] [-baseline RUN [-riskAlpha A]]\n' +
  '                             DIVERSITY_QRELS RUN\n' +
  "  prints ndeval's CSV (ERR-IA, nERR-IA, alpha-DCG, alpha-nDCG @5,10,20, NRBP, nNRBP, MAP-IA, P-IA, strec)\n" +
  '  DIVERSITY_QRELS lines are: topic subtopic docno grade\n';

export const evalAsNdeval: CliCommand = {
  name: 'eval --as ndeval',
  summary: "evaluate a run against diversity qrels exactly as TREC's ndeval does",
  usage: evalAsNdevalUsage,
  run(args, context) {
    let parsed: NdevalArguments;
    try {
      parsed = parseNdevalArguments(args);
    } catch (error) {
      // Reported here, with this mode's usage rather than the whole eval command's.
      if (!(error instanceof UsageError)) throw error;
      context.stderr(`qrels-studio eval --as ndeval: ${error.message}\nusage: ${evalAsNdevalUsage}`);
      return 2;
    }
    const qrels = parseDiversityQrels(fileText(parsed.qrelsFile, context), parsed.qrelsFile);
    const runOptions = { traditional: parsed.traditional, depth: parsed.depth };
    const run = parseNdevalRun(fileText(parsed.runFile, context), parsed.runFile, runOptions);
    const risk = parsed.baselineFile
      ? {
          baseline: parseNdevalRun(fileText(parsed.baselineFile, context), parsed.baselineFile, runOptions),
          riskAlpha: parsed.riskAlpha,
          riskAlphaText: parsed.riskAlphaText,
        }
      : undefined;
    context.stdout(Buffer.from(ndevalText(evaluateNdeval(qrels, run, parsed, risk)), 'latin1'));
    return 0;
  },
};

/** `eval … --as ndeval …`: the arguments without `--as ndeval`, or undefined when another mode is asked. */
export function withoutNdevalRequest(args: readonly string[]): string[] | undefined {
  const at = args.findIndex((arg, i) => arg === '--as' && args[i + 1] === 'ndeval');
  return at < 0 ? undefined : [...args.slice(0, at), ...args.slice(at + 2)];
}
