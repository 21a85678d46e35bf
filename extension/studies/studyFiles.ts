// The open study files of the window and their task databases (the extension host is their one writer). Opening a
// study file lints it (errors → a message listing them, nothing opened), opens its database next to it and syncs
// its studies into it; a study with nothing in its database yet gets its declared sources imported, under a
// progress notification whose Cancel leaves the database as it was. Databases stay open (one per study file) until
// the file is deleted or the extension stops; a study file changed on disk is re-synced.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import * as vscode from 'vscode';
import {
  lintStudyText,
  nodeStudyHost,
  parseStudyFile,
  resolveStudies,
  type StudyFileModel,
  type StudyModel,
} from '../../core/dsl/index.ts';
import type { Progress } from '../../core/labelling/types.ts';
import { type DeclaredImportOptions, importDeclaredSources } from '../../core/store/declaredImport.ts';
import { SqliteStudyStore } from '../../core/store/sqlite/sqliteStudyStore.ts';
import {
  ImportCancelledError,
  type ImportReport,
  StoreError,
  type StudyDatabase,
  studyDatabasePath,
} from '../../core/store/studyDatabase.ts';
import { type StudyProgress, studyProgress } from '../../core/store/studyProgress.ts';
import type { StudyStore } from '../../core/store/studyStore.ts';
import { studyErrorsMessage, userErrorMessage } from './userError.ts';
import { studyFileGlob } from './workspaceStudies.ts';

export interface OpenStudyFile {
  /** Absolute path of the `.assess` file. */
  studyFile: string;
  /** Its folder: the studies' relative paths resolve against it. */
  folder: string;
  model: StudyFileModel;
  /** The study file's record (the storage port). */
  store: StudyStore;
  /** Transition (issue 20): the old record object, until every handler asks the port. */
  database: StudyDatabase;
}

/** What the Studies view and the status bar can say about a study without creating or importing anything. */
export type StudyProgressState =
  | { kind: 'progress'; progress: StudyProgress }
  /** No database yet, the study not synced into it, or nothing imported for it. */
  | { kind: 'not imported' }
  /** The database cannot be read (not SQLite, a newer schema): the message says why. */
  | { kind: 'unavailable'; message: string };

/** A Label view stored or retracted a label: its annotator's progress in the study, as the view counts it. */
export interface StoredLabel {
  /** Absolute path of the `.assess` file. */
  studyFile: string;
  study: string;
  annotator: string;
  progress: Progress;
}

export type StudyImportOptions = Pick<DeclaredImportOptions, 'pools' | 'sources'>;

interface Entry {
  store: SqliteStudyStore;
  database: StudyDatabase;
  /** The study file's text as last synced into the database, and its model; none while never synced. */
  synced?: { text: string; model: StudyFileModel };
}

/** Study databases written by anyone (a CLI import in a terminal too): the progress shown is refreshed. */
const databaseGlob = '**/.qrels-studio/*.sqlite*';
/**
 * Database writes come in bursts (a WAL file and its database, label after label): progress is recounted once they
 * pause this long. Recounting takes about half a second at a million pairs, on the extension host's one thread that
 * the next label's commit would wait behind; while labelling, the Label view shows its own progress.
 */
const databaseRefreshDelayMs = 2000;

export class StudyFiles implements vscode.Disposable {
  /** Fires with a study file's path when its studies, imports or labels changed; '' when any may have. */
  readonly onDidChange: vscode.Event<string>;
  /** Fires as a Label view stores or retracts a label (at once, unlike onDidChange, which waits for writes to pause). */
  readonly onDidStoreLabel: vscode.Event<StoredLabel>;
  private readonly output: vscode.OutputChannel;
  private readonly locateNativeBinding: () => string;
  private nativeBinding: string | undefined;
  private readonly entries = new Map<string, Entry>();
  private readonly opening = new Map<string, Promise<OpenStudyFile | undefined>>();
  private readonly progressCache = new Map<string, StudyProgressState>();
  /** Study files with an import running: one at a time per database (its staging tables are the connection's). */
  private readonly importing = new Set<string>();
  private readonly changed = new vscode.EventEmitter<string>();
  private readonly stored = new vscode.EventEmitter<StoredLabel>();
  private readonly disposables: vscode.Disposable[] = [];
  private databaseRefresh: ReturnType<typeof setTimeout> | undefined;
  /** Study files whose databases were written since the last refresh. */
  private readonly written = new Set<string>();

  /** `nativeBinding`: the better-sqlite3 binary, or how to find it (asked when the first database opens). */
  constructor(nativeBinding: string | (() => string), output: vscode.OutputChannel) {
    this.locateNativeBinding = typeof nativeBinding === 'string' ? () => nativeBinding : nativeBinding;
    this.output = output;
    this.onDidChange = this.changed.event;
    this.onDidStoreLabel = this.stored.event;
    const studyWatcher = vscode.workspace.createFileSystemWatcher(studyFileGlob);
    const databaseWatcher = vscode.workspace.createFileSystemWatcher(databaseGlob);
    const databaseWritten = (uri: vscode.Uri) => this.labelsChanged(studyFileOfDatabase(uri.fsPath));
    this.disposables.push(
      this.changed,
      this.stored,
      studyWatcher,
      studyWatcher.onDidCreate((uri) => this.notifyChanged(uri.fsPath)),
      studyWatcher.onDidChange((uri) => void this.resync(uri.fsPath)),
      studyWatcher.onDidDelete((uri) => this.forget(uri.fsPath)),
      databaseWatcher,
      databaseWatcher.onDidCreate(databaseWritten),
      databaseWatcher.onDidChange(databaseWritten),
      databaseWatcher.onDidDelete(databaseWritten),
    );
  }

  /**
   * The study file linted, its database open and synced, and every study of it that has nothing imported yet
   * imported from what it declares. Undefined when it cannot be (errors in the file, a failed or cancelled import):
   * the user has been told why.
   */
  open(studyFile: string): Promise<OpenStudyFile | undefined> {
    const key = resolve(studyFile);
    const pending = this.opening.get(key);
    if (pending !== undefined) return pending;
    const opening = this.openAndImport(key).finally(() => this.opening.delete(key));
    this.opening.set(key, opening);
    return opening;
  }

  /** Imports what study `study` declares (or, with options, its pools or sources only), with the progress UI. */
  async importStudy(
    studyFile: string,
    study: string,
    options: StudyImportOptions = {},
  ): Promise<ImportReport | undefined> {
    const key = resolve(studyFile);
    let opened: OpenStudyFile | undefined;
    try {
      opened = await this.load(key, { quiet: false });
    } catch (error) {
      this.showError(`opening ${basename(key)}`, error);
      return undefined;
    }
    if (opened === undefined) return undefined;
    const model = opened.model.studies.find((s) => s.name === study);
    if (model === undefined) {
      this.showError('import', new StoreError(`${basename(key)} has no study '${study}'`));
      return undefined;
    }
    return this.runImport(opened, model, options);
  }

  /**
   * A study's progress, counted in its database when there is one; nothing is created, synced or imported to say
   * it. Cached until the study file, its imports or its labels change.
   */
  progress(studyFile: string, study: string): StudyProgressState {
    const key = `${resolve(studyFile)}\u0000${study}`;
    const cached = this.progressCache.get(key);
    if (cached !== undefined) return cached;
    const state = this.countProgress(resolve(studyFile), study);
    this.progressCache.set(key, state);
    return state;
  }

  /** Labels were committed (or anything else changed) in a study file's database: views showing it refresh. */
  notifyChanged(studyFile: string): void {
    const key = resolve(studyFile);
    for (const cached of [...this.progressCache.keys()]) {
      if (cached.startsWith(`${key}\u0000`)) this.progressCache.delete(cached);
    }
    this.changed.fire(key);
  }

  /** Labels were stored (by a Label view, or anyone writing the database): notifyChanged once the writes pause. */
  labelsChanged(studyFile: string): void {
    this.written.add(resolve(studyFile));
    clearTimeout(this.databaseRefresh);
    this.databaseRefresh = setTimeout(() => {
      for (const written of this.written) this.notifyChanged(written);
      this.written.clear();
    }, databaseRefreshDelayMs);
  }

  /**
   * A Label view stored or retracted a label: the status bar shows the view's own count at once (no recount); the
   * progress cached for the study file is dropped (it is counted again when next asked), and views that recount
   * refresh once the writes pause (labelsChanged).
   */
  labelStored(stored: StoredLabel): void {
    const key = resolve(stored.studyFile);
    for (const cached of [...this.progressCache.keys()]) {
      if (cached.startsWith(`${key}\u0000`)) this.progressCache.delete(cached);
    }
    this.stored.fire({ ...stored, studyFile: key });
    this.labelsChanged(key);
  }

  /** Counts every study's progress again (the Studies view's Refresh). */
  refresh(): void {
    this.progressCache.clear();
    this.changed.fire('');
  }

  /** Shows an error the way every study command does: the message when it is the user's to fix, else a pointer to the log. */
  showError(action: string, error: unknown): void {
    const known = userErrorMessage(error);
    if (known !== undefined) {
      this.output.appendLine(`[studies] ${action}: ${known}`);
      void vscode.window.showErrorMessage(`Qrels Studio: ${known}`);
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    this.output.appendLine(
      `[studies] ${action} failed: ${error instanceof Error ? (error.stack ?? message) : message}`,
    );
    void vscode.window.showErrorMessage(
      `Qrels Studio: ${action} failed: ${message} (details in the "Qrels Studio" output)`,
    );
  }

  dispose(): void {
    clearTimeout(this.databaseRefresh);
    for (const disposable of this.disposables) disposable.dispose();
    for (const entry of this.entries.values()) entry.database.close();
    this.entries.clear();
  }

  private async openAndImport(studyFile: string): Promise<OpenStudyFile | undefined> {
    let opened: OpenStudyFile | undefined;
    try {
      opened = await this.load(studyFile, { quiet: false });
    } catch (error) {
      this.showError(`opening ${basename(studyFile)}`, error);
      return undefined;
    }
    if (opened === undefined) return undefined;
    for (const study of opened.model.studies) {
      if (!declaresSources(study) || hasImported(opened.database, study.name)) continue;
      const report = await this.runImport(opened, study, {});
      if (report === undefined) return undefined;
    }
    return opened;
  }

  /**
   * Reads the study file; when its text is not the one last synced, lints it (errors: shown unless `quiet`, and
   * undefined) and syncs it into its database, opened on first use.
   */
  private async load(studyFile: string, { quiet }: { quiet: boolean }): Promise<OpenStudyFile | undefined> {
    const text = await readFile(studyFile, 'utf8');
    const entry = this.entries.get(studyFile);
    if (entry?.synced?.text === text) {
      const { store, database } = entry;
      return { studyFile, folder: dirname(studyFile), model: entry.synced.model, store, database };
    }
    const errors = (await lintStudyText(text, studyFile, nodeStudyHost())).filter((d) => d.severity === 'error');
    if (errors.length > 0) {
      const message = studyErrorsMessage(basename(studyFile), text, errors);
      this.output.appendLine(
        `[studies] ${studyFile}: ${studyErrorsMessage(basename(studyFile), text, errors, errors.length)}`,
      );
      if (!quiet) void vscode.window.showErrorMessage(`Qrels Studio: ${message}`);
      return undefined;
    }
    const model = resolveStudies(parseStudyFile(text), studyFile);
    const store = entry?.store ?? this.openDatabase(studyFile);
    const database = store.database;
    database.syncStudies(model);
    this.entries.set(studyFile, { store, database, synced: { text, model } });
    this.notifyChanged(studyFile);
    return { studyFile, folder: dirname(studyFile), model, store, database };
  }

  /** A study file changed on disk: an open one is synced again (quietly: the editor shows its errors). */
  private async resync(studyFile: string): Promise<void> {
    const key = resolve(studyFile);
    try {
      if (this.entries.get(key)?.synced !== undefined) await this.load(key, { quiet: true });
    } catch (error) {
      this.output.appendLine(`[studies] re-syncing ${key}: ${userErrorMessage(error) ?? String(error)}`);
    }
    this.notifyChanged(key);
  }

  private forget(studyFile: string): void {
    const key = resolve(studyFile);
    this.entries.get(key)?.database.close();
    this.entries.delete(key);
    this.notifyChanged(key);
  }

  private openDatabase(studyFile: string): SqliteStudyStore {
    this.nativeBinding ??= this.locateNativeBinding();
    return SqliteStudyStore.openNow(studyDatabasePath(studyFile), { nativeBinding: this.nativeBinding });
  }

  private countProgress(studyFile: string, study: string): StudyProgressState {
    try {
      let database = this.entries.get(studyFile)?.database;
      if (database === undefined) {
        if (!existsSync(studyDatabasePath(studyFile))) return { kind: 'not imported' };
        const store = this.openDatabase(studyFile);
        database = store.database;
        this.entries.set(studyFile, { store, database });
      }
      if (!hasImported(database, study)) return { kind: 'not imported' };
      return { kind: 'progress', progress: studyProgress(database, study) };
    } catch (error) {
      const message = userErrorMessage(error) ?? (error instanceof Error ? error.message : String(error));
      this.output.appendLine(`[studies] progress of '${study}' in ${studyFile}: ${message}`);
      return { kind: 'unavailable', message };
    }
  }

  /** The import with its progress notification; undefined when it failed or was cancelled (the user was told). */
  private async runImport(
    opened: OpenStudyFile,
    study: StudyModel,
    options: StudyImportOptions,
  ): Promise<ImportReport | undefined> {
    if (this.importing.has(opened.studyFile)) {
      void vscode.window.showWarningMessage(
        `Qrels Studio: an import into ${basename(opened.studyFile)} is running: wait for it to finish (or cancel it)`,
      );
      return undefined;
    }
    this.importing.add(opened.studyFile);
    try {
      const report = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: `Qrels Studio: importing study '${study.name}'`,
          cancellable: true,
        },
        async (progress, token) => {
          const controller = new AbortController();
          const cancelled = token.onCancellationRequested(() => controller.abort());
          try {
            return await importDeclaredSources(opened.database, study, opened.folder, {
              ...options,
              signal: controller.signal,
              onProgress: (message) => progress.report({ message }),
            });
          } finally {
            cancelled.dispose();
          }
        },
      );
      this.output.appendLine(`[studies] imported into '${study.name}' (${opened.studyFile})`);
      this.notifyChanged(opened.studyFile);
      return report;
    } catch (error) {
      if (error instanceof ImportCancelledError) {
        this.output.appendLine(`[studies] import into '${study.name}' cancelled: nothing was written`);
        void vscode.window.showInformationMessage('Qrels Studio: Import cancelled: nothing was written');
        return undefined;
      }
      this.showError(`importing study '${study.name}'`, error);
      return undefined;
    } finally {
      this.importing.delete(opened.studyFile);
    }
  }
}

/** `<folder>/.qrels-studio/<name>.sqlite` (or its `-wal`, `-shm` file) → `<folder>/<name>.assess`. */
function studyFileOfDatabase(file: string): string {
  return join(dirname(dirname(file)), `${basename(file).replace(/\.sqlite(-wal|-shm|-journal)?$/, '')}.assess`);
}

/** A study that names something to import: queries, a corpus, runs to pool or qrels. */
function declaresSources(study: StudyModel): boolean {
  return (
    study.queries !== undefined || study.corpus !== undefined || study.pools.length > 0 || study.imports.length > 0
  );
}

/** The study is in the database and has pairs or documents. */
function hasImported(database: StudyDatabase, study: string): boolean {
  const row = database.db.prepare('SELECT id FROM study WHERE name = ?').get(study) as { id: number } | undefined;
  if (row === undefined) return false;
  return (
    database.db
      .prepare(
        'SELECT EXISTS (SELECT 1 FROM pair WHERE study_id = ?) OR EXISTS (SELECT 1 FROM document WHERE study_id = ?)',
      )
      .pluck()
      .get(row.id, row.id) === 1
  );
}
