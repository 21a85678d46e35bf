// `qrels-studio eval --as gdeval [-k K] [-c] [-j J] QRELS RUN`: what the TREC Web track's gdeval.pl (version 1.3)
// prints — its CSV of nDCG@K and ERR@K per topic and their mean, digit for digit. The evaluation itself is in
// core/metrics/gdeval/; this reads the files, the options, and writes the text.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { FormatError } from '../../core/formats/formatError.ts';
import { FileReadError } from '../../core/formats/lineReader.ts';
import {
  evaluateGdeval,
  formatGdevalText,
  type GdevalOptions,
  type GdevalRun,
  GdevalTopicSpellingError,
  gdevalBaselineOf,
  gdevalDefaults,
  readGdevalQrels,
  readGdevalRun,
} from '../../core/metrics/gdeval/gdevalEvaluation.ts';
import { perlNumber } from '../../core/metrics/gdeval/perlValues.ts';
import { type CliContext, InputError, UsageError } from '../cliContext.ts';

export const gdevalUsage =
  'qrels-studio eval --as gdeval [-k K] [-c] [-j J] [-baseline RUN [-riskAlpha A]] QRELS RUN\n' +
  '  prints what gdeval.pl (TREC Web track, version 1.3) prints: runid,topic,ndcg@K,err@K per topic, then amean\n' +
  '  -k K  depth of both measures (20)   -c  average over every judged topic (a topic the run misses counts 0)\n' +
  "  -j J  largest grade a qrels line may hold, and ERR's scale 2^J (4, fixed in gdeval.pl)\n" +
  "  -baseline RUN  risk-sensitive: each value minus the baseline run's, a loss weighted 1 + A (-riskAlpha A, 0)";

/** True when `eval` is asked for gdeval's output (`--as gdeval` anywhere among its arguments). */
export function requestsGdeval(args: readonly string[]): boolean {
  return args.some((arg, i) => arg === '--as' && args[i + 1] === 'gdeval');
}

export interface GdevalArguments {
  options: GdevalOptions;
  /** The depth as gdeval prints it in its header (`ndcg@10`): Perl's int() of the -k value. */
  depthLabel: string;
  qrelsFile: string;
  runFile: string;
  /** -baseline RUN. */
  baselineFile?: string;
}

/**
 * -k as gdeval.pl reads it: Perl's int() of the value ("10.9" is 10, "1e3" is 1000), refused below 1, and printed in
 * the header as Perl prints that integer (`1e+20` past 64 bits). "nan" passes its test and means every document,
 * as "inf" does.
 */
function depthOf(value: string | undefined): { depth: number; label: string } {
  const number = perlNumber(value);
  if (Number.isNaN(number)) return { depth: Number.POSITIVE_INFINITY, label: 'NaN' };
  const depth = Math.trunc(number);
  if (value === undefined || !(depth >= 1)) {
    throw new UsageError(
      `-k: expected a depth, an integer ≥ 1, found ${value === undefined ? 'nothing' : `'${value}'`}`,
    );
  }
  if (depth === Number.POSITIVE_INFINITY) return { depth, label: 'Inf' };
  const digits = /^\+?(\d+)$/.exec(value)?.[1];
  if (digits !== undefined && BigInt(digits) < 2n ** 63n) return { depth, label: BigInt(digits).toString() };
  if (depth < 2 ** 63) return { depth, label: BigInt(depth).toString() };
  return { depth, label: depth.toExponential(14).replace(/\.?0+e/, 'e') };
}

export function parseGdevalArguments(args: readonly string[]): GdevalArguments {
  const options = { ...gdevalDefaults };
  let depthLabel = String(options.depth);
  const files: string[] = [];
  let baselineFile: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--as' && args[i + 1] === 'gdeval') {
      i++;
    } else if (arg === '-c') {
      options.complete = true;
    } else if (arg === '-k') {
      const value = args[++i];
      const depth = depthOf(value);
      options.depth = depth.depth;
      depthLabel = depth.label;
    } else if (arg === '-j') {
      const value = args[++i];
      if (value === undefined || !/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 30) {
        throw new UsageError(
          `-j: expected the largest grade, an integer from 1 to 30, found ${value === undefined ? 'nothing' : `'${value}'`}`,
        );
      }
      options.maxGrade = Number(value);
    } else if (arg === '-baseline') {
      baselineFile = args[++i];
      if (baselineFile === undefined) throw new UsageError('-baseline: expected a run file, found nothing');
    } else if (arg === '-riskAlpha') {
      const value = args[++i];
      // Perl reads the value as a number (refusing one below 0) and prints it as written in the runid.
      if (value === undefined || !(perlNumber(value) >= 0) || value.includes('%')) {
        throw new UsageError(
          `-riskAlpha: expected a number ≥ 0, found ${value === undefined ? 'nothing' : `'${value}'`}`,
        );
      }
      options.riskAlpha = { value: perlNumber(value), text: value };
    } else if (arg.startsWith('-') && arg.length > 1) {
      throw new UsageError(
        `--as gdeval: unknown option '${arg}' (gdeval's are -k K, -c, -j J, -baseline RUN and -riskAlpha A)`,
      );
    } else {
      files.push(arg);
    }
  }
  if (files.length !== 2) {
    throw new UsageError(
      `--as gdeval: expected a qrels file and one run file, found ${files.length} file${files.length === 1 ? '' : 's'}`,
    );
  }
  return { options, depthLabel, qrelsFile: files[0]!, runFile: files[1]!, ...(baselineFile && { baselineFile }) };
}

/**
 * The file's bytes (a path relative to the command's folder) as a latin1 string, Perl's view of them; gunzipped
 * when it starts with gzip's magic number.
 */
function readBytesAsText(file: string, cwd: string): string {
  try {
    const bytes = readFileSync(resolve(cwd, file));
    return (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString('latin1');
  } catch (error) {
    throw new FileReadError(file, error);
  }
}

/**
 * gdeval.pl puts the runid inside its printf format: a '%' in it would be read as a conversion, which we do not
 * imitate — said, rather than printing other digits.
 */
function refusePercent(run: GdevalRun, file: string): void {
  if (run.runid.includes('%') && run.runidPosition) {
    throw new FormatError(
      file,
      run.runidPosition.line,
      run.runidPosition.column,
      `expected a run tag without '%' (gdeval.pl would read it as a printf conversion), found '${run.runid}'`,
    );
  }
}

export function evalAsGdeval(args: readonly string[], context: CliContext): number {
  const { options, depthLabel, qrelsFile, runFile, baselineFile } = parseGdevalArguments(args);
  const judgments = readGdevalQrels(readBytesAsText(qrelsFile, context.cwd), qrelsFile, options.maxGrade);
  let text: string;
  try {
    // gdeval.pl reads and evaluates the baseline first: its errors come before the run's.
    if (baselineFile !== undefined) {
      const baselineRun = readGdevalRun(readBytesAsText(baselineFile, context.cwd), baselineFile);
      refusePercent(baselineRun, baselineFile);
      options.baseline = gdevalBaselineOf(judgments, baselineRun, options);
    }
    const run = readGdevalRun(readBytesAsText(runFile, context.cwd), runFile);
    refusePercent(run, runFile);
    text = formatGdevalText(evaluateGdeval(judgments, run, options), depthLabel);
  } catch (error) {
    if (error instanceof GdevalTopicSpellingError) throw new InputError(`${qrelsFile}: ${error.message}`);
    throw error;
  }
  // Topics and the runid are the files' bytes: written back as they were.
  context.stdout(Buffer.from(text, 'latin1'));
  return 0;
}
