// `qrels-studio judges STUDY.assess`: how each LLM judge of a study does against the people (adjudicated, else
// majority) — the confusion matrix, Cohen's κ with a bootstrap interval, accuracy, the calibration of its vote
// confidence, cost per 1,000 pairs, and the correlation of the system rankings its qrels and the people's give (the
// study's pooled runs, Kendall's τ_b and τ_ap) — and the study's gate (`accept when …`) per judge.
// `--json` prints the report (core/judge/quality/judgeQualityTypes.ts JudgeQualityReport) as is.
import { defaultBootstrap } from '../../core/agreement/bootstrap.ts';
import { conditionText } from '../../core/judge/quality/judgeGate.ts';
import { computeJudgeQualityReport, RankingMeasureError } from '../../core/judge/quality/judgeQualityReport.ts';
import {
  type JudgeQuality,
  type JudgeQualityOptions,
  type JudgeQualityReport,
  type QrelsPairs,
  type QualityValue,
  qrelsPairsRules,
  type TauApMode,
} from '../../core/judge/quality/judgeQualityTypes.ts';
import { type CliCommand, InputError, UsageError } from '../cliContext.ts';
import { openStudyDatabase, optionValue } from '../studyDatabaseCommand.ts';

const tauApModes: readonly TauApMode[] = ['asymmetric', 'symmetric'];

export const judgesCommand: CliCommand = {
  name: 'judges',
  summary: 'each LLM judge against the people: κ, accuracy, calibration, cost, system-ranking τ and τ_ap, the gate',
  usage:
    'qrels-studio judges STUDY.assess [--name STUDY] [--measure M] [--pairs people|common|each]\n' +
    '         [--tau-ap asymmetric|symmetric] [--bins N] [--bootstrap N] [--seed N] [--json]',
  details: [
    "The people's label of a pair: the adjudicated one, else the people's majority (a tie to the lower label).",
    "Over the pairs both labelled: the confusion matrix (rows: people, columns: judge), Cohen's κ (unweighted) with a",
    '  percentile bootstrap interval over the pairs (--bootstrap N resamples, default 1000, 0 for none; --seed, default 1),',
    '  accuracy, and the expected calibration error of the vote confidence (the share of the votes for the label the',
    '  judge gave; --bins N equal-width bins, default 10; undefined for a judge that votes once).',
    'Cost per 1,000 pairs: what its recorded calls cost, divided by the pairs it has a suggestion for.',
    "System rankings: each pooled run evaluated with the people's qrels and with the judge's (trec_eval's rules,",
    "  -c; relevant = label >= 1) by --measure (default: the study's first `measures`, else map); Kendall's τ_b",
    "  (ties corrected) and τ_ap (Yilmaz et al. 2008; the people's ranking is the truth, --tau-ap symmetric: the mean",
    "  of both directions). --pairs: people (default) — the people's qrels as they are and the judge's labels on the",
    '  same pairs (a pair it did not label is unjudged, so not relevant); common — only pairs both labelled; each —',
    '  every pair each side labelled.',
    "Gate: a judge block's `accept when tau >= 0.9 and kappa >= 0.6` is checked here; only a judge that passes may",
    '  fill the pairs no person labelled in an export `from human-else-llm` (export --accept-judge NAME overrides).',
    'Exit status: 1 when a judge fails its gate (each failing condition on stderr, with its value and threshold;',
    '  --json adds gatePassed), 0 when every gate passes or none is declared — a check for CI.',
    '',
  ].join('\n'),
  async run(args, context) {
    let studyArg: string | undefined;
    let name: string | undefined;
    let json = false;
    const given: Partial<JudgeQualityOptions> = {};
    let samples: number = defaultBootstrap.samples;
    let seed: number = defaultBootstrap.seed;
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!;
      if (arg === '--json') json = true;
      else if (arg === '--name') name = optionValue(args, i++, 'a study name');
      else if (arg === '--measure') given.measure = optionValue(args, i++, 'a measure (map, P.10, ndcg_cut.10, …)');
      else if (arg === '--pairs') given.pairs = oneOf(qrelsPairsRules, optionValue(args, i++, 'a rule'), '--pairs');
      else if (arg === '--tau-ap') given.tauAp = oneOf(tauApModes, optionValue(args, i++, 'a mode'), '--tau-ap');
      else if (arg === '--bins') given.calibrationBins = whole(optionValue(args, i++, 'a number'), '--bins', 1);
      else if (arg === '--bootstrap') samples = whole(optionValue(args, i++, 'a number'), '--bootstrap', 0);
      else if (arg === '--seed') seed = whole(optionValue(args, i++, 'a number'), '--seed', 0);
      else if (arg.startsWith('-')) throw new UsageError(`unknown option '${arg}'`);
      else if (studyArg === undefined) studyArg = arg;
      else throw new UsageError(`unexpected argument '${arg}'`);
    }
    if (studyArg === undefined) throw new UsageError('no study file');
    given.bootstrap = { samples, seed, level: defaultBootstrap.level };
    const { study, store, folder } = await openStudyDatabase(studyArg, name, context);
    try {
      const studyId = await store.studies.studyId(study.name);
      let report: JudgeQualityReport;
      try {
        report = await computeJudgeQualityReport(store, studyId, study, folder, given);
      } catch (error) {
        if (error instanceof RankingMeasureError) throw new InputError(error.message);
        throw error;
      }
      context.stdout(json ? `${JSON.stringify(report, null, 2)}\n` : reportText(report));
      // A gate is a check CI can run: each failing judge on stderr (the condition and both numbers), exit 1.
      for (const judge of report.judges) if (!judge.gate.passed) context.stderr(`${judge.gate.failure}\n`);
      return report.gatePassed ? 0 : 1;
    } finally {
      await store.close();
    }
  },
};

function oneOf<T extends string>(allowed: readonly T[], value: string, option: string): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`${option} takes ${allowed.join(', ')}, not '${value}'`);
  }
  return value as T;
}

function whole(text: string, option: string, min: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < min) {
    throw new UsageError(`${option} expects a whole number of at least ${min}, found '${text}'`);
  }
  return value;
}

/** Four decimals, or — when undefined. */
const number = (value: number | null): string =>
  value === null ? '—' : value.toFixed(4).replace(/^-0\.0000$/, '0.0000');
/** A value, or — with why it is undefined. */
const valueText = (v: QualityValue): string => (v.value === null ? `—  (${v.reason})` : number(v.value));

const pairsRuleText: Record<QrelsPairs, string> = {
  people: "the people's qrels, the judge's labels on the same pairs",
  common: 'only the pairs both labelled',
  each: 'every pair each side labelled',
};

export function reportText(report: JudgeQualityReport): string {
  const { options } = report;
  let text =
    `study '${report.study}': ${report.peoplePairs} pairs with a people's label (adjudicated, else majority); ` +
    `${report.judges.length} LLM judge${report.judges.length === 1 ? '' : 's'}\n`;
  if (report.judges.length === 0) return `${text}no LLM judge has labelled a pair of this study\n`;
  for (const judge of report.judges) text += `\n${judgeText(judge, options)}`;
  return text;
}

function judgeText(q: JudgeQuality, options: JudgeQualityOptions): string {
  const lines: string[] = [`judge ${q.judge}: ${q.sharedPairs} pairs labelled by both the judge and the people`];
  const row = (label: string, value: string) => lines.push(`  ${label.padEnd(18)}${value}`);
  const gate = q.gate;
  row(
    'gate',
    !gate.declared
      ? 'none declared (the judge may fill unjudged pairs as before)'
      : gate.passed
        ? `passed: ${gate.checks.map((c) => `${c.condition.metric} ${number(c.value)} (${conditionText(c.condition)})`).join(', ')}`
        : `FAILED: ${gate.failure!.replace(/^judge \S+ fails its gate: /, '')}`,
  );
  const k = q.kappa;
  const interval =
    k.interval === null
      ? k.samples > 0 && k.value !== null
        ? '  [—] (fewer than half the resamples define κ)'
        : ''
      : `  [${number(k.interval[0])}, ${number(k.interval[1])}] (${Math.round(k.level * 100)} %, ${k.samples} resamples, seed ${k.seed})`;
  row("Cohen's κ", `${valueText(k)}${interval}`);
  row('accuracy', valueText(q.accuracy));
  row(
    'calibration (ECE)',
    q.calibration.value === null
      ? valueText(q.calibration)
      : `${number(q.calibration.value)}  (${q.calibration.pairs} pairs, ${options.calibrationBins} bins)`,
  );
  const c = q.cost;
  const unpriced = c.calls - c.pricedCalls;
  row(
    'cost',
    `${c.calls > 0 && c.pricedCalls === 0 ? 'unknown' : `$${c.cost.toFixed(4)}`} for ${c.calls} calls ` +
      `(${c.answered} answered, ${c.failed} failed` +
      `${unpriced > 0 && c.pricedCalls > 0 ? `, ${unpriced} without a price not counted` : ''}); per 1,000 pairs: ` +
      (c.costPer1000Pairs.value === null ? valueText(c.costPer1000Pairs) : `$${c.costPer1000Pairs.value.toFixed(4)}`),
  );
  const r = q.rankings;
  if (r === null) row('system rankings', `—  (${q.rankingsReason})`);
  else {
    row(
      'system rankings',
      `${r.systems.length} runs by ${r.measure}; qrels: ${pairsRuleText[r.pairs]} (${r.peopleQrels} / ${r.judgeQrels} labels)`,
    );
    row("  Kendall's τ_b", valueText(r.tau));
    row(
      '  τ_ap',
      `${valueText(r.tauAp)}${r.tauAp.value === null ? '' : r.tauApMode === 'symmetric' ? '  (mean of both directions)' : "  (the people's ranking as truth)"}`,
    );
    const width = Math.max(4, ...r.systems.map((s) => s.run.length));
    lines.push(`    ${'run'.padEnd(width)}  ${'people'.padStart(8)} rank  ${'judge'.padStart(8)} rank`);
    for (const s of r.systems) {
      lines.push(
        `    ${s.run.padEnd(width)}  ${number(s.people).padStart(8)} ${String(s.peopleRank).padStart(4)}  ` +
          `${number(s.judge).padStart(8)} ${String(s.judgeRank).padStart(4)}`,
      );
    }
  }
  const m = q.confusion;
  lines.push('  confusion matrix (rows: people, columns: judge)');
  const cell = Math.max(
    5,
    ...m.labels.map((l) => String(l).length + 1),
    ...m.counts.flat().map((n) => String(n).length + 1),
  );
  lines.push(`    ${''.padStart(cell)}${m.labels.map((l) => String(l).padStart(cell)).join('')}`);
  m.counts.forEach((counts, i) => {
    lines.push(`    ${String(m.labels[i]).padStart(cell)}${counts.map((n) => String(n).padStart(cell)).join('')}`);
  });
  return `${lines.join('\n')}\n`;
}
