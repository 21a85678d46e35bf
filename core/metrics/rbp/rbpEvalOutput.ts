// rbp_eval 0.2's text, byte for byte: `p= %.2lf q= %4s d= %4s rbp= %.4f +%.4f` per topic (-q), depth and
// persistence, then the same lines for the mean (q= all), after a header of '#' lines unless -H.
import { fullDepth } from './rankBiasedPrecision.ts';
import type { RbpEvaluation } from './rbpEval.ts';

/**
 * C's printf("%.Nf") on x86-64 glibc: the exact binary value rounded to N decimals, an exact tie to even
 * (toFixed rounds ties up: C prints 0.125 as "0.12" at %.2f), NaN as "-nan" (what 0.0/0.0 gives there, the mean
 * over no judged topic) and the sign of a negative value kept even when it rounds to zero.
 */
export function formatFixed(value: number, decimals: number): string {
  if (Number.isNaN(value)) return '-nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  const negative = value < 0 || Object.is(value, -0);
  // The double is mantissa · 2^exponent exactly; scale by 10^decimals and round the exact quotient half-to-even.
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(value));
  const bits = view.getBigUint64(0);
  const biasedExponent = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  const mantissa = biasedExponent === 0 ? fraction : fraction | (1n << 52n);
  const exponent = (biasedExponent === 0 ? 1 : biasedExponent) - 1075;
  const scaled = mantissa * 10n ** BigInt(decimals);
  let rounded: bigint;
  if (exponent >= 0) rounded = scaled << BigInt(exponent);
  else {
    const divisor = 1n << BigInt(-exponent);
    const quotient = scaled / divisor;
    const twiceRemainder = (scaled % divisor) * 2n;
    rounded =
      twiceRemainder > divisor || (twiceRemainder === divisor && quotient % 2n === 1n) ? quotient + 1n : quotient;
  }
  const digits = rounded.toString().padStart(decimals + 1, '0');
  const text = decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
  return negative ? `-${text}` : text;
}

/** One line per depth and persistence, as rbp_eval's desc_fmt_qid writes them (qid lower-cased, latin1). */
function resultLines(
  qid: string,
  atDepths: RbpEvaluation['averages'],
  persistences: readonly number[],
  lines: string[],
): void {
  for (const { depth, byPersistence } of atDepths) {
    const depthText = depth === fullDepth ? 'full' : String(depth);
    for (const [k, { value, residual }] of byPersistence.entries()) {
      lines.push(
        `p= ${formatFixed(persistences[k]!, 2)} q= ${qid.padStart(4)} d= ${depthText.padStart(4)} ` +
          `rbp= ${formatFixed(value, 4)} +${formatFixed(residual, 4)}\n`,
      );
    }
  }
}

export interface RbpTextOptions {
  perQuery: boolean;
  /** -T turns the mean's lines off. */
  averages: boolean;
}

/** The result lines (no header); a topic without judgments prints nothing (the caller warns about it). */
export function formatRbpEvalText(
  evaluation: RbpEvaluation,
  persistences: readonly number[],
  options: RbpTextOptions,
): string {
  const lines: string[] = [];
  if (options.perQuery) {
    for (const topic of evaluation.topics) {
      if (topic.atDepths) resultLines(topic.qid, topic.atDepths, persistences, lines);
    }
  }
  if (options.averages) resultLines('all', evaluation.averages, persistences, lines);
  return lines.join('');
}

/** C's ctime(): `Thu Nov 26 00:25:19 2026\n`, local time. */
export function cTime(date: Date): string {
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    `${days[date.getDay()]} ${months[date.getMonth()]} ${String(date.getDate()).padStart(2)} ` +
    `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())} ${date.getFullYear()}\n`
  );
}

export interface RbpHeaderFacts {
  now: Date;
  command: readonly string[];
  hostname: string;
  version: string;
  cwd: string;
  user: string | undefined;
  runFile: string;
  runModified: Date | undefined;
}

/** rbp_eval's header: what ran, where, when and on which run (it differs between any two runs of the tool). */
export function formatRbpEvalHeader(facts: RbpHeaderFacts): string {
  return (
    '# rbp_eval output\n#\n' +
    `# ${cTime(facts.now)}` +
    `# command: ${facts.command.join(' ')}\n` +
    `# hostname: ${facts.hostname}\n` +
    `# rbp_eval version: ${facts.version}\n` +
    `# current working directory: ${facts.cwd}\n` +
    (facts.user !== undefined ? `# user: ${facts.user}\n` : '') +
    (facts.runModified ? `# ${facts.runFile} modification time: ${cTime(facts.runModified)}` : '')
  );
}
