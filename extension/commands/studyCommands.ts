// The study commands (palette category "Qrels Studio", the Studies view's menus, the status bar): open / label next,
// switch annotator, import, pool, export qrels, evaluate, show agreement, run the judge. Each takes a study from the
// view or the status bar, a study file from the explorer, else where the user is (the study of the active Label,
// Agreement or Evaluate view, or of the active study file), and only else asks with a pick over the workspace's
// studies that have no errors (none when there is only one). The work itself is core's: declared imports, label sources, qrels export, trec_eval's measures.
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import * as vscode from 'vscode';
import type { StudyModel } from '../../core/dsl/index.ts';
import { JudgeGateRefusal } from '../../core/judge/quality/judgeGate.ts';
import { checkHumanElseLlmExport } from '../../core/judge/quality/judgeQualityReport.ts';
import { findLabelSource } from '../../core/store/labelSources.ts';
import { labelSourceOfExport, qrelsUnitOfExport, studyQrelsSource } from '../../core/store/qrelsExportSource.ts';
import type { QrelsUnit } from '../../core/store/qrelsUnits.ts';
import { StoreError } from '../../core/store/studyDatabase.ts';
import { exportQrels } from '../../core/store/studyExports.ts';
import { runJudge, setApiKey } from '../judge/judgeCommands.ts';
import { activeStudyPanel } from '../panels/activeStudyPanel.ts';
import { openAgreementPanel } from '../panels/agreementPanel.ts';
import { openEvaluatePanel } from '../panels/evaluatePanel.ts';
import { openLabelPanel } from '../panels/labelPanel.ts';
import { openReviewPanel } from '../panels/reviewPanel.ts';
import { annotatorName, setAnnotatorName } from '../settings.ts';
import { annotatorNameProblem } from '../studies/annotatorIdentity.ts';
import { annotatorProgressText, formatCount, importSummary } from '../studies/progressText.ts';
import type { OpenStudyFile, StudyFiles } from '../studies/studyFiles.ts';
import type { StudyStatusBar } from '../studies/studyStatusBar.ts';
import { pickableStudies } from '../studies/validStudies.ts';
import {
  findStudyFiles,
  type ReviewTarget,
  readStudies,
  type StudyTarget,
  shownPath,
} from '../studies/workspaceStudies.ts';

interface StudyCommandContext {
  context: vscode.ExtensionContext;
  studyFiles: StudyFiles;
  statusBar: StudyStatusBar;
  output: vscode.OutputChannel;
}

/** Registers every study command; the returned disposable unregisters them. */
export function registerStudyCommands(deps: StudyCommandContext): vscode.Disposable {
  const { context, studyFiles, statusBar, output } = deps;
  const withStudy =
    (what: string, run: (target: StudyTarget) => Promise<void>) =>
    async (argument?: unknown): Promise<void> => {
      try {
        const target = await studyTarget(argument);
        if (target !== undefined) await run(target);
      } catch (error) {
        studyFiles.showError(what, error);
      }
    };
  const label = async (target: StudyTarget) => {
    statusBar.setStudy(target);
    await openLabelPanel(context, studyFiles, target, output);
  };
  return vscode.Disposable.from(
    vscode.commands.registerCommand('qrelsStudio.openStudy', withStudy('opening the study', label)),
    vscode.commands.registerCommand('qrelsStudio.labelNext', withStudy('labelling', label)),
    vscode.commands.registerCommand('qrelsStudio.switchAnnotator', async (argument?: unknown) => {
      try {
        await switchAnnotator(isStudyTarget(argument) ? argument : statusBar.study, studyFiles);
      } catch (error) {
        studyFiles.showError('switching annotator', error);
      }
    }),
    vscode.commands.registerCommand(
      'qrelsStudio.importStudy',
      withStudy('importing', async (target) => {
        const report = await studyFiles.importStudy(target.studyFile, target.study);
        if (report) void vscode.window.showInformationMessage(`Qrels Studio: ${importSummary(target.study, report)}`);
      }),
    ),
    vscode.commands.registerCommand(
      'qrelsStudio.poolStudy',
      withStudy('pooling', async (target) => {
        const model = (await readStudies(target.studyFile)).find((s) => s.name === target.study);
        if (model !== undefined && model.pools.length === 0) {
          void vscode.window.showWarningMessage(
            `Qrels Studio: study '${target.study}' declares no pool: add one (pool "runs/bm25.trec" depth 20)`,
          );
          return;
        }
        const report = await studyFiles.importStudy(target.studyFile, target.study, { sources: false });
        if (report) void vscode.window.showInformationMessage(`Qrels Studio: ${importSummary(target.study, report)}`);
      }),
    ),
    vscode.commands.registerCommand(
      'qrelsStudio.exportQrels',
      withStudy('exporting qrels', async (target) => {
        const opened = await studyFiles.open(target.studyFile);
        if (opened) await exportStudyQrels(opened, studyOf(opened, target.study));
      }),
    ),
    vscode.commands.registerCommand(
      'qrelsStudio.evaluate',
      withStudy('evaluating', (target) => openEvaluatePanel(context, studyFiles, target, output)),
    ),
    vscode.commands.registerCommand('qrelsStudio.openReview', (argument?: unknown) =>
      openReviewPanel(
        context,
        studyFiles,
        output,
        argument instanceof vscode.Uri || isReviewTarget(argument) ? argument : undefined,
      ),
    ),
    vscode.commands.registerCommand(
      'qrelsStudio.showAgreement',
      withStudy('showing agreement', (target) => openAgreementPanel(context, studyFiles, target, output)),
    ),
    vscode.commands.registerCommand(
      'qrelsStudio.runJudge',
      withStudy('running the LLM judge', (target) => runJudge(context, studyFiles, target, output)),
    ),
    vscode.commands.registerCommand(
      'qrelsStudio.runJudgeChooseMode',
      withStudy('running the LLM judge', (target) => runJudge(context, studyFiles, target, output, true)),
    ),
    vscode.commands.registerCommand('qrelsStudio.setApiKey', () => setApiKey(context)),
  );
}

function isReviewTarget(value: unknown): value is ReviewTarget {
  const candidate = value as Partial<ReviewTarget> | null | undefined;
  return typeof candidate?.studyFile === 'string' && typeof candidate.review === 'string';
}

function isStudyTarget(value: unknown): value is StudyTarget {
  const candidate = value as Partial<StudyTarget> | null | undefined;
  return typeof candidate?.studyFile === 'string' && typeof candidate.study === 'string';
}

/**
 * The study a command was given (a view item, the status bar, a study file's Uri), else the study of the active view
 * or study file, else the one the user picks among the workspace's studies without errors.
 */
async function studyTarget(argument: unknown): Promise<StudyTarget | undefined> {
  if (isStudyTarget(argument)) return { studyFile: argument.studyFile, study: argument.study };
  const given = argument instanceof vscode.Uri ? argument : undefined;
  const inView = given === undefined ? activeStudyPanel() : undefined;
  if (inView !== undefined) return inView;
  const editor = vscode.window.activeTextEditor?.document.uri;
  const file = given ?? (editor?.scheme === 'file' ? editor : undefined);
  if (file?.fsPath.endsWith('.assess')) {
    // This file's studies even when it has errors: opening one says what they are.
    const studyFile = file.fsPath;
    const studies = (await readStudies(studyFile)).map((model) => ({ studyFile, study: model.name, model }));
    if (studies.length > 0 || given !== undefined) return pickStudy(studies, []);
  }
  const { studies, withErrors } = await pickableStudies(await findStudyFiles());
  return pickStudy(studies, withErrors);
}

/** One of `studies`: the only one, or the user's pick; `withErrors`: study files left out, said when none is left. */
async function pickStudy(
  studies: (StudyTarget & { model: StudyModel })[],
  withErrors: string[],
): Promise<StudyTarget | undefined> {
  if (studies.length === 0) {
    void vscode.window.showInformationMessage(
      withErrors.length > 0
        ? `Qrels Studio: no study without errors — fix ${withErrors.map(shownPath).join(', ')} (see the Problems panel)`
        : 'Qrels Studio: no study in this workspace yet — a study file (*.assess) declares one',
    );
    return undefined;
  }
  if (studies.length === 1) return studies[0];
  const picked = await vscode.window.showQuickPick(
    studies.map((s) => ({
      label: s.study,
      description: shownPath(s.studyFile),
      ...(s.model.title !== undefined && { detail: s.model.title }),
      target: { studyFile: s.studyFile, study: s.study },
    })),
    { title: 'Qrels Studio: choose a study', matchOnDescription: true },
  );
  return picked?.target;
}

function studyOf(opened: OpenStudyFile, name: string): StudyModel {
  const study = opened.model.studies.find((s) => s.name === name);
  if (study === undefined) throw new StoreError(`${shownPath(opened.studyFile)} has no study '${name}'`);
  return study;
}

/** A pick of the study's annotators (and whoever has labelled in it), or any other name typed in. */
async function switchAnnotator(target: StudyTarget | undefined, studyFiles: StudyFiles): Promise<void> {
  const current = annotatorName();
  const names = new Map<string, string | undefined>();
  if (target !== undefined) {
    const model = (await readStudies(target.studyFile)).find((s) => s.name === target.study);
    for (const name of model?.annotators ?? []) names.set(name, undefined);
    const state = await studyFiles.progress(target.studyFile, target.study);
    if (state.kind === 'progress') {
      for (const annotator of state.progress.annotators) {
        if (annotator.kind === 'human')
          names.set(annotator.name, annotatorProgressText(annotator, state.progress.pairs));
      }
    }
  }
  const other = '$(edit) Other…';
  const items: vscode.QuickPickItem[] = [
    ...[...names].map(([name, progress]) => ({
      label: name,
      ...(name === current && { description: 'current' }),
      ...(progress !== undefined && { detail: progress }),
    })),
    { label: other, description: `type a name (now: ${current})` },
  ];
  const picked =
    names.size === 0
      ? { label: other }
      : await vscode.window.showQuickPick(items, {
          title: target ? `Qrels Studio: annotate '${target.study}' as…` : 'Qrels Studio: annotate as…',
        });
  if (picked === undefined) return;
  let name = picked.label;
  if (name === other) {
    const typed = await vscode.window.showInputBox({
      title: 'Qrels Studio: your annotator id',
      prompt: 'Stored on every label you make (empty setting: your OS user name)',
      value: current,
      validateInput: (value) => annotatorNameProblem(value) ?? null,
    });
    if (typed === undefined) return;
    name = typed.trim();
  }
  await setAnnotatorName(name);
  void vscode.window.showInformationMessage(`Qrels Studio: you now label as ${name}`);
}

/** Writes the study's declared `export qrels` files, or the one the user names, from their label source. */
async function exportStudyQrels(opened: OpenStudyFile, study: StudyModel): Promise<void> {
  const declared = study.exports.filter((e) => e.what === 'qrels');
  let outputs: { file: string; shown: string; source: string; unit: QrelsUnit }[];
  if (declared.length > 0) {
    outputs = declared.map((e) => ({
      file: e.absolutePath ?? resolve(opened.folder, e.path),
      shown: e.path,
      source: labelSourceOfExport(study, e),
      unit: qrelsUnitOfExport(e),
    }));
  } else {
    const uri = await vscode.window.showSaveDialog({
      title: `Qrels Studio: export the qrels of '${study.name}'`,
      defaultUri: vscode.Uri.file(join(opened.folder, `${study.name}.qrels`)),
      filters: { 'TREC qrels': ['qrels', 'txt'] },
    });
    if (uri === undefined) return;
    outputs = [
      { file: uri.fsPath, shown: shownPath(uri.fsPath), source: studyQrelsSource(study), unit: { per: 'pair' } },
    ];
  }
  const studyId = await opened.store.studies.studyId(study.name);
  if (outputs.some((o) => o.source === 'human-else-llm')) {
    // The study's judge gate (core/judge/quality/judgeGate.ts): a judge that fails it fills no pair.
    try {
      await checkHumanElseLlmExport(opened.store, studyId, study, opened.folder);
    } catch (error) {
      if (!(error instanceof JudgeGateRefusal)) throw error;
      void vscode.window.showErrorMessage(`Qrels Studio: ${error.message}`);
      return;
    }
  }
  for (const output of outputs) {
    const { source, argument } = findLabelSource(output.source);
    if ((await source.labels(opened.store, studyId, argument)).length === 0) {
      void vscode.window.showWarningMessage(
        `Qrels Studio: study '${study.name}' has no labels from ${output.source} yet: ${output.shown} was not written`,
      );
      continue;
    }
    // A declared export's folder (qrels/) is made for it; the file is written whole or not at all.
    mkdirSync(dirname(output.file), { recursive: true });
    const lines = await exportQrels(opened.store, studyId, output.source, output.file, output.unit);
    void vscode.window
      .showInformationMessage(
        `Qrels Studio: wrote ${output.shown} — ${formatCount(lines)} lines from ${output.source}`,
        'Open',
      )
      .then((choice) => {
        if (choice === 'Open') void vscode.window.showTextDocument(vscode.Uri.file(output.file));
      });
  }
}
