// How each LLM judge of a study does against the people (`qrels-studio judges`, the Agreement view's Judges
// section): the people's labels are the adjudicated label, else the people's majority (the
// `adjudicated-else-majority` label source, what `export … from adjudicated` writes); a judge's are what
// `export --from llm:NAME` writes (labelSources.ts judgeLabels). Everything is read through the storage port.
import { resolve } from 'node:path';
import { defaultBootstrap } from '../../agreement/bootstrap.ts';
import type { StudyModel } from '../../dsl/model.ts';
import { scaleGains } from '../../metrics/scaleGains.ts';
import { findLabelSource, judgeLabels, knownAnnotators } from '../../store/labelSources.ts';
import type { PairLabel } from '../../store/port/agreementPort.ts';
import type { StudyStore } from '../../store/studyStore.ts';
import { calibrationError, defaultCalibrationBins } from './calibrationError.ts';
import { confusionAccuracy, judgeConfusion, sharedLabels } from './confusionMatrix.ts';
import { checkHumanElseLlmGate, judgeGate, judgeModelOf } from './judgeGate.ts';
import { judgeKappa } from './judgeKappa.ts';
import type {
  JudgeCost,
  JudgeQuality,
  JudgeQualityOptions,
  JudgeQualityReport,
  JudgeRankings,
} from './judgeQualityTypes.ts';
import { defaultRankingMeasure, RankingMeasureError, type RunToRank, systemRankings } from './systemRankings.ts';

export type { JudgeQuality, JudgeQualityOptions, JudgeQualityReport } from './judgeQualityTypes.ts';
export { RankingMeasureError } from './systemRankings.ts';

/** The label source the people's labels come from. */
export const peopleLabelSource = 'adjudicated-else-majority';

/** The options with their defaults: the measure from `--measure`, else the study's first `measures`, else map. */
export function judgeQualityOptions(study: StudyModel, given: Partial<JudgeQualityOptions> = {}): JudgeQualityOptions {
  return {
    measure: given.measure ?? study.measures?.[0] ?? defaultRankingMeasure,
    pairs: given.pairs ?? 'people',
    tauAp: given.tauAp ?? 'asymmetric',
    calibrationBins: given.calibrationBins ?? defaultCalibrationBins,
    bootstrap: given.bootstrap ?? { ...defaultBootstrap },
  };
}

/** The pooled runs of the study (each file once), as the Evaluate view evaluates them. */
function studyRuns(study: StudyModel, studyFolder: string): RunToRank[] {
  const seen = new Set<string>();
  const runs: RunToRank[] = [];
  for (const pool of study.pools) {
    const file = pool.absolutePath ?? resolve(studyFolder, pool.path);
    if (seen.has(file)) continue;
    seen.add(file);
    runs.push({ run: pool.path, file });
  }
  return runs;
}

/** The report for every LLM label source of the study (judges it ran, LLM labels imported `kind llm`), by name. */
export async function computeJudgeQualityReport(
  store: StudyStore,
  studyId: number,
  study: StudyModel,
  studyFolder: string,
  given: Partial<JudgeQualityOptions> = {},
): Promise<JudgeQualityReport> {
  const options = judgeQualityOptions(study, given);
  const { source, argument } = findLabelSource(peopleLabelSource);
  const people = await source.labels(store, studyId, argument);
  const runs = studyRuns(study, studyFolder);
  const judges: JudgeQuality[] = [];
  for (const judge of await knownAnnotators(store, studyId, 'llm')) {
    judges.push(await judgeQuality(store, studyId, study, judge, people, runs, options, given.measure !== undefined));
  }
  return {
    study: study.name,
    peopleSource: peopleLabelSource,
    peoplePairs: people.length,
    options,
    judges,
    gatePassed: judges.every((j) => j.gate.passed),
  };
}

/** The model of a judge's annotator name (llm:<model>@<prompt hash 8>, or llm:<model>). */
export function judgeModelName(judge: string): string {
  return judge.replace(/^llm:/, '').replace(/@[0-9a-f]{8}$/, '');
}

/**
 * Why a judge whose calls carry no cost has no cost per 1,000 pairs: a call is priced when it is recorded, from the
 * prices the run was given (the product ships none), so "no price" is not "free" and is not shown as $0.
 */
function noPriceReason(judge: string, calls: number): string {
  const model = judgeModelName(judge);
  return (
    `no price for ${model}: ${calls === 1 ? 'its call was' : `none of its ${calls} calls was`} recorded with a ` +
    `cost (judge with --price ${model}=INPUT,OUTPUT in USD per million tokens, and an endpoint that reports tokens)`
  );
}

async function judgeQuality(
  store: StudyStore,
  studyId: number,
  study: StudyModel,
  judge: string,
  people: readonly PairLabel[],
  runs: readonly RunToRank[],
  options: JudgeQualityOptions,
  measureGiven: boolean,
): Promise<JudgeQuality> {
  const labels = await judgeLabels(store, studyId, judge);
  const shared = sharedLabels(people, labels);
  const confusion = judgeConfusion(shared, study.scale?.entries.map((e) => e.value) ?? []);
  const accuracy = confusionAccuracy(confusion);
  const noShared = 'no pair both the judge and the people labelled';
  const suggestions = await store.judge.suggestionConfidences(studyId, judge);
  const confidence = new Map(suggestions.map((s) => [`${s.qid}\u0000${s.docid}`, s]));
  const calibration = calibrationError(
    shared.map((s) => {
      const suggestion = confidence.get(`${s.qid}\u0000${s.docid}`);
      // A confidence is the share of votes for the suggestion's label: it speaks for the judge's label only if the
      // two are the same (an imported judgment of the judge's replaces its suggestion).
      const usable = suggestion !== undefined && suggestion.label === s.judge ? suggestion.confidence : null;
      return { confidence: usable, correct: s.people === s.judge };
    }),
    options.calibrationBins,
  );
  const totals = await store.judge.callTotals(studyId, judge);
  const cost: JudgeCost = {
    ...totals,
    pairsLabelled: labels.length,
    costPer1000Pairs:
      totals.calls === 0
        ? { value: null, reason: 'no call of this judge is on record (its labels were imported)' }
        : totals.pricedCalls === 0
          ? { value: null, reason: noPriceReason(judge, totals.calls) }
          : suggestions.length === 0
            ? { value: null, reason: 'the judge has no suggestion on record' }
            : { value: (totals.cost / suggestions.length) * 1000 },
  };
  let rankings: JudgeRankings | null = null;
  let rankingsReason: string | undefined;
  if (runs.length === 0) rankingsReason = `study '${study.name}' pools no run to rank`;
  else if (people.length === 0)
    rankingsReason = 'the people have labelled no pair: there is no ranking to compare with';
  else {
    try {
      rankings = await systemRankings({
        people,
        judge: labels,
        runs,
        measure: options.measure,
        pairs: options.pairs,
        tauAp: options.tauAp,
        ...(scaleGains(study.scale) && { gains: scaleGains(study.scale)! }),
      });
    } catch (error) {
      // A --measure the user typed is their error to see; the study's own `measures` may name one no ranking uses.
      if (!(error instanceof RankingMeasureError) || measureGiven) throw error;
      rankingsReason = error.message.replace(/^--measure/, "the study's first measure");
    }
  }
  const quality = {
    judge,
    sharedPairs: shared.length,
    confusion,
    kappa: judgeKappa(confusion, options.bootstrap),
    accuracy: accuracy === null ? { value: null, reason: noShared } : { value: accuracy },
    calibration,
    cost,
    rankings,
    ...(rankingsReason !== undefined && { rankingsReason }),
  };
  return { ...quality, gate: judgeGate(quality, judgeModelOf(study, judge)?.accept) };
}

/**
 * Before a `from human-else-llm` export: refuses (JudgeGateRefusal) when an LLM label source whose judge block
 * declares `accept when …` does not pass it — no people's labels to check it against included — unless `accepted`
 * names it (`--accept-judge NAME`). A study that declares no gate exports as before, and nothing is computed.
 */
export async function checkHumanElseLlmExport(
  store: StudyStore,
  studyId: number,
  study: StudyModel,
  studyFolder: string,
  accepted: readonly string[] = [],
): Promise<void> {
  if (!study.judges.some((j) => (j.accept?.length ?? 0) > 0)) return;
  const report = await computeJudgeQualityReport(store, studyId, study, studyFolder);
  checkHumanElseLlmGate(report.judges, accepted);
}
