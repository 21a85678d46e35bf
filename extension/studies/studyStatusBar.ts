// The status bar item "$(checklist) 412 / 2,000 judged by you": the current annotator's progress (judged / assigned,
// else judged / pairs) in the study of the active `.assess` editor, or else the study last opened. Click: label next.
// A label stored in a Label view shows at once, with the view's own count (the event of the commit, not a recount).
import { resolve } from 'node:path';
import * as vscode from 'vscode';
import { annotatorName, onDidChangeAnnotator } from '../settings.ts';
import { ownJudgedText, ownProgress } from './progressText.ts';
import type { StoredLabel, StudyFiles } from './studyFiles.ts';
import { readStudies, type StudyTarget, shownPath } from './workspaceStudies.ts';

export class StudyStatusBar implements vscode.Disposable {
  private readonly studyFiles: StudyFiles;
  private readonly item: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];
  private lastOpened: StudyTarget | undefined;
  private shown: StudyTarget | undefined;
  /** Updates overlap (a study file is read to find its studies): only the latest one writes the item. */
  private updates = 0;

  constructor(studyFiles: StudyFiles) {
    this.studyFiles = studyFiles;
    this.item = vscode.window.createStatusBarItem('qrelsStudio.progress', vscode.StatusBarAlignment.Left, 50);
    this.item.name = 'Qrels Studio: labelling progress';
    this.disposables.push(
      this.item,
      studyFiles.onDidChange(() => void this.update()),
      studyFiles.onDidStoreLabel((stored) => this.showStored(stored)),
      onDidChangeAnnotator(() => void this.update()),
      vscode.window.onDidChangeActiveTextEditor(() => void this.update()),
    );
    void this.update();
  }

  /** The study last opened for labelling: shown while no study file is the active editor. */
  setStudy(target: StudyTarget): void {
    this.lastOpened = { studyFile: target.studyFile, study: target.study };
    void this.update();
  }

  /** The study the item shows now, if any. */
  get study(): StudyTarget | undefined {
    return this.shown;
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
  }

  /** The stored label's count, when the item shows that study for that annotator. */
  private showStored(stored: StoredLabel): void {
    const shown = this.shown;
    if (shown === undefined || resolve(shown.studyFile) !== stored.studyFile || shown.study !== stored.study) return;
    if (stored.annotator !== annotatorName()) return;
    this.updates++; // a recount already under way counted before this label: it must not write its number over it
    this.item.text = `$(checklist) ${ownJudgedText(stored.progress.judged, stored.progress.assigned)}`;
  }

  private async update(): Promise<void> {
    const update = ++this.updates;
    const target = await this.currentStudy();
    if (update !== this.updates) return;
    this.shown = target;
    if (target === undefined) {
      this.item.hide();
      return;
    }
    const state = await this.studyFiles.progress(target.studyFile, target.study);
    // A label stored while counting (showStored) or a newer update says more than this count.
    if (update !== this.updates) return;
    const annotator = annotatorName();
    if (state.kind === 'progress') {
      const { judged, total } = ownProgress(state.progress, annotator);
      this.item.text = `$(checklist) ${ownJudgedText(judged, total)}`;
    } else if (state.kind === 'not imported') {
      this.item.text = `$(checklist) ${target.study}: not imported`;
    } else {
      this.item.text = `$(warning) ${target.study}`;
    }
    const tooltip = [
      `Study '${target.study}' (${shownPath(target.studyFile)})`,
      `Annotator: ${annotator}`,
      state.kind === 'unavailable' ? state.message : 'Click to label the next pair',
    ];
    this.item.tooltip = tooltip.join('\n');
    this.item.command = { command: 'qrelsStudio.labelNext', title: 'Label next', arguments: [target] };
    this.item.show();
  }

  /** The active editor's study file's study (the last opened one when it is in that file, else its first). */
  private async currentStudy(): Promise<StudyTarget | undefined> {
    const document = vscode.window.activeTextEditor?.document;
    if (document === undefined || document.uri.scheme !== 'file' || !document.uri.fsPath.endsWith('.assess')) {
      return this.lastOpened;
    }
    const studyFile = document.uri.fsPath;
    if (this.lastOpened?.studyFile === studyFile) return this.lastOpened;
    const first = (await readStudies(studyFile))[0];
    return first === undefined ? this.lastOpened : { studyFile, study: first.name };
  }
}
