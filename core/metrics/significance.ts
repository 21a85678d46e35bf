// Paired significance tests of two systems' per-query (per-instruction) values, the two IR papers use most
// (Smucker, Allan & Carterette 2007): a randomisation (permutation) test — each query's difference keeps or flips
// its sign at random, `samples` times, from a seeded generator; two-sided p = (1 + #{|mean*| ≥ |mean|}) / (1 +
// samples) — and Student's paired t-test, two-sided, with its p from the t distribution (the regularised incomplete
// beta function, Numerical Recipes' continued fraction).
import { seededRandom } from '../agreement/bootstrap.ts';

export interface PairedTest {
  /** Queries with a value in both runs. */
  n: number;
  /** Mean of b − a. */
  meanDifference: number;
  /** Two-sided p of the randomisation test (null for fewer than 2 queries). */
  randomisationP: number | null;
  /** t statistic and two-sided p of the paired t-test (null when undefined: n < 2 or no variance). */
  t: number | null;
  tTestP: number | null;
}

/** ln Γ(x), Lanczos (g = 7, n = 9): 15 significant digits for x > 0. */
function logGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let a = c[0]!;
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += c[i]! / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** The continued fraction of the incomplete beta function (modified Lentz). */
function betaFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < 1e-15) break;
  }
  return h;
}

/** The regularised incomplete beta function I_x(a, b). */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  return x < (a + 1) / (a + b + 2) ? (front * betaFraction(a, b, x)) / a : 1 - (front * betaFraction(b, a, 1 - x)) / b;
}

/** Two-sided p of Student's t with `df` degrees of freedom. */
export function studentTwoSidedP(t: number, df: number): number {
  return incompleteBeta(df / (df + t * t), df / 2, 0.5);
}

/** Both tests on paired values (`a[i]`, `b[i]` of the same query). */
export function pairedTests(
  a: readonly number[],
  b: readonly number[],
  options: { samples?: number; seed?: number } = {},
): PairedTest {
  const n = a.length;
  const differences = a.map((x, i) => b[i]! - x);
  const mean = n === 0 ? 0 : differences.reduce((s, d) => s + d, 0) / n;
  if (n < 2) return { n, meanDifference: mean, randomisationP: null, t: null, tTestP: null };
  const variance = differences.reduce((s, d) => s + (d - mean) ** 2, 0) / (n - 1);
  const t = variance === 0 ? null : mean / Math.sqrt(variance / n);
  const samples = options.samples ?? 10_000;
  const random = seededRandom(options.seed ?? 1);
  const observed = Math.abs(mean) - 1e-12;
  let extreme = 0;
  for (let s = 0; s < samples; s++) {
    let sum = 0;
    for (const d of differences) sum += random() < 0.5 ? -d : d;
    if (Math.abs(sum / n) >= observed) extreme++;
  }
  return {
    n,
    meanDifference: mean,
    randomisationP: (extreme + 1) / (samples + 1),
    t,
    tTestP: t === null ? (mean === 0 ? 1 : null) : studentTwoSidedP(t, n - 1),
  };
}
