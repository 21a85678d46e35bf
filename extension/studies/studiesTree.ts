// The Studies view (activity bar → Qrels Studio): every study file of the workspace → its studies, each with its
// progress ("15 / 19 judged by people · 4 / 19 by you", or "not imported" while it has no database) → one line per
// annotator ("alice — 200 / 1,000"), people first, then LLM judges (with the pairs they suggested a label for); and
// the file's review blocks after its studies (clicking one opens the Review view). Listing reads the study files and counts in existing databases only:
// nothing is created or imported until a study is opened (clicking it runs qrelsStudio.openStudy).
import * as vscode from 'vscode';
import type { ReviewModel, StudyModel } from '../../core/dsl/index.ts';
import type { AnnotatorProgress } from '../../core/store/studyProgress.ts';
import { annotatorName, onDidChangeAnnotator } from '../settings.ts';
import { annotatorProgressText, formatCount, studyProgressText } from './progressText.ts';
import type { StudyFiles } from './studyFiles.ts';
import {
  findStudyFiles,
  type ReviewTarget,
  readStudyBlocks,
  type StudyTarget,
  shownPath,
  studyFileGlob,
} from './workspaceStudies.ts';

export const studiesViewId = 'qrelsStudio.studies';

/** Context values the view's menus select on (package.json `view/item/context`). */
export const studyItemContext = {
  file: 'qrelsStudio.studyFile',
  study: 'qrelsStudio.study',
  annotator: 'qrelsStudio.annotator',
  review: 'qrelsStudio.review',
} as const;

export type StudiesNode =
  | { kind: 'file'; studyFile: string }
  | ({ kind: 'study'; model: StudyModel } & StudyTarget)
  | ({ kind: 'annotator'; annotator: AnnotatorProgress; pairs: number } & StudyTarget)
  | ({ kind: 'review'; model: ReviewModel } & ReviewTarget);

/** Study files change in bursts (a save, a branch switch, labels): the view redraws once per burst. */
const refreshDelayMs = 250;

export class StudiesTree implements vscode.TreeDataProvider<StudiesNode>, vscode.Disposable {
  readonly onDidChangeTreeData: vscode.Event<StudiesNode | undefined>;
  private readonly studyFiles: StudyFiles;
  private readonly changed = new vscode.EventEmitter<StudiesNode | undefined>();
  private readonly disposables: vscode.Disposable[] = [];
  private pending: ReturnType<typeof setTimeout> | undefined;

  constructor(studyFiles: StudyFiles) {
    this.studyFiles = studyFiles;
    this.onDidChangeTreeData = this.changed.event;
    const watcher = vscode.workspace.createFileSystemWatcher(studyFileGlob);
    this.disposables.push(
      this.changed,
      watcher,
      watcher.onDidCreate(() => this.refresh()),
      watcher.onDidDelete(() => this.refresh()),
      watcher.onDidChange(() => this.refresh()),
      studyFiles.onDidChange(() => this.refresh()),
      onDidChangeAnnotator(() => this.refresh()),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.refresh()),
    );
  }

  /** Redraws the whole view (soon: several changes in a row redraw once). */
  refresh(): void {
    clearTimeout(this.pending);
    this.pending = setTimeout(() => this.changed.fire(undefined), refreshDelayMs);
  }

  async getChildren(node?: StudiesNode): Promise<StudiesNode[]> {
    if (node === undefined) {
      return (await findStudyFiles()).map((studyFile) => ({ kind: 'file', studyFile }));
    }
    if (node.kind === 'file') {
      const { studies, reviews } = await readStudyBlocks(node.studyFile);
      return [
        ...studies.map(
          (model): StudiesNode => ({ kind: 'study', studyFile: node.studyFile, study: model.name, model }),
        ),
        ...reviews.map(
          (model): StudiesNode => ({ kind: 'review', studyFile: node.studyFile, review: model.name, model }),
        ),
      ];
    }
    if (node.kind === 'study') {
      const state = await this.studyFiles.progress(node.studyFile, node.study);
      if (state.kind !== 'progress') return [];
      return state.progress.annotators.map((annotator) => ({
        kind: 'annotator',
        studyFile: node.studyFile,
        study: node.study,
        annotator,
        pairs: state.progress.pairs,
      }));
    }
    return [];
  }

  async getTreeItem(node: StudiesNode): Promise<vscode.TreeItem> {
    if (node.kind === 'file') {
      const item = new vscode.TreeItem(shownPath(node.studyFile), vscode.TreeItemCollapsibleState.Expanded);
      item.id = `file:${node.studyFile}`;
      item.resourceUri = vscode.Uri.file(node.studyFile);
      item.contextValue = studyItemContext.file;
      item.tooltip = node.studyFile;
      item.command = { command: 'vscode.open', title: 'Open study file', arguments: [vscode.Uri.file(node.studyFile)] };
      return item;
    }
    if (node.kind === 'study') return await this.studyItem(node);
    if (node.kind === 'review') {
      const item = new vscode.TreeItem(node.review, vscode.TreeItemCollapsibleState.None);
      item.id = `review:${node.studyFile}#${node.review}`;
      item.iconPath = new vscode.ThemeIcon('comment-discussion');
      item.description = 'review';
      item.contextValue = studyItemContext.review;
      item.tooltip = `${node.model.title ?? `Review '${node.review}'`} — ${shownPath(node.studyFile)}: click to open the Review view`;
      const target: ReviewTarget = { studyFile: node.studyFile, review: node.review };
      item.command = { command: 'qrelsStudio.openReview', title: 'Open review', arguments: [target] };
      return item;
    }
    const { annotator } = node;
    const item = new vscode.TreeItem(
      annotatorProgressText(annotator, node.pairs),
      vscode.TreeItemCollapsibleState.None,
    );
    item.id = `annotator:${node.studyFile}#${node.study}#${annotator.name}`;
    item.iconPath = new vscode.ThemeIcon(annotator.kind === 'llm' ? 'hubot' : 'person');
    item.contextValue = studyItemContext.annotator;
    if (annotator.name === annotatorName()) item.description = 'you';
    const of = annotator.assigned === null ? `of the study's ${formatCount(node.pairs)} pairs` : 'assigned';
    item.tooltip = `${annotator.kind === 'llm' ? 'LLM judge' : 'Annotator'} ${annotator.name}: ${formatCount(annotator.judged)} pairs labelled, ${formatCount(annotator.assigned ?? node.pairs)} ${of}`;
    return item;
  }

  dispose(): void {
    clearTimeout(this.pending);
    for (const disposable of this.disposables) disposable.dispose();
  }

  private async studyItem(node: Extract<StudiesNode, { kind: 'study' }>): Promise<vscode.TreeItem> {
    const state = await this.studyFiles.progress(node.studyFile, node.study);
    const hasAnnotators = state.kind === 'progress' && state.progress.annotators.length > 0;
    const item = new vscode.TreeItem(
      node.study,
      hasAnnotators ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
    );
    item.id = `study:${node.studyFile}#${node.study}`;
    item.iconPath = new vscode.ThemeIcon('checklist');
    item.contextValue = studyItemContext.study;
    const target: StudyTarget = { studyFile: node.studyFile, study: node.study };
    item.command = { command: 'qrelsStudio.openStudy', title: 'Open study', arguments: [target] };
    const tooltip = new vscode.MarkdownString();
    tooltip.appendMarkdown(`**${node.model.title ?? node.study}**\n\n`);
    tooltip.appendText(`${shownPath(node.studyFile)} — you label as ${annotatorName()}\n`);
    if (state.kind === 'progress') {
      const { progress } = state;
      item.description = studyProgressText(progress, annotatorName());
      tooltip.appendText(
        `${formatCount(progress.judgedByHumans)} of ${formatCount(progress.pairs)} pairs have a label by a person` +
          (progress.judgedByAnyone > progress.judgedByHumans
            ? `, ${formatCount(progress.judgedByAnyone)} a label by anyone (LLM judges included)`
            : ''),
      );
    } else if (state.kind === 'not imported') {
      item.description = 'not imported';
      tooltip.appendText('Nothing imported yet: opening the study imports what its study file declares.');
    } else {
      item.description = 'database unavailable';
      tooltip.appendText(state.message);
    }
    item.tooltip = tooltip;
    return item;
  }
}

/** The Studies view, registered; its welcome text (no study file yet) is in package.json `viewsWelcome`. */
export function registerStudiesView(studyFiles: StudyFiles): vscode.Disposable {
  const tree = new StudiesTree(studyFiles);
  const view = vscode.window.createTreeView(studiesViewId, { treeDataProvider: tree, showCollapseAll: true });
  return vscode.Disposable.from(
    tree,
    view,
    vscode.commands.registerCommand('qrelsStudio.refreshStudies', () => studyFiles.refresh()),
  );
}
