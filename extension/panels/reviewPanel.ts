// The Review view: one webview panel per review block, serving the `review/*` protocol (reviewHandlers.ts) from a
// core ReviewSession. Opening it syncs the study file's database and imports the review's items (new ones, changed
// texts as new versions); the reviewer is the `qrelsStudio.annotator` setting.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import * as vscode from 'vscode';
import { parseStudyFile, resolveStudies } from '../../core/dsl/index.ts';
import { importReviewItems, ReviewSession } from '../../core/review/reviewSession.ts';
import { annotatorName } from '../settings.ts';
import type { StudyFiles } from '../studies/studyFiles.ts';
import { findStudyFiles, type ReviewTarget, shownPath } from '../studies/workspaceStudies.ts';
import { createPanelHost, type PanelHost } from './panelHost.ts';
import { reviewRequestHandlers } from './reviewHandlers.ts';

const openPanels = new Map<string, PanelHost>();

/** The review blocks of the workspace's study files. */
async function workspaceReviews(): Promise<{ studyFile: string; review: string }[]> {
  const found: { studyFile: string; review: string }[] = [];
  for (const studyFile of await findStudyFiles()) {
    try {
      const model = resolveStudies(parseStudyFile(await readFile(studyFile, 'utf8')), studyFile);
      for (const review of model.reviews) if (review.name !== '') found.push({ studyFile, review: review.name });
    } catch {
      // an unreadable file has no reviews to offer (the language server reports it)
    }
  }
  return found;
}

/** Opens the Review view of a review block: the one given (the Studies view), else one picked (of a file's). */
export async function openReviewPanel(
  context: vscode.ExtensionContext,
  studies: StudyFiles,
  output: vscode.OutputChannel,
  file?: vscode.Uri | ReviewTarget,
): Promise<void> {
  let reviews = await workspaceReviews();
  if (file instanceof vscode.Uri) reviews = reviews.filter((r) => resolve(r.studyFile) === resolve(file.fsPath));
  else if (file)
    reviews = reviews.filter((r) => resolve(r.studyFile) === resolve(file.studyFile) && r.review === file.review);
  if (reviews.length === 0) {
    void vscode.window.showInformationMessage('Qrels Studio: no `review` block in the workspace’s study files');
    return;
  }
  let target = reviews[0]!;
  if (reviews.length > 1) {
    const picked = await vscode.window.showQuickPick(
      reviews.map((r) => ({ label: r.review, description: shownPath(r.studyFile), r })),
      { title: 'Qrels Studio: open which review?' },
    );
    if (!picked) return;
    target = picked.r;
  }
  await showReviewPanel(context, studies, output, target);
}

/** Opens (or brings to the front) the Review view of one review block; `revived` after a window reload. */
export async function showReviewPanel(
  context: vscode.ExtensionContext,
  studies: StudyFiles,
  output: vscode.OutputChannel,
  target: { studyFile: string; review: string },
  revived?: vscode.WebviewPanel,
): Promise<void> {
  const key = `${resolve(target.studyFile)}#${target.review}`;
  const existing = openPanels.get(key);
  if (existing) {
    existing.panel.reveal();
    return;
  }
  const opened = await studies.open(target.studyFile);
  if (!opened) return;
  const review = opened.model.reviews.find((r) => r.name === target.review);
  if (!review) return;
  let session: ReviewSession;
  try {
    // The review's queries and corpus are imported in the store's worker (their files are read there).
    const imported = await importReviewItems(opened.store, review, opened.folder, {
      importSources: (study, folder) =>
        opened.store.jobs.importDeclared({ importId: `review-${review.name}-${Date.now()}`, study, folder }),
    });
    output.appendLine(
      `[review] ${review.name}: ${imported.added} items added, ${imported.changed} changed, ${imported.unchanged} unchanged`,
    );
    session = await ReviewSession.open(opened.store, {
      studyFile: target.studyFile,
      review,
      annotator: annotatorName(),
    });
  } catch (error) {
    void vscode.window.showErrorMessage(`Qrels Studio: ${error instanceof Error ? error.message : String(error)}`);
    return;
  }
  const host = createPanelHost(context.extensionUri, {
    viewType: 'qrelsStudio.review',
    title: `Review: ${review.name}`,
    webview: 'review',
    output,
    panelState: { studyFile: target.studyFile, review: review.name },
    ...(revived && { revived }),
    handlers: reviewRequestHandlers(() => session),
  });
  openPanels.set(key, host);
  host.panel.onDidDispose(() => openPanels.delete(key));
}
