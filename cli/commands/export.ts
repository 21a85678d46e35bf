// `qrels-studio export STUDY`: what leaves the database — a qrels file from one label source (--qrels OUT --from
// SOURCE), every judgment with its provenance (--jsonl OUT), the long-format label file others merge with
// `import --labels` (--labels OUT), and the condition and aspect answers behind each current label (--answers OUT, a
// JSONL sidecar of a qrels file; --with-answers adds them to --jsonl and --labels). Files are written whole or not
// at all.
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { targetVerdictText } from '../../core/agreement/agreementTarget.ts';
import { JudgeGateRefusal } from '../../core/judge/quality/judgeGate.ts';
import { checkHumanElseLlmExport } from '../../core/judge/quality/judgeQualityReport.ts';
import { importReviewItems } from '../../core/review/reviewSession.ts';
import { exportReviewed, reviewOutcomes, reviewSummary } from '../../core/review/reviewSummary.ts';
import { labelSources } from '../../core/store/labelSources.ts';
import { labelSourceOfExport, qrelsUnitOfExport } from '../../core/store/qrelsExportSource.ts';
import { type ChunkRollup, chunkRollups, type QrelsUnit } from '../../core/store/qrelsUnits.ts';
import {
  exportAnswers,
  exportJudgmentsJsonl,
  exportLabels,
  exportLabelsWithAnswers,
  exportQrels,
} from '../../core/store/studyExports.ts';
import { type CliCommand, type CliContext, InputError, UsageError } from '../cliContext.ts';
import { namesReview, openReviewDatabase, openStudyDatabase, optionValue } from '../studyDatabaseCommand.ts';
import { shown } from './agree.ts';

const sources = labelSources.map((s) => (s.takesArgument ? `${s.id}${s.argumentName ?? 'NAME'}` : s.id)).join('|');
/** What `--per` takes: each labelled pair as it is, chunk labels rolled up to documents, document labels to chunks. */
const qrelsUnits: readonly QrelsUnit['per'][] = ['pair', 'document', 'chunk'];

export const exportCommand: CliCommand = {
  name: 'export',
  summary: 'write qrels from a label source, every judgment with provenance (JSONL), or the long-format label file',
  usage:
    `qrels-studio export STUDY.assess [--name STUDY] [--qrels OUT --from ${sources}\n` +
    `         [--per ${qrelsUnits.join('|')} [--rollup ${chunkRollups.join('|')}]]]... [--jsonl OUT] [--labels OUT]\n` +
    '         [--answers OUT] [--with-answers] [--accept-judge NAME]...\n' +
    '       qrels-studio export REVIEW.assess [--name REVIEW] [--review OUT] [--summary [--json]]\n' +
    "  (with no output named, the study's declared `export qrels`/`export labels` files, a review's `export verdicts`)\n" +
    '  from human-else-llm: a judge whose block says `accept when …` fills the pairs no person labelled only if it\n' +
    '  passes that gate (qrels-studio judges shows it); --accept-judge NAME takes it anyway',
  async run(args, context) {
    let studyArg: string | undefined;
    let name: string | undefined;
    const outputs: { kind: 'qrels' | 'jsonl' | 'labels' | 'answers'; file: string }[] = [];
    const froms: string[] = [];
    const pers: QrelsUnit['per'][] = [];
    const rollups: ChunkRollup[] = [];
    let reviewOut: string | undefined;
    let summary = false;
    let json = false;
    let withAnswers = false;
    const acceptedJudges: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!;
      if (arg === '--review') {
        reviewOut = optionValue(args, i++, 'an output file');
        continue;
      }
      if (arg === '--with-answers') {
        withAnswers = true;
        continue;
      }
      if (arg === '--accept-judge') {
        acceptedJudges.push(optionValue(args, i++, 'a judge (llm:MODEL@HASH, or MODEL)'));
        continue;
      }
      if (arg === '--summary' || arg === '--json') {
        if (arg === '--summary') summary = true;
        else json = true;
        continue;
      }
      if (arg === '--qrels' || arg === '--jsonl' || arg === '--labels' || arg === '--answers') {
        outputs.push({
          kind: arg.slice(2) as 'qrels' | 'jsonl' | 'labels' | 'answers',
          file: optionValue(args, i++, 'an output file'),
        });
      } else if (arg === '--from') froms.push(optionValue(args, i++, `a label source (${sources})`));
      else if (arg === '--per') pers.push(oneOf(qrelsUnits, optionValue(args, i++, 'a unit'), '--per'));
      else if (arg === '--rollup') rollups.push(oneOf(chunkRollups, optionValue(args, i++, 'a rule'), '--rollup'));
      else if (arg === '--name') name = optionValue(args, i++, 'a study name');
      else if (arg.startsWith('-')) throw new UsageError(`unknown option '${arg}'`);
      else if (studyArg === undefined) studyArg = arg;
      else throw new UsageError(`unexpected argument '${arg}'`);
    }
    if (studyArg === undefined) throw new UsageError('no study file');
    if (reviewOut !== undefined || summary) {
      if (outputs.length > 0)
        throw new UsageError('--review/--summary export a review block; --qrels, --jsonl, --labels, --answers a study');
      return exportReview(studyArg, name, { reviewOut, summary, json }, context);
    }
    if (outputs.length === 0 && (await namesReview(studyArg, name, context))) {
      return exportReview(studyArg, name, { reviewOut: undefined, summary: false, json }, context);
    }
    if (withAnswers && !outputs.some((o) => o.kind === 'jsonl' || o.kind === 'labels')) {
      throw new UsageError('--with-answers adds the condition and aspect answers to --jsonl and --labels outputs');
    }
    if (outputs.length === 0) return exportDeclared(studyArg, name, context, acceptedJudges);
    // One --from serves every --qrels; several pair with the --qrels outputs in order (`--qrels a --from majority
    // --qrels b --from adjudicated`).
    const qrelsOutputs = outputs.filter((o) => o.kind === 'qrels');
    if (qrelsOutputs.length > 0 && froms.length === 0) {
      throw new UsageError(`--qrels needs --from SOURCE (${sources})`);
    }
    if (froms.length > 1 && froms.length !== qrelsOutputs.length) {
      throw new UsageError(
        `${froms.length} --from options for ${qrelsOutputs.length} --qrels outputs: give one --from for all, or one per --qrels`,
      );
    }
    const fromOf = (output: (typeof outputs)[number]) =>
      froms[Math.min(qrelsOutputs.indexOf(output), froms.length - 1)]!;
    // --per and --rollup pair with the --qrels outputs as --from does; --rollup says how chunks make a document.
    for (const [option, given] of [
      ['--per', pers],
      ['--rollup', rollups],
    ] as const) {
      if (given.length > 0 && qrelsOutputs.length === 0) throw new UsageError(`${option} applies to --qrels outputs`);
      if (given.length > 1 && given.length !== qrelsOutputs.length) {
        throw new UsageError(
          `${given.length} ${option} options for ${qrelsOutputs.length} --qrels outputs: give one ${option} for all, or one per --qrels`,
        );
      }
    }
    if (rollups.length > 0 && !pers.includes('document')) {
      throw new UsageError('--rollup says how chunk labels make a document label: it needs --per document');
    }
    const unitOf = (output: (typeof outputs)[number]): QrelsUnit => {
      const index = qrelsOutputs.indexOf(output);
      const per = pers.length === 0 ? 'pair' : pers[Math.min(index, pers.length - 1)]!;
      if (per !== 'document') return { per };
      return { per, rollup: rollups.length === 0 ? 'max' : rollups[Math.min(index, rollups.length - 1)]! };
    };
    const { study, store, folder } = await openStudyDatabase(studyArg, name, context);
    try {
      const studyId = await store.studies.studyId(study.name);
      if (qrelsOutputs.some((o) => fromOf(o) === 'human-else-llm')) {
        await checkJudgeGate(store, studyId, study, folder, acceptedJudges);
      }
      // A graded aspect's answer is its level; a yes/no aspect's, true or false.
      const graded = new Set(study.aspects.filter((a) => a.levels !== undefined).map((a) => a.name));
      for (const output of outputs) {
        const file = resolve(context.cwd, output.file);
        if (output.kind === 'qrels') {
          const from = fromOf(output);
          const unit = unitOf(output);
          const lines = await exportQrels(store, studyId, from, file, unit);
          context.stdout(`${output.file}: ${lines} judgments (${from}${unitText(unit)})\n`);
        } else if (output.kind === 'jsonl') {
          const lines = await exportJudgmentsJsonl(store, studyId, file, withAnswers ? graded : undefined);
          const answers = withAnswers ? ' and their answers' : '';
          context.stdout(`${output.file}: ${lines} judgments with provenance${answers}\n`);
        } else if (output.kind === 'answers') {
          const lines = await exportAnswers(store, studyId, file, graded);
          context.stdout(`${output.file}: ${lines} labels with their condition and aspect answers\n`);
        } else if (withAnswers) {
          const lines = await exportLabelsWithAnswers(store, studyId, file, graded);
          context.stdout(`${output.file}: ${lines} judgments (label file, with their answers)\n`);
        } else {
          context.stdout(`${output.file}: ${await exportLabels(store, studyId, file)} judgments (label file)\n`);
        }
      }
      return 0;
    } finally {
      await store.close();
    }
  },
};

/**
 * With no output named: the study's own `export qrels "…" from X` and `export labels "…"` files, each from the
 * label source its declaration names (qrelsExportSource.ts, as the extension's export), folders made as needed.
 */
async function exportDeclared(
  studyArg: string,
  name: string | undefined,
  context: CliContext,
  acceptedJudges: readonly string[],
): Promise<number> {
  const { study, store, folder } = await openStudyDatabase(studyArg, name, context);
  try {
    const declared = study.exports.filter((e) => e.what === 'qrels' || e.what === 'labels');
    if (declared.length === 0) {
      throw new UsageError(
        `nothing to export: study '${study.name}' declares no \`export qrels "FILE"\` or \`export labels "FILE"\`; ` +
          'give --qrels OUT, --jsonl OUT or --labels OUT',
      );
    }
    // Every declaration's label source is checked before any file is written.
    const targets = declared.map((e) => ({
      what: e.what,
      shown: e.path,
      path: e.absolutePath ?? resolve(folder, e.path),
      source: e.what === 'qrels' ? labelSourceOfExport(study, e) : undefined,
      unit: qrelsUnitOfExport(e),
    }));
    const studyId = await store.studies.studyId(study.name);
    if (targets.some((t) => t.source === 'human-else-llm')) {
      await checkJudgeGate(store, studyId, study, folder, acceptedJudges);
    }
    for (const target of targets) {
      createFolderOf(target);
      if (target.source !== undefined) {
        const lines = await exportQrels(store, studyId, target.source, target.path, target.unit);
        context.stdout(`${target.shown}: ${lines} judgments (${target.source}${unitText(target.unit)})\n`);
      } else {
        const lines = await exportLabels(store, studyId, target.path);
        context.stdout(`${target.shown}: ${lines} judgments (label file)\n`);
      }
    }
    return 0;
  } finally {
    await store.close();
  }
}

/** The study's judge gate before a `from human-else-llm` export (core/judge/quality/judgeGate.ts): a refusal is
 * the user's to read, not a crash. */
async function checkJudgeGate(...args: Parameters<typeof checkHumanElseLlmExport>): Promise<void> {
  try {
    await checkHumanElseLlmExport(...args);
  } catch (error) {
    if (error instanceof JudgeGateRefusal) throw new InputError(error.message);
    throw error;
  }
}

function oneOf<T extends string>(allowed: readonly T[], value: string, option: string): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`${option} takes ${allowed.join(', ')}, not '${value}'`);
  }
  return value as T;
}

/** How a qrels output's unit is shown after its line count. */
function unitText(unit: QrelsUnit): string {
  if (unit.per === 'document') return `, per document by ${unit.rollup}`;
  if (unit.per === 'chunk') return ', per chunk from document labels';
  return '';
}

/** A declared export's folder, made if missing: a file where a folder should be is a clear error, not a crash. */
function createFolderOf(target: { shown: string; path: string }): void {
  try {
    mkdirSync(dirname(target.path), { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'EEXIST' || code === 'ENOTDIR'
        ? 'a file stands where its folder should be'
        : code === 'EACCES'
          ? 'permission denied'
          : (error as Error).message;
    throw new InputError(`cannot write ${target.shown}: ${reason}`);
  }
}

async function exportReview(
  studyArg: string,
  name: string | undefined,
  options: { reviewOut: string | undefined; summary: boolean; json: boolean },
  context: CliContext,
): Promise<number> {
  const { review, store, folder } = await openReviewDatabase(studyArg, name, context);
  try {
    // The file named, else (no output named at all) the review's own `export verdicts` files.
    const targets =
      options.reviewOut !== undefined
        ? [{ shown: options.reviewOut, path: resolve(context.cwd, options.reviewOut) }]
        : options.summary
          ? []
          : review.exports
              .filter((e) => e.what === 'verdicts')
              .map((e) => ({ shown: e.path, path: e.absolutePath ?? resolve(folder, e.path) }));
    if (options.reviewOut === undefined && !options.summary && targets.length === 0) {
      throw new UsageError(
        `nothing to export: review '${review.name}' declares no \`export verdicts "FILE"\`; give --review OUT or --summary`,
      );
    }
    await importReviewItems(store, review, folder);
    for (const target of targets) {
      if (options.reviewOut === undefined) createFolderOf(target);
      const count = await exportReviewed(store, review, target.path);
      context.stdout(`${target.shown}: ${count} accepted items (the accepted text, versions, verdict history)\n`);
    }
    if (targets.length > 0) {
      // Items only the critic judged are not decided, so not written: say what it said of them.
      const criticOnly = new Map<string, number>();
      for (const o of await reviewOutcomes(store, review)) {
        if (o.final === 'unreviewed' && o.critic)
          criticOnly.set(o.critic.verdict, (criticOnly.get(o.critic.verdict) ?? 0) + 1);
      }
      if (criticOnly.size > 0) {
        const counts = [...criticOnly].map(([verdict, n]) => `${verdict} ${n}`).join(', ');
        context.stdout(
          `  not written: items only the critic has judged (critic ${counts}); a person's verdict decides\n`,
        );
      }
    }
    if (options.summary) {
      const result = await reviewSummary(store, review);
      if (options.json) context.stdout(`${JSON.stringify(result, null, 2)}\n`);
      else {
        let text = `review '${result.review}': ${result.items} items\n`;
        for (const { type, counts } of result.types) {
          text += `  ${type.padEnd(10)} ${Object.entries(counts)
            .map(([v, n]) => `${v} ${n}`)
            .join(', ')}\n`;
        }
        const a = result.agreement;
        text += `reviewer agreement on verdicts: ${a.n_units} items, ${a.n_annotators} reviewers, percent ${shown(a.percent_agreement)}, α ${shown(a.krippendorff.nominal)}\n`;
        if (a.target) {
          const { statistic, value, verdict, note } = a.target;
          text += `  ${statistic} ${shown(value)}, ${targetVerdictText(verdict, shown)}\n`;
          if (note !== undefined) text += `  - ${note}\n`;
        }
        for (const note of a.notes) text += `  - ${note}\n`;
        text += `an item is decided by ${result.required} reviewer(s) agreeing on its current text, or by the adjudicator\n`;
        context.stdout(text);
      }
    }
    return 0;
  } finally {
    await store.close();
  }
}
