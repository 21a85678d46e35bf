// The open study files of the window and their records. Opening a study file lints it (errors → a message listing
// them, nothing opened), opens its store (the storage port, its SQLite adapter in a worker thread: no query ever
// blocks the extension host) and syncs its studies into it; a study with nothing imported yet gets its declared
// sources imported (in the worker), under a progress notification whose Cancel leaves the record as it was. Stores
// stay open (one per study file) until the file is deleted or the extension stops; a study file changed on disk is
// re-synced, and what the store reports changed (this window's writes, another process's commits) refreshes the
// views that show progress.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import * as vscode from 'vscode';
import {
  lintStudyText,
  nodeStudyHost,
  parseStudyFile,
  resolveStudies,
  type StoreModel,
  type StudyFileModel,
  type StudyModel,
  storeKey,
  storeOfFile,
} from '../../core/dsl/index.ts';
import type { Progress } from '../../core/labelling/types.ts';
import type { DeclaredImportOptions } from '../../core/store/declaredImport.ts';
import {
  ImportCancelledError,
  type ImportReport,
  StoreError,
  studyDatabasePath,
} from '../../core/store/studyDatabase.ts';
import { type StudyProgress, studyProgress } from '../../core/store/studyProgress.ts';
import { openWorkerStudyStore, type WorkerStudyStore } from '../../core/worker/workerStudyStore.ts';
import { studyErrorsMessage, userErrorMessage } from './userError.ts';
import { studyFileGlob } from './workspaceStudies.ts';

export interface OpenStudyFile {
  /** Absolute path of the `.assess` file. */
  studyFile: string;
  /** Its folder: the studies' relative paths resolve against it. */
  folder: string;
  model: StudyFileModel;
  /** The study file's record (the storage port, in a worker thread; heavy jobs run there: `store.jobs`). */
  store: WorkerStudyStore;
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
  store: WorkerStudyStore;
  /** Which store the file named when it was opened (`sqlite`, `postgres:<name>`): another one needs a new entry. */
  storeKey: string;
  /** Stops the store's change notifications. */
  stopWatching: () => void;
  /** The study file's text as last synced into the database, and its model; none while never synced. */
  synced?: { text: string; model: StudyFileModel };
}

/**
 * A study database created by another process (the CLI's first import in a terminal) for a study file this window
 * has no store of yet: its progress is shown once it appears. Changes to a database with a store come from the
 * store (its own writes, and other processes' commits).
 */
const databaseGlob = '**/.qrels-studio/*.sqlite';
/** When progress is recounted after writes: once they pause `quietMs`, and at the latest `maxWaitMs` after the first. */
interface RefreshPolicy {
  quietMs: number;
  maxWaitMs: number;
}
/**
 * A study file's own record (SQLite): writes come in bursts (label after label, a CLI import's transactions) and
 * progress is recounted once they pause this long. Recounting takes about half a second at a million pairs (in the
 * store's worker, which the next label's commit would wait behind); while labelling, the Label view shows its own
 * progress.
 */
const fileRefresh: RefreshPolicy = { quietMs: 2000, maxWaitMs: Number.POSITIVE_INFINITY };
/**
 * A team's record (PostgreSQL): others label all the time, so writes never pause — progress is recounted at most
 * every second while they go on, within about a second of another annotator's label (the count runs on the server,
 * not in this window's thread).
 */
const teamRefresh: RefreshPolicy = { quietMs: 400, maxWaitMs: 1000 };

/** How often a running import's progress message is asked of the store's worker. */
const importProgressPollMs = 250;

export interface StudyFilesOptions {
  /** The better-sqlite3 binary, or how to find it (asked when the first store opens). */
  nativeBinding: string | (() => string);
  /** The store worker's script: the extension's dist/studyWorker.cjs. */
  workerScript: string;
  /** Opens the PostgreSQL store a study file names (`store postgres "name"`); without it such a file is refused. */
  openPostgres?: (storeName: string) => Promise<WorkerStudyStore>;
  /** Fires when a store's connection may have changed (a password set, the stores setting edited): recount. */
  onDidChangeConnections?: vscode.Event<void>;
}

export class StudyFiles implements vscode.Disposable {
  /** Fires with a study file's path when its studies, imports or labels changed; '' when any may have. */
  readonly onDidChange: vscode.Event<string>;
  /** Fires as a Label view stores or retracts a label (at once, unlike onDidChange, which waits for writes to pause). */
  readonly onDidStoreLabel: vscode.Event<StoredLabel>;
  private readonly output: vscode.OutputChannel;
  private readonly locateNativeBinding: () => string;
  private nativeBinding: string | undefined;
  private readonly workerScript: string;
  private readonly openPostgres: ((storeName: string) => Promise<WorkerStudyStore>) | undefined;
  private readonly entries = new Map<string, Entry>();
  /** Stores being opened (a worker starting), so that two callers share one. */
  private readonly storeOpening = new Map<string, Promise<Entry>>();
  private readonly opening = new Map<string, Promise<OpenStudyFile | undefined>>();
  private readonly progressCache = new Map<string, Promise<StudyProgressState>>();
  private nextImportId = 1;
  private disposed = false;
  /** Study files with an import running: one at a time per database (its staging tables are the connection's). */
  private readonly importing = new Set<string>();
  private readonly changed = new vscode.EventEmitter<string>();
  private readonly stored = new vscode.EventEmitter<StoredLabel>();
  private readonly disposables: vscode.Disposable[] = [];
  private databaseRefresh: ReturnType<typeof setTimeout> | undefined;
  /** When the pending recount must happen at the latest (the first pending write's time + its maxWaitMs). */
  private databaseRefreshLatest = Number.POSITIVE_INFINITY;
  /** Study files whose databases were written since the last refresh. */
  private readonly written = new Set<string>();

  constructor(options: StudyFilesOptions, output: vscode.OutputChannel) {
    const { nativeBinding } = options;
    this.locateNativeBinding = typeof nativeBinding === 'string' ? () => nativeBinding : nativeBinding;
    this.workerScript = options.workerScript;
    this.openPostgres = options.openPostgres;
    this.output = output;
    this.onDidChange = this.changed.event;
    this.onDidStoreLabel = this.stored.event;
    const studyWatcher = vscode.workspace.createFileSystemWatcher(studyFileGlob);
    // Only a database appearing: changes to it come from its store.
    const databaseWatcher = vscode.workspace.createFileSystemWatcher(databaseGlob, false, true, true);
    this.disposables.push(
      this.changed,
      this.stored,
      studyWatcher,
      studyWatcher.onDidCreate((uri) => this.notifyChanged(uri.fsPath)),
      studyWatcher.onDidChange((uri) => void this.resync(uri.fsPath)),
      studyWatcher.onDidDelete((uri) => this.forget(uri.fsPath)),
      databaseWatcher,
      databaseWatcher.onDidCreate((uri) => this.labelsChanged(studyFileOfDatabase(uri.fsPath))),
    );
    // A store that could not connect is tried again (progress counted anew) once its connection may work.
    if (options.onDidChangeConnections) this.disposables.push(options.onDidChangeConnections(() => this.refresh()));
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
  progress(studyFile: string, study: string): Promise<StudyProgressState> {
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
  labelsChanged(studyFile: string, policy: RefreshPolicy = fileRefresh): void {
    const now = Date.now();
    this.written.add(resolve(studyFile));
    this.databaseRefreshLatest = Math.min(this.databaseRefreshLatest, now + policy.maxWaitMs);
    clearTimeout(this.databaseRefresh);
    this.databaseRefresh = setTimeout(
      () => {
        this.databaseRefresh = undefined;
        this.databaseRefreshLatest = Number.POSITIVE_INFINITY;
        for (const written of this.written) this.notifyChanged(written);
        this.written.clear();
      },
      Math.max(0, Math.min(now + policy.quietMs, this.databaseRefreshLatest) - now),
    );
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
    this.disposed = true;
    clearTimeout(this.databaseRefresh);
    for (const disposable of this.disposables) disposable.dispose();
    for (const entry of this.entries.values()) this.close(entry);
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
      if (!declaresSources(study) || (await opened.store.studies.hasImported(study.name))) continue;
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
    const known = this.entries.get(studyFile);
    if (known?.synced?.text === text) return this.openStudyFile(studyFile, known, known.synced.model);
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
    let entry = await this.entryOf(studyFile, model.store);
    if (entry.storeKey !== storeKey(model.store)) {
      // The file's `store` statement changed: its studies live elsewhere now.
      this.close(entry);
      this.entries.delete(studyFile);
      entry = await this.entryOf(studyFile, model.store);
    }
    await entry.store.studies.sync(model);
    entry.synced = { text, model };
    this.notifyChanged(studyFile);
    return this.openStudyFile(studyFile, entry, model);
  }

  private openStudyFile(studyFile: string, entry: Entry, model: StudyFileModel): OpenStudyFile {
    return { studyFile, folder: dirname(studyFile), model, store: entry.store };
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
    const entry = this.entries.get(key);
    if (entry !== undefined) this.close(entry);
    this.entries.delete(key);
    this.notifyChanged(key);
  }

  private close(entry: Entry): void {
    entry.stopWatching();
    entry.store
      .close()
      .catch((error: unknown) => this.output.appendLine(`[studies] closing a store: ${String(error)}`));
  }

  /**
   * The study file's store: open, or opened now (its worker started; one per study file however many ask), where
   * `store` says — or, without it, where the file on disk says.
   */
  private entryOf(studyFile: string, store?: StoreModel): Promise<Entry> {
    const known = this.entries.get(studyFile);
    if (known !== undefined) return Promise.resolve(known);
    let pending = this.storeOpening.get(studyFile);
    if (pending === undefined) {
      pending = this.openEntry(studyFile, store).finally(() => this.storeOpening.delete(studyFile));
      this.storeOpening.set(studyFile, pending);
    }
    return pending;
  }

  private async openEntry(studyFile: string, declared?: StoreModel): Promise<Entry> {
    const where = declared ?? (await this.storeOfStudyFile(studyFile));
    let store: WorkerStudyStore;
    if (where.kind === 'postgres') {
      // A PostgreSQL store is async I/O already: it runs here, its jobs next to it (studies/postgresStore.ts).
      if (this.openPostgres === undefined) throw new StoreError('PostgreSQL stores are not available here');
      store = await this.openPostgres(where.name);
    } else {
      this.nativeBinding ??= this.locateNativeBinding();
      store = await openWorkerStudyStore(studyDatabasePath(studyFile), {
        nativeBinding: this.nativeBinding,
        workerScript: this.workerScript,
      });
    }
    if (this.disposed) {
      await store.close();
      throw new Error('the extension is stopping');
    }
    // Writes by this window and commits by anyone else (a CLI import, another window): progress is recounted once
    // they pause — on a team's record, at least every second while they go on.
    const policy = where.kind === 'postgres' ? teamRefresh : fileRefresh;
    const stopWatching = store.onChange(() => this.labelsChanged(studyFile, policy));
    const entry: Entry = { store, storeKey: storeKey(where), stopWatching };
    this.entries.set(studyFile, entry);
    return entry;
  }

  /** Where the study file on disk says its record lives (its `store` statement; SQLite without one). */
  private async storeOfStudyFile(studyFile: string): Promise<StoreModel> {
    return storeOfFile(parseStudyFile(await readFile(studyFile, 'utf8')).ast);
  }

  private async countProgress(studyFile: string, study: string): Promise<StudyProgressState> {
    try {
      let entry = this.entries.get(studyFile);
      if (entry === undefined) {
        const where = await this.storeOfStudyFile(studyFile);
        if (where.kind === 'sqlite' && !existsSync(studyDatabasePath(studyFile))) return { kind: 'not imported' };
        entry = await this.entryOf(studyFile);
      }
      if (!(await entry.store.studies.hasImported(study))) return { kind: 'not imported' };
      return { kind: 'progress', progress: await studyProgress(entry.store, study) };
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
          // The import runs in the store's worker (it reads the files there); its progress is asked for while it
          // runs, and Cancel stops it there at its next batch.
          const importId = `import-${this.nextImportId++}`;
          const { store } = opened;
          const cancelled = token.onCancellationRequested(() => void store.jobs.cancelImport(importId).catch(() => {}));
          let shown: string | undefined;
          const poll = setInterval(() => {
            store.jobs.importProgress(importId).then(
              (message) => {
                if (message === undefined || message === shown) return;
                shown = message;
                progress.report({ message });
              },
              () => {},
            );
          }, importProgressPollMs);
          try {
            return await store.jobs.importDeclared({ importId, study, folder: opened.folder, options });
          } finally {
            clearInterval(poll);
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
