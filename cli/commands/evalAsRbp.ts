// `qrels-studio eval --as rbp_eval [options] QRELS RUN`: what rbp_eval 0.2 prints, byte for byte (its header
// aside, which names the time, host and user of each run).
import { stat } from 'node:fs/promises';
import { hostname, userInfo } from 'node:os';
import type { RbpOrdering } from '../../core/metrics/rbp/rankBiasedPrecision.ts';
import {
  defaultRbpEvalOptions,
  evaluateRbp,
  parseDepths,
  parsePersistences,
  type RbpEvalOptions,
  type RbpRelevance,
  RbpSpecError,
} from '../../core/metrics/rbp/rbpEval.ts';
import { readRbpQrels, readRbpRun } from '../../core/metrics/rbp/rbpEvalInput.ts';
import { formatFixed, formatRbpEvalHeader, formatRbpEvalText } from '../../core/metrics/rbp/rbpEvalOutput.ts';
import { type CliContext, UsageError } from '../cliContext.ts';

export const rbpEvalUsage =
  'qrels-studio eval --as rbp_eval [-q] [-H] [-p P,…] [-d D,…] [-b T | -B | -f S | -F | -a] [-s | -r | -o] [-T] [-W] QRELS RUN\n' +
  '  prints what rbp_eval 0.2 prints: rank-biased precision and its residual (+, what unjudged documents and the\n' +
  '  ranking below the depth could add), per topic (-q) and averaged over the run topics that have judgments\n' +
  '  -p  persistences (0.5,0.8,0.95)    -d  depths, ascending; 0 = the whole ranking (the default)\n' +
  '  -b T  relevant = grade ≥ T (binary); -B as -b 1   -f S  relevance = grade × S; -F as -f 1\n' +
  "  -a  binary at 1 if no grade has a '.', else fractional (the default)\n" +
  '  -s  rank by score, ties shared (default)  -r  by the rank column  -o  by line order\n' +
  '  -H  no header   -T  no averages   -W  no warnings   -h  this help\n';

const rbpOptionsSummary = '-q -H -T -W, -p P,…, -d D,…, -b T -B -f S -F -a, -s -r -o';

export interface RbpEvalArguments {
  options: RbpEvalOptions;
  perQuery: boolean;
  averages: boolean;
  header: boolean;
  warnings: boolean;
  help: boolean;
  files: string[];
}

/** rbp_eval's getopt string: flags bundle (-qH), values attach (-p0.8) or follow, files may come first. */
const flagsWithValue = new Set(['b', 'f', 'd', 'p']);

export function parseRbpEvalArguments(args: readonly string[]): RbpEvalArguments {
  const options: RbpEvalOptions = { ...defaultRbpEvalOptions };
  const parsed: RbpEvalArguments = {
    options,
    perQuery: false,
    averages: true,
    header: true,
    warnings: true,
    help: false,
    files: [],
  };
  const seen = new Set<string>();
  // rbp_eval refuses an option given twice (and any two of a group: -b -B -f -F -a; -s -r -o).
  const once = (flag: string, group: string, what: string): void => {
    if (seen.has(group)) throw new UsageError(`${what} already given (-${flag})`);
    seen.add(group);
  };
  const specOf = (flag: string, text: string | undefined, parse: (spec: string) => number[]): number[] => {
    if (text === undefined) throw new UsageError(`option -${flag} needs a value`);
    try {
      return parse(text);
    } catch (error) {
      if (error instanceof RbpSpecError) throw new UsageError(`option -${flag}: ${error.message}`);
      throw error;
    }
  };
  const numberOf = (flag: string, text: string | undefined, positive: boolean): number => {
    const value =
      text !== undefined && /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : Number.NaN;
    if (!(positive ? value > 0 : value >= 0)) {
      throw new UsageError(`option -${flag}: expected a number ${positive ? '> 0' : '≥ 0'}, found '${text ?? ''}'`);
    }
    return value;
  };
  const relevance = (flag: string, value: RbpRelevance): void => {
    once(flag, 'relevance', 'relevance type (-b, -B, -f, -F, -a)');
    options.relevance = value;
  };
  const ordering = (flag: string, value: RbpOrdering): void => {
    once(flag, 'ordering', 'ranking (-s, -r, -o)');
    options.ordering = value;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      parsed.files.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      parsed.files.push(arg);
      continue;
    }
    for (let j = 1; j < arg.length; j++) {
      const flag = arg[j]!;
      if (flagsWithValue.has(flag)) {
        const value = j + 1 < arg.length ? arg.slice(j + 1) : args[++i];
        if (flag === 'p') {
          once('p', 'p', 'persistence spec');
          options.persistences = specOf('p', value, parsePersistences);
        } else if (flag === 'd') {
          once('d', 'd', 'depth spec');
          options.depths = specOf('d', value, parseDepths);
        } else if (flag === 'b') relevance('b', { kind: 'binary', threshold: numberOf('b', value, false) });
        else relevance('f', { kind: 'fractional', scale: numberOf('f', value, true) });
        break;
      }
      if (flag === 'q') {
        once('q', 'q', 'per-query output');
        parsed.perQuery = true;
      } else if (flag === 'T') {
        once('T', 'T', 'no averages');
        parsed.averages = false;
      } else if (flag === 'H') {
        once('H', 'H', 'no header');
        parsed.header = false;
      } else if (flag === 'W') {
        once('W', 'W', 'no warnings');
        parsed.warnings = false;
      } else if (flag === 'h') parsed.help = true;
      else if (flag === 'B') relevance('B', { kind: 'binary', threshold: 1 });
      else if (flag === 'F') relevance('F', { kind: 'fractional', scale: 1 });
      else if (flag === 'a') relevance('a', { kind: 'auto' });
      else if (flag === 's') ordering('s', 'score');
      else if (flag === 'r') ordering('r', 'rank');
      else if (flag === 'o') ordering('o', 'occurrence');
      else throw new UsageError(`unknown option '-${flag}' for --as rbp_eval`);
    }
  }
  if (!parsed.help && parsed.files.length !== 2) {
    throw new UsageError(
      parsed.files.length < 2
        ? 'expected a qrels file and a run file'
        : `expected 2 files, found ${parsed.files.length}`,
    );
  }
  return parsed;
}

/** `eval … --as rbp_eval …`: the pair may stand anywhere among the arguments. */
export function requestsRbpEval(args: readonly string[]): boolean {
  return args.some((arg, i) => arg === '--as' && args[i + 1] === 'rbp_eval');
}

/** `eval --as rbp_eval ARGS` (the `--as rbp_eval` pair may be among `args`; it is dropped). */
export async function evalAsRbp(allArgs: readonly string[], context: CliContext): Promise<number> {
  const at = allArgs.findIndex((arg, i) => arg === '--as' && allArgs[i + 1] === 'rbp_eval');
  const args = at < 0 ? allArgs : [...allArgs.slice(0, at), ...allArgs.slice(at + 2)];
  let parsed: RbpEvalArguments;
  try {
    parsed = parseRbpEvalArguments(args);
  } catch (error) {
    // The usage printed after the message is eval's: say which mode's options were meant.
    if (error instanceof UsageError)
      throw new UsageError(`--as rbp_eval: ${error.message} (its options: ${rbpOptionsSummary})`);
    throw error;
  }
  if (parsed.help) {
    context.stdout(rbpEvalUsage);
    return 0;
  }
  const [qrelsFile, runFile] = parsed.files as [string, string];
  const warn = (message: string): void => {
    if (parsed.warnings) context.stderr(`WARNING: ${message}\n`);
  };
  // rbp_eval reads the run first: a bad run is the error reported when both files are bad.
  const run = await readRbpRun(runFile);
  const qrels = await readRbpQrels(qrelsFile);
  for (const warning of run.warnings) warn(warning);
  const evaluation = evaluateRbp(qrels, run, parsed.options);
  if (evaluation.maximumRelevance > 1) {
    warn(`maximum effective relevance of ${formatFixed(evaluation.maximumRelevance, 2)} exceeds 1.0`);
  }
  let header = '';
  if (parsed.header) {
    const modified = await stat(runFile).then(
      (stats) => stats.mtime,
      () => undefined,
    );
    let user: string | undefined;
    try {
      user = userInfo().username;
    } catch {
      user = undefined; // no passwd entry for this uid: rbp_eval prints no user line either
    }
    header = formatRbpEvalHeader({
      now: new Date(),
      command: ['qrels-studio', 'eval', '--as', 'rbp_eval', ...args],
      hostname: hostname(),
      version: `0.2 (computed by qrels-studio ${context.productVersion})`,
      cwd: context.cwd,
      user,
      runFile,
      runModified: modified,
    });
  }
  for (const topic of evaluation.topics) {
    if (!topic.atDepths) warn(`there are no judgments for query id ${topic.qid}`);
  }
  const text = formatRbpEvalText(evaluation, parsed.options.persistences, {
    perQuery: parsed.perQuery,
    averages: parsed.averages,
  });
  // qids are bytes read as latin1: written back as the bytes they were.
  if (header) context.stdout(header);
  context.stdout(Buffer.from(text, 'latin1'));
  return 0;
}
