// `qrels-studio agree LABELS`: inter-annotator agreement of a study (its current labels; LLM judges' latest
// suggestions; adjudicated labels left out) or of a long-format label file (CSV/TSV with a header, or JSONL; the
// file `export --labels` writes). `--json` prints summariseAgreement's object (core/agreement/agreementSummary.ts)
// as is; the text report prints the same numbers to 4 decimals.
import { resolve } from 'node:path';
import {
  type AgreementStatistics,
  type AgreementSummary,
  type Interval,
  summariseAgreement,
} from '../../core/agreement/agreementSummary.ts';
import {
  type BootstrapSettings,
  type DeclaredTarget,
  judgeTarget,
  type TargetResult,
  targetVerdictText,
} from '../../core/agreement/agreementTarget.ts';
import { defaultBootstrap } from '../../core/agreement/bootstrap.ts';
import { readLabelFile } from '../../core/agreement/labelFile.ts';
import type { ReliabilityData } from '../../core/agreement/reliabilityData.ts';
import { alphaLevels } from '../../core/agreement/statistics/krippendorffAlpha.ts';
import { agreementStatistic } from '../../core/agreement/statistics/registry.ts';
import { readStudyLabels } from '../../core/agreement/studyLabels.ts';
import { type CliCommand, UsageError } from '../cliContext.ts';
import { openStudyDatabase, optionValue } from '../studyDatabaseCommand.ts';

function wholeNumber(text: string, option: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new UsageError(`${option} expects a whole number from ${min} to ${max}, found '${text}'`);
  }
  return value;
}

/** Four decimals; a value that rounds to zero is 0.0000, never -0.0000 (κ of chance agreement can be -2e-16). */
const fixed = (value: number): string => {
  const text = value.toFixed(4);
  return text === '-0.0000' ? '0.0000' : text;
};
/** A statistic as the CLI prints it: four decimals, or — when it is undefined. */
export const shown = (value: number | null): string => (value === null ? '—' : fixed(value));
const interval = (ci: Interval | null | undefined): string =>
  ci === undefined ? '' : ci === null ? '  [—]' : `  [${fixed(ci[0])}, ${fixed(ci[1])}]`;

/** The statistics as text (one block; the binary block uses it again). */
function statisticsText(s: AgreementStatistics): string {
  const lines: string[] = [];
  const row = (name: string, value: number | null, ci?: Interval | null) =>
    lines.push(`${name.padEnd(28)}${shown(value).padStart(8)}${interval(ci)}`);
  row('percent agreement', s.percent_agreement, s.ci?.percent_agreement);
  for (const level of alphaLevels) {
    row(
      level === 'nominal' ? "Krippendorff's α nominal" : `                 ${level}`,
      s.krippendorff[level],
      s.ci?.krippendorff[level],
    );
  }
  row("Fleiss' κ", s.fleiss.kappa, s.ci?.fleiss);
  lines.push(`${''.padEnd(28)}(over the ${s.fleiss.n_units} units labelled by all ${s.n_annotators} annotators)`);
  if (s.cohen.length > 0) {
    const width = Math.max(4, ...s.cohen.flatMap((p) => [p.a.length, p.b.length]));
    lines.push('');
    lines.push(
      `Cohen's κ  ${'a'.padEnd(width)}  ${'b'.padEnd(width)}  ${'kind'.padEnd(11)} ${'n'.padStart(7)} ` +
        `${'unweighted'.padStart(10)} ${'linear'.padStart(8)} ${'quadratic'.padStart(9)}`,
    );
    s.cohen.forEach((p, i) => {
      const ci = s.ci?.cohen[i];
      lines.push(
        `           ${p.a.padEnd(width)}  ${p.b.padEnd(width)}  ${p.kind.padEnd(11)} ${String(p.n).padStart(7)} ` +
          `${shown(p.unweighted).padStart(10)} ${shown(p.linear).padStart(8)} ${shown(p.quadratic).padStart(9)}` +
          (ci ? `   unweighted${interval(ci.unweighted)}` : ''),
      );
    });
  }
  return `${lines.join('\n')}\n`;
}

/** The study's targets, each with its verdict (met only when the interval's lower bound reaches the target). */
function targetsText(targets: readonly TargetResult[], { samples, seed, level }: BootstrapSettings): string {
  if (targets.length === 0) return '';
  let text =
    `\ntargets (met only when the ${Math.round(level * 100)} % interval's lower bound reaches the target; ` +
    `${samples} bootstrap samples, seed ${seed}):\n`;
  for (const t of targets) {
    text += `  ${t.title.padEnd(28)}${shown(t.value).padStart(8)}  ${targetVerdictText(t.verdict, shown)}\n`;
    if (t.note !== undefined) text += `    - ${t.note}\n`;
  }
  return text;
}

function reportText(source: string, summary: AgreementSummary, labels: number, targets: string): string {
  const everyone = summary.all_annotators.map((a) => a.name);
  let text =
    `${source}: ${labels} labels, ${summary.n_units} units, ${everyone.length} annotators ` +
    `(${everyone.join(', ')}); labels ${summary.values.join(' ')}\n`;
  if (summary.ci) {
    text += `${Math.round(summary.ci.level * 100)} % intervals: ${summary.ci.samples} bootstrap samples of the units, seed ${summary.ci.seed}\n`;
  }
  text += `\n${statisticsText(summary)}${targets}`;
  if (summary.binary) {
    text += `\nbinarised (relevant = label ≥ ${summary.threshold}):\n${statisticsText(summary.binary)}`;
  }
  if (summary.per_query) {
    text += `\nper query ${'units'.padStart(7)} ${'percent'.padStart(8)} ${'α nominal'.padStart(9)} ${'α ordinal'.padStart(9)} ${'κ (h-h)'.padStart(8)}\n`;
    for (const q of summary.per_query) {
      text +=
        `${q.query_id.padEnd(9)} ${String(q.n_units).padStart(7)} ${shown(q.percent_agreement).padStart(8)} ` +
        `${shown(q.krippendorff.nominal).padStart(9)} ${shown(q.krippendorff.ordinal).padStart(9)} ` +
        `${shown(q.cohen_mean['human-human']?.unweighted ?? null).padStart(8)}\n`;
    }
  }
  const notes = [...summary.notes, ...(summary.binary?.notes.map((n) => `binary: ${n}`) ?? [])];
  if (notes.length > 0) text += `\nnotes:\n${notes.map((n) => `  - ${n}\n`).join('')}`;
  return text;
}

export const agreeCommand: CliCommand = {
  name: 'agree',
  summary:
    "inter-annotator agreement of a study or a label file: percent, Krippendorff's α, Fleiss' κ, pairwise Cohen's κ",
  usage:
    'qrels-studio agree LABELS [--name STUDY] [--threshold T] [--bootstrap N] [--seed S] [--include-llm] [--per-query]\n' +
    '  [--json]\n' +
    '  LABELS: a study file (*.assess) or a label file (CSV/TSV with a header, or JSONL) with query_id, doc_id,\n' +
    '  annotator, label (rows whose source is "adjudicated" are left out)',
  details: [
    'Conventions:',
    "  - Percent agreement, α and Fleiss' κ are over the people: LLM judges (annotators named llm:…) and the units",
    '    only they labelled are left out, so a judge moves neither these values nor their intervals; --include-llm',
    "    counts the judges too. Cohen's κ is given for every pair, judges included.",
    '  - Percent agreement is pooled over pairs of labels: equal pairs / all pairs of labels a unit got, over the',
    '    units with two labels or more (a unit with more labels weighs more); it is not a mean of per-unit',
    "    agreement. A pair's percent is the share of their shared units they labelled alike.",
    "  - Weighted κ (linear, quadratic) weighs by distance between category positions: on the study's scale when",
    '    there is one (a study file); else (a label file) on the sorted labels the pair itself gave on the units',
    "    both labelled, as scikit-learn's cohen_kappa_score does, so other annotators' labels never move a pair's",
    '    weights.',
    '  - --bootstrap N resamples the units N times (with replacement, seed 1 unless --seed) for 95 % percentile',
    '    intervals. A resample on which a statistic is undefined (a single category, no shared unit) is left out of',
    "    that statistic's interval and the notes say how many were; with fewer than half defined there is no",
    '    interval.',
    "  - A study's `agreement … target T` is met only when the interval's lower bound reaches T; otherwise it is",
    '    "not yet", with the number of units and the interval (1000 resamples unless --bootstrap says otherwise).',
  ]
    .map((line) => `${line}\n`)
    .join(''),
  async run(args, context) {
    let input: string | undefined;
    let name: string | undefined;
    let threshold: number | undefined;
    let bootstrap = 0;
    let seed = 1;
    let includeLlm = false;
    let json = false;
    let perQuery = false;
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!;
      if (arg === '--threshold') {
        const text = optionValue(args, i++, 'a label');
        threshold = Number(text);
        if (text.trim() === '' || !Number.isFinite(threshold)) {
          throw new UsageError(`--threshold expects a number (relevant = label ≥ it), found '${text}'`);
        }
      } else if (arg === '--bootstrap')
        bootstrap = wholeNumber(optionValue(args, i++, 'a sample count'), arg, 0, 100_000);
      else if (arg === '--seed') seed = wholeNumber(optionValue(args, i++, 'a seed'), arg, 0, 2 ** 32 - 1);
      else if (arg === '--include-llm') includeLlm = true;
      else if (arg === '--json') json = true;
      else if (arg === '--per-query') perQuery = true;
      else if (arg === '--name') name = optionValue(args, i++, 'a study name');
      else if (arg.startsWith('-') && arg !== '-') throw new UsageError(`unknown option '${arg}'`);
      else if (input === undefined) input = arg;
      else throw new UsageError(`unexpected argument '${arg}'`);
    }
    if (input === undefined) throw new UsageError('no labels: give a study file (*.assess) or a label file');
    let data: ReliabilityData;
    let labels: number;
    let declared: DeclaredTarget[] = [];
    if (input.endsWith('.assess')) {
      const { study, store } = await openStudyDatabase(input, name, context);
      declared = study.agreement.flatMap((a) =>
        a.target === undefined
          ? []
          : [{ metric: a.metric, level: a.level ?? agreementStatistic(a.metric).levels[0]!, target: a.target }],
      );
      try {
        const read = await readStudyLabels(
          store,
          await store.studies.studyId(study.name),
          study.scale?.entries.map((e) => e.value),
        );
        data = read.data;
        labels = read.times.length;
      } finally {
        await store.close();
      }
    } else {
      if (name !== undefined) throw new UsageError('--name chooses a study of a study file; a label file has none');
      const read = await readLabelFile(resolve(context.cwd, input), { name: input });
      data = read.data;
      labels = read.labels;
    }
    const summary = summariseAgreement(data, {
      ...(threshold !== undefined && { threshold }),
      bootstrap,
      seed,
      includeLlm,
      perQuery,
    });
    // A verdict needs an interval: the targets take --bootstrap's samples, else as many as the Agreement view.
    const settings = { ...defaultBootstrap, seed, ...(bootstrap > 0 && { samples: bootstrap }) };
    const targets = declared.map((t) => judgeTarget(data, t, { includeLlm, bootstrap: settings }));
    context.stdout(
      json
        ? `${JSON.stringify(targets.length > 0 ? { ...summary, targets } : summary, null, 2)}\n`
        : reportText(input, summary, labels, targetsText(targets, settings)),
    );
    return 0;
  },
};
