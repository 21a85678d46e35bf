// "Qrels Studio: Run LLM judge" and "Set API key": the study's judge over its pairs, from VS Code, with the same
// core as `qrels-studio judge` — online, or through the Batch API (submit, status, cancel: batchJudgeRun.ts). What guards the network: no call in an untrusted workspace; the first call to an
// endpoint asks the user once (remembered in the approval store the CLI reads too); the API key comes from
// SecretStorage or OPENAI_API_KEY, never from a workspace file, and is never logged. Progress in a notification
// (done/total, calls/s, tokens, cost so far — spent / budget when the judge declares one) whose Cancel stops new calls and records the ones in flight.
import * as vscode from 'vscode';
import type { JudgeModel, StudyModel } from '../../core/dsl/model.ts';
import { SendingRunOverlap } from '../../core/judge/batch/sendingRun.ts';
import { BudgetRefusal, estimateText } from '../../core/judge/budget/budgetGuard.ts';
import { createChatClient } from '../../core/judge/chatClient.ts';
import { approveEndpoint, isEndpointApproved, normaliseEndpoint } from '../../core/judge/endpointApproval.ts';
import { formatCount } from '../../core/judge/judgeProgressText.ts';
import { loadJudgePrompt } from '../../core/judge/judgePrompt.ts';
import { type JudgeReport, selectJudge } from '../../core/judge/judgeStudy.ts';
import { storedCorpusKind } from '../../core/store/corpusKind.ts';
import type { StudyStore } from '../../core/store/studyStore.ts';
import { refreshLabelPanels } from '../panels/labelPanel.ts';
import { judgeSettings } from '../settings.ts';
import type { StudyFiles } from '../studies/studyFiles.ts';
import { type StudyTarget, shownPath } from '../studies/workspaceStudies.ts';
import {
  type BatchJudgeRun,
  batchesOnRecord,
  batchInputFolder,
  batchLine,
  batchStatusLines,
  cancelJudgeBatches,
  judgeBatchStatus,
  pairsLeftUnanswered,
  submitJudgeBatches,
  submitLines,
} from './batchJudgeRun.ts';
import { asksForAction, type JudgeAction, judgeActionItems } from './judgeActions.ts';
import { JudgeRunsInFlight, judgeRunKey } from './judgeRunsInFlight.ts';
import { onlineSummaryLine, runOnlineJudge } from './onlineJudgeRun.ts';

/** Where the API key lives in VS Code's SecretStorage. */
export const apiKeySecret = 'qrelsStudio.openaiApiKey';

/** The judges with a sending run (online, batch submit, their retries) under way in this window. */
const runsInFlight = new JudgeRunsInFlight();

async function pickJudge(study: StudyModel): Promise<JudgeModel | undefined> {
  if (study.judges.length <= 1) return selectJudge(study);
  const picked = await vscode.window.showQuickPick(
    study.judges.map((judge, i) => ({
      label: judge.model,
      description: judge.endpoint ?? 'endpoint from settings',
      detail: judge.prompt ? `prompt ${judge.prompt.path}` : 'default prompt',
      index: i + 1,
    })),
    { title: `Qrels Studio: which judge of '${study.name}'?` },
  );
  return picked ? study.judges[picked.index - 1] : undefined;
}

/** Asks once per endpoint; the answer is kept in the approval store `qrels-studio judge` also reads. */
async function approved(endpoint: string, study: string, model: string): Promise<boolean> {
  if (isEndpointApproved(endpoint)) return true;
  const allow = 'Allow';
  const answer = await vscode.window.showWarningMessage(
    `Qrels Studio will send the queries and documents of study '${study}' to ${endpoint} (model ${model}). ` +
      'Allow calls to this endpoint? (Asked once; the CLI honours the same approval.)',
    { modal: true },
    allow,
  );
  if (answer !== allow) return false;
  approveEndpoint(endpoint);
  return true;
}

/**
 * Runs the study's judge. Online at once for an online judge with no batch on record; otherwise — the judge block
 * says `mode batch`, batches are on record, or `chooseMode` ("LLM judge: online or Batch API…") — the user picks:
 * judge online, judge with the Batch API, the batches' status (recording what finished), or cancel the open ones.
 */
export async function runJudge(
  context: vscode.ExtensionContext,
  studyFiles: StudyFiles,
  target: StudyTarget,
  output: vscode.OutputChannel,
  chooseMode = false,
): Promise<void> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showErrorMessage(
      'Qrels Studio: LLM calls are disabled in an untrusted workspace — trust it (Manage Workspace Trust) to run a judge',
    );
    return;
  }
  const opened = await studyFiles.open(target.studyFile);
  if (!opened) return;
  const study = opened.model.studies.find((s) => s.name === target.study);
  if (!study) throw new Error(`${shownPath(target.studyFile)} has no study '${target.study}'`);
  const judge = await pickJudge(study);
  if (!judge) return;
  const configured = judgeSettings();
  const endpointText = judge.endpoint ?? configured.endpoint;
  if (endpointText === undefined) {
    const open = 'Open Settings';
    const answer = await vscode.window.showErrorMessage(
      `Qrels Studio: judge '${judge.model}' of study '${study.name}' names no endpoint. Add endpoint "URL" to its ` +
        'judge block, or set qrelsStudio.judge.endpoint (any OpenAI-compatible server: OpenAI, Azure, vLLM, Ollama); ' +
        'then "Qrels Studio: Set API key" if it needs one.',
      open,
    );
    if (answer === open) void vscode.commands.executeCommand('workbench.action.openSettings', 'qrelsStudio.judge');
    return;
  }
  const endpoint = normaliseEndpoint(endpointText);
  const prompt = await loadJudgePrompt(
    study,
    judge,
    opened.folder,
    opened.folder,
    await storedCorpusKind(opened.store, study.name),
  );
  const batches = await batchesOnRecord(opened.store, study, judge, prompt);
  let action: JudgeAction = 'online';
  if (asksForAction(judge, batches, chooseMode)) {
    const picked = await vscode.window.showQuickPick(judgeActionItems(judge, batches), {
      title: `Qrels Studio: judge ${judge.model} on '${study.name}'`,
    });
    if (!picked) return;
    action = picked.action;
  }
  // Every action below calls the endpoint (a batch's status and cancel too): approved first.
  if (!(await approved(endpoint, study.name, judge.model))) return;
  const apiKey = (await context.secrets.get(apiKeySecret)) ?? process.env.OPENAI_API_KEY ?? '';
  const place = study.judges.indexOf(judge) + 1;
  const batchRun: BatchJudgeRun = {
    judge,
    place,
    endpoint,
    apiKey,
    prompt,
    prices: configured.prices,
    studyFolder: opened.folder,
  };
  // A retry online is the online run over the pairs whose batch votes got no answer.
  const retryPairs = action === 'retry-online' ? await pairsLeftUnanswered(opened.store, study, batchRun) : undefined;
  // One sending run per judge in this window (judgeRunsInFlight.ts): its votes in flight would be asked twice.
  const taken = runsInFlight.start(judgeRunKey(target.studyFile, study.name, judge.model, place), action);
  if ('refusal' in taken) {
    void vscode.window.showWarningMessage(`Qrels Studio: ${taken.refusal}`);
    return;
  }
  if (action !== 'online' && action !== 'retry-online') {
    try {
      await runBatchAction(action, opened.store, study, batchRun, output);
    } finally {
      taken.release();
    }
    studyFiles.notifyChanged(target.studyFile);
    refreshLabelPanels(target.studyFile);
    return;
  }
  let report: JudgeReport;
  try {
    const client = createChatClient({ baseURL: endpoint, apiKey });
    report = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Judge ${judge.model} on ${study.name}`,
        cancellable: true,
      },
      async (progress, token) => {
        const controller = new AbortController();
        const cancelled = token.onCancellationRequested(() => controller.abort());
        let reported = 0;
        if (judge.budget)
          progress.report({ message: `estimating the cost against the budget of $${judge.budget.amount}…` });
        try {
          return await runOnlineJudge(opened.store, study, {
            judge,
            // By its place: two judges may share a model and differ in their prompt.
            place,
            endpoint,
            concurrency: configured.concurrency,
            ...(retryPairs && { pairIds: retryPairs }),
            markerFolder: batchInputFolder(opened.folder),
            client,
            prompt,
            prices: configured.prices,
            signal: controller.signal,
            onEstimate: (estimate) => output.appendLine(estimateText(estimate, judge.budget?.amount).trimEnd()),
            onProgress(message, share) {
              progress.report({ message, increment: share - reported });
              reported = share;
            },
          });
        } finally {
          cancelled.dispose();
        }
      },
    );
  } catch (error) {
    // Another sending run of the judge is under way (the CLI, another window): nothing was sent.
    if (error instanceof SendingRunOverlap) {
      output.appendLine(`judge ${judge.model}: ${error.message}`);
      void vscode.window.showWarningMessage(`Qrels Studio: ${error.message}`);
      return;
    }
    // Over the budget, or a budget with no price to keep it by: nothing was sent.
    if (!(error instanceof BudgetRefusal)) throw error;
    output.appendLine(`judge ${judge.model}: ${error.message}`);
    const noPrice = /no price/.test(error.message);
    const open = 'Open Settings';
    const answer = await vscode.window.showErrorMessage(
      `Qrels Studio: ${error.message}${noPrice ? ' (in VS Code: the setting qrelsStudio.judge.prices)' : ''}`,
      ...(noPrice ? [open] : []),
    );
    if (answer === open)
      void vscode.commands.executeCommand('workbench.action.openSettings', 'qrelsStudio.judge.prices');
    return;
  } finally {
    taken.release();
  }
  studyFiles.notifyChanged(target.studyFile);
  refreshLabelPanels(target.studyFile);
  const line = onlineSummaryLine(report);
  output.appendLine(line);
  for (const [kind, n] of Object.entries(report.failuresByKind)) output.appendLine(`  ${kind}: ${n}`);
  const unreachable = (report.failuresByKind.connection ?? 0) + (report.failuresByKind['circuit-open'] ?? 0);
  if (report.suggestions === 0 && unreachable > 0) {
    // The usual first run without a server: say how to get one, not just that calls failed.
    const open = 'Open Settings';
    const answer = await vscode.window.showErrorMessage(
      `Qrels Studio: could not reach ${endpoint} (${report.failureExamples.connection ?? report.failureExamples['circuit-open'] ?? 'no answer'}). ` +
        `Start an OpenAI-compatible server there (vLLM, Ollama, …), or point judge '${judge.model}' at one: its ` +
        '`endpoint` in the study file, or the setting qrelsStudio.judge.endpoint; "Set API key" if it needs a key.',
      open,
    );
    if (answer === open) void vscode.commands.executeCommand('workbench.action.openSettings', 'qrelsStudio.judge');
  } else if (report.failuresByKind.auth) {
    void vscode.window.showErrorMessage(
      `Qrels Studio: ${endpoint} ${apiKey === '' ? 'wants an API key' : 'refused the API key'}: run "Qrels Studio: Set API key"`,
    );
  } else if (report.failures > 0) {
    void vscode.window.showWarningMessage(`Qrels Studio: ${line} (details in the Qrels Studio output)`);
  } else {
    void vscode.window.showInformationMessage(`Qrels Studio: ${line}`);
  }
}

/** Submit, status or cancel, in a progress notification; what happened in the output channel and a message. */
async function runBatchAction(
  action: Exclude<JudgeAction, 'online' | 'retry-online'>,
  store: StudyStore,
  study: StudyModel,
  run: BatchJudgeRun,
  output: vscode.OutputChannel,
): Promise<void> {
  const titles = {
    batch: `Judge ${run.judge.model} on ${study.name} with the Batch API: writing and uploading the batches`,
    'batch-status': `Batches of ${run.judge.model} on ${study.name}: status, recording what finished`,
    'cancel-batches': `Cancelling the open batches of ${run.judge.model} on ${study.name}`,
    'retry-batch': `Judge ${run.judge.model} on ${study.name}: a new batch of what batches left unanswered`,
  };
  let lines: string[];
  try {
    lines = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: titles[action],
        // A submit can be long (rendering, uploading up to 200 MB a batch): Cancel stops writing further batches; one
        // being uploaded or created is finished and recorded. Status and cancel are a few quick calls.
        cancellable: action === 'batch' || action === 'retry-batch',
      },
      async (_progress, token) => {
        switch (action) {
          case 'batch':
          case 'retry-batch': {
            const controller = new AbortController();
            const cancelled = token.onCancellationRequested(() => controller.abort());
            try {
              const pairIds = action === 'retry-batch' ? await pairsLeftUnanswered(store, study, run) : undefined;
              return submitLines(
                await submitJudgeBatches(store, study, run, {
                  onEstimate: (estimate) =>
                    output.appendLine(estimateText(estimate, run.judge.budget?.amount).trimEnd()),
                  ...(pairIds && { pairIds }),
                  signal: controller.signal,
                }),
              );
            } finally {
              cancelled.dispose();
            }
          }
          case 'batch-status':
            return batchStatusLines(await judgeBatchStatus(store, study, run));
          case 'cancel-batches': {
            const { judge, cancelled, forgotten } = await cancelJudgeBatches(store, study, run);
            return [
              cancelled.length === 0 && forgotten === 0
                ? `judge ${judge}: no open batch to cancel`
                : `judge ${judge}: asked to cancel ${formatCount(cancelled.length)} batch${cancelled.length === 1 ? '' : 'es'}` +
                  (forgotten > 0 ? `, ${formatCount(forgotten)} never created forgotten` : '') +
                  ' — "Batch status" records what they answered',
              ...cancelled.map((b) => `  ${batchLine(b)}`),
            ];
          }
        }
      },
    );
  } catch (error) {
    if (!(error instanceof BudgetRefusal) && !(error instanceof SendingRunOverlap)) throw error;
    output.appendLine(`judge ${run.judge.model}: ${error.message}`);
    void vscode.window.showErrorMessage(`Qrels Studio: ${error.message}`);
    return;
  }
  for (const line of lines) output.appendLine(line);
  const [headline] = lines;
  // Each batch's line is in the output channel; the message offers to show it rather than only saying where it is.
  const details = 'Show each batch';
  void vscode.window
    .showInformationMessage(
      `Qrels Studio: ${headline ?? ''}${lines.length > 1 ? ' (each batch in the Qrels Studio output)' : ''}`,
      ...(lines.length > 1 ? [details] : []),
    )
    .then((answer) => {
      if (answer === details) output.show(true);
    });
}

/** Stores the key in SecretStorage (an empty answer removes it). */
export async function setApiKey(context: vscode.ExtensionContext): Promise<void> {
  const key = await vscode.window.showInputBox({
    title: 'Qrels Studio: API key for the LLM judge',
    prompt:
      'Kept in VS Code’s secret storage, never in a file. Leave empty to remove it (then OPENAI_API_KEY is used).',
    password: true,
    ignoreFocusOut: true,
  });
  if (key === undefined) return;
  if (key.trim() === '') {
    await context.secrets.delete(apiKeySecret);
    void vscode.window.showInformationMessage('Qrels Studio: API key removed');
  } else {
    await context.secrets.store(apiKeySecret, key.trim());
    void vscode.window.showInformationMessage('Qrels Studio: API key stored in secret storage');
  }
}
