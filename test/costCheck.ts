// Cost checks without a clock limit (tests never assert wall-clock times: machines here are noisy). The work is
// compared with a baseline of the same size measured in the same run, in CPU time of this process: work that went
// quadratic, or repeats a scan per item, costs many times its baseline, while a busy machine or a garbage
// collection slows both alike. Each keeps its best of several interleaved runs (a loaded machine only ever makes a
// run slower), and a failed round is measured again before the check fails.
import assert from 'node:assert/strict';

export interface Cost {
  /** Best CPU milliseconds of the work and of its baseline. */
  workMs: number;
  baselineMs: number;
}

function cpuMilliseconds(run: () => unknown): number {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** Asserts that `work` costs at most `factor` times `baseline`; `what` names the two in the failure message. */
export function assertCostWithin(
  work: () => unknown,
  baseline: () => unknown,
  factor: number,
  what: { work: string; baseline: string },
): Cost {
  work(); // warm-up: the first calls include compiling the code
  baseline();
  let workMs = Number.POSITIVE_INFINITY;
  let baselineMs = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < 5; i++) {
      workMs = Math.min(workMs, cpuMilliseconds(work));
      baselineMs = Math.min(baselineMs, cpuMilliseconds(baseline));
    }
    // CPU time ticks in about a millisecond: below that a baseline cannot be told from zero.
    const ratio = workMs / Math.max(baselineMs, 1);
    // Within the factor, or so far past it that no noise explains it.
    if (ratio <= factor || ratio > 4 * factor) break;
  }
  assert.ok(
    workMs <= factor * Math.max(baselineMs, 1),
    `${what.work} took ${workMs.toFixed(1)} ms, ${(workMs / Math.max(baselineMs, 1)).toFixed(1)} times ` +
      `${what.baseline} (${baselineMs.toFixed(1)} ms); at most ${factor} times is expected`,
  );
  return { workMs, baselineMs };
}
