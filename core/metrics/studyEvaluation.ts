// What the Evaluate view shows for a study: every pooled run evaluated as trec_eval evaluates it (-c: a query the
// labels have and a run lacks counts as 0) against the study's labels from one label source, per query and over all
// queries (nDCG with the gains the study's scale declares, if any); the queries' instruction types and subsets for breakdowns; and, for two runs, paired tests per measure
// with the per-query differences. Plain data (the webview protocol carries it); no `vscode`.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { StudyModel } from '../dsl/model.ts';
import { displayQueryId } from '../formats/queryIdCache.ts';
import { readQrels } from '../formats/trecQrels.ts';
import { findLabelSource, labelSources } from '../store/labelSources.ts';
import { exportQrels } from '../store/studyExports.ts';
import type { StudyStore } from '../store/studyStore.ts';
import { evaluateRunFile } from './evaluate.ts';
import type { EvaluatedRun, EvaluateReport, RunComparison } from './evaluationTypes.ts';
import { evaluateInstructions } from './instruction/evaluateInstructions.ts';
import { type InstructionInfo, readScoredRun } from './instruction/instructionInputs.ts';
import { defaultInstructionOptions } from './instruction/instructionMeasure.ts';
import { irs } from './instruction/irs.ts';
import { pMrr } from './instruction/pMrr.ts';
import { selectMeasures } from './measureSelection.ts';
import { evaluateNamedMeasures, withNamedValues } from './namedMeasureEvaluation.ts';
import { splitNamedMeasureSpecs } from './namedMeasures.ts';
import { scaleGains } from './scaleGains.ts';
import { pairedTests } from './significance.ts';

/**
 * The measures the view shows when the study names none (`measures …`): trec_eval names; the values are named as
 * trec_eval prints them.
 */
export const evaluateViewMeasures = ['map', 'ndcg_cut.10', 'P.10', 'recall.100', 'recip_rank'];

export type { EvaluatedRun, EvaluateReport, RunComparison } from './evaluationTypes.ts';

/** The label sources a study can be evaluated against: the fixed ones and one per annotator and judge. */
export async function studyLabelSources(store: StudyStore, studyId: number): Promise<string[]> {
  const names = await store.agreement.labelGivers(studyId);
  const fixed = labelSources.filter((s) => !s.takesArgument).map((s) => s.id);
  return [...fixed, ...names.map((n) => (n.kind === 'llm' ? n.name : `annotator:${n.name}`))];
}

/** Every pooled run of `study` evaluated against its labels from `from`. */
export async function evaluateStudyRuns(
  store: StudyStore,
  studyId: number,
  study: StudyModel,
  studyFolder: string,
  from: string,
  baseline?: string,
): Promise<EvaluateReport> {
  findLabelSource(from); // an unknown source is an error before anything is written
  const folder = await mkdtemp(join(tmpdir(), 'qrels-studio-evaluate-'));
  try {
    const qrelsFile = join(folder, 'labels.qrels');
    const labels = await exportQrels(store, studyId, from, qrelsFile);
    const runs: EvaluatedRun[] = [];
    // The study's own measures (checked by the language server: unknown-measure), trec_eval's then the named ones
    // (err@20, rbp@0.8 with rbp_residual@0.8), each computed as its tool computes it.
    const named = splitNamedMeasureSpecs(study.measures ?? evaluateViewMeasures);
    const { measures } = selectMeasures(['runid', ...named.rest]);
    const gains = scaleGains(study.scale);
    let names: string[] = [];
    if (labels > 0) {
      const qrels = await readQrels(qrelsFile);
      for (const pool of study.pools) {
        const runFile = pool.absolutePath ?? resolve(studyFolder, pool.path);
        const trecEvaluation = await evaluateRunFile(qrels, runFile, {
          measures,
          relevanceLevel: 1,
          maxRetrieved: Number.POSITIVE_INFINITY,
          complete: true,
          ...(gains && { gains }),
        });
        // -c as for trec_eval's: a labelled query the run does not answer counts as 0 in each tool's mean.
        const evaluation =
          named.named.length > 0
            ? withNamedValues(
                trecEvaluation,
                named.named,
                await evaluateNamedMeasures({ qrels: qrelsFile, run: runFile, complete: true }, named.named),
              )
            : trecEvaluation;
        names = evaluation.all.map((v) => v.name);
        const perQuery: EvaluatedRun['perQuery'] = {};
        for (const q of evaluation.queries) {
          perQuery[displayQueryId(q.qid)] = Object.fromEntries(q.values.map((v) => [v.name, v.value]));
        }
        runs.push({
          run: pool.path,
          runid: displayQueryId(evaluation.runid),
          all: Object.fromEntries(evaluation.all.map((v) => [v.name, v.value])),
          perQuery,
        });
      }
    }
    const evaluated = new Set(runs.flatMap((r) => Object.keys(r.perQuery)));
    const rows = await store.agreement.evaluationQueries(studyId);
    const known = new Map(rows.map((r) => [r.qid, r]));
    const queries = [...evaluated].sort().map((qid) => {
      const row = known.get(qid);
      let subset: unknown;
      try {
        subset = row?.metadata ? (JSON.parse(row.metadata) as Record<string, unknown>).subset : undefined;
      } catch {
        subset = undefined;
      }
      return {
        qid,
        ...(row?.type != null && { type: row.type }),
        ...(typeof subset === 'string' && { subset }),
      };
    });
    const shownMeasures = names.filter((n) => n !== 'num_q');
    let instructionError: string | undefined;
    if (baseline !== undefined && runs.length > 0) {
      try {
        await addInstructionMeasures(store, studyId, study, studyFolder, from, baseline, runs);
        shownMeasures.push(irs.name, pMrr.name);
      } catch (error) {
        instructionError = error instanceof Error ? error.message : String(error);
      }
    }
    return {
      study: study.name,
      from,
      sources: await studyLabelSources(store, studyId),
      labels,
      ...(gains && { gains: Object.fromEntries(gains) }),
      measures: shownMeasures,
      ...(baseline !== undefined && { baseline }),
      ...(instructionError !== undefined && { instructionError }),
      runs,
      queries,
    };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/**
 * IRS and p-MRR of every run but the baseline against the baseline (a pooled run of the study keyed by query id),
 * the labels read as FollowTable's three-way ones (2 compliant, 1 violating), each query's instruction type and
 * subset from the study's queries; a query id `{q}_{i}` has the baseline's query `q`, any other id its own.
 */
async function addInstructionMeasures(
  store: StudyStore,
  studyId: number,
  study: StudyModel,
  studyFolder: string,
  from: string,
  baseline: string,
  runs: EvaluatedRun[],
): Promise<void> {
  const pool = study.pools.find((p) => p.path === baseline);
  if (!pool) throw new Error(`'${baseline}' is not a pooled run of study '${study.name}'`);
  const baselineRun = await readScoredRun(pool.absolutePath ?? resolve(studyFolder, pool.path));
  const { source, argument } = findLabelSource(from);
  const qrels = new Map<string, Map<string, number>>();
  for (const l of await source.labels(store, studyId, argument)) {
    if (!qrels.has(l.qid)) qrels.set(l.qid, new Map());
    qrels.get(l.qid)!.set(l.docid, l.label);
  }
  const rows = await store.agreement.evaluationQueries(studyId);
  const types = new Map(rows.map((r) => [r.qid, r.type]));
  const instructions = new Map<string, InstructionInfo>();
  for (const qid of qrels.keys()) {
    const cut = qid.lastIndexOf('_');
    const queryId = cut > 0 && baselineRun.has(qid.slice(0, cut)) ? qid.slice(0, cut) : qid;
    const type = types.get(qid);
    instructions.set(qid, { queryId, ...(type != null && { type }) });
  }
  for (const run of runs) {
    if (run.run === baseline) continue;
    const pooled = study.pools.find((p) => p.path === run.run)!;
    const evaluation = evaluateInstructions(
      {
        run: await readScoredRun(pooled.absolutePath ?? resolve(studyFolder, pooled.path)),
        baseline: baselineRun,
        qrels,
        instructions,
        files: { baseline, instructions: "the study's queries", run: run.run },
        // As the trec_eval measures here (-c): a query the run does not rank is an empty ranking.
        complete: true,
      },
      [irs, pMrr],
      defaultInstructionOptions,
    );
    for (const name of [irs.name, pMrr.name]) {
      const average = evaluation.all[name]!.value;
      if (average !== null) run.all[name] = average;
    }
    for (const c of evaluation.cases) {
      for (const name of [irs.name, pMrr.name]) {
        const value = c.values[name];
        if (value == null) continue;
        const values = run.perQuery[c.id] ?? {};
        values[name] = value;
        run.perQuery[c.id] = values;
      }
    }
  }
}

/** Paired tests of run `b` against run `a` (by their file names in `report`), per measure. */
export function compareStudyRuns(
  report: EvaluateReport,
  a: string,
  b: string,
  options: { seed?: number; samples?: number } = {},
): RunComparison {
  const left = report.runs.find((r) => r.run === a);
  const right = report.runs.find((r) => r.run === b);
  if (!left || !right)
    throw new Error(`no evaluated run '${!left ? a : b}' (runs: ${report.runs.map((r) => r.run).join(', ')})`);
  const tests: RunComparison['tests'] = {};
  const deltas: RunComparison['deltas'] = {};
  for (const measure of report.measures) {
    // Queries where both runs have the measure (irs and p_mrr are undefined for some; trec_eval's never are, -c).
    const rows = report.queries
      .map(({ qid }) => ({ qid, a: left.perQuery[qid]?.[measure], b: right.perQuery[qid]?.[measure] }))
      .filter((row): row is { qid: string; a: number; b: number } => row.a !== undefined && row.b !== undefined)
      .map((row) => ({ ...row, delta: row.b - row.a }));
    tests[measure] = pairedTests(
      rows.map((r) => r.a),
      rows.map((r) => r.b),
      options,
    );
    deltas[measure] = rows.sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta) || (x.qid < y.qid ? -1 : 1));
  }
  return { a, b, tests, deltas };
}
