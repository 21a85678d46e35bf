// The extension's side of `store postgres "name"`: the connection from the user's `qrelsStudio.stores` setting, the
// editor's environment (PG* variables, a URL in the variable `urlEnv` names, ~/.pgpass) and the password stored
// for the name in VS Code's secret storage ("Qrels Studio: Set Store Password"). A PostgreSQL store is async I/O
// already, so it runs in the extension host; its heavy jobs (imports, the Agreement view's report, Evaluate) run
// next to it, in process, behind the same `store.jobs` the SQLite store's worker answers.
import * as vscode from 'vscode';
import { openPostgresStore } from '../../core/store/openPostgresStore.ts';
import type { StoresSettings } from '../../core/store/postgres/connectionConfig.ts';
import type { StudyStore } from '../../core/store/studyStore.ts';
import { workerJobs } from '../../core/worker/workerJobs.ts';
import type { WorkerStudyStore } from '../../core/worker/workerStudyStore.ts';
import { storePasswordKey } from '../commands/storePasswordCommand.ts';

/** The `qrelsStudio.stores` setting: `{ [storeName]: { host, port, database, user, schema, urlEnv } }`. */
export function storesSetting(): StoresSettings {
  return vscode.workspace.getConfiguration('qrelsStudio').get<StoresSettings>('stores') ?? {};
}

/** `store` with its jobs run in process (the shape of the worker-backed SQLite store). */
export function withInProcessJobs(store: StudyStore): WorkerStudyStore {
  return {
    location: store.location,
    studies: store.studies,
    imports: store.imports,
    labels: store.labels,
    judge: store.judge,
    reviews: store.reviews,
    agreement: store.agreement,
    exports: store.exports,
    onChange: (listener) => store.onChange(listener),
    close: () => store.close(),
    jobs: workerJobs(store),
  };
}

/**
 * Fires when what a PostgreSQL store connects with may have changed: a store password set or removed ("Qrels
 * Studio: Set Store Password") or the `qrelsStudio.stores` setting edited. A store that could not connect (the
 * Studies view's "database unavailable") is tried again then, instead of after the next click or Refresh.
 */
export function storeConnectionChanges(secrets: vscode.SecretStorage): vscode.Event<void> {
  return (listener, thisArgs, disposables) => {
    const fire = () => listener.call(thisArgs);
    const subscription = vscode.Disposable.from(
      // Any of the extension's secrets (the judge's API key too): rare, and a recount is cheap.
      secrets.onDidChange(() => fire()),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('qrelsStudio.stores')) fire();
      }),
    );
    disposables?.push(subscription);
    return subscription;
  };
}

/** Opens PostgreSQL stores by name with the user's settings, environment and stored password. */
export function postgresStoreOpener(
  secrets: vscode.SecretStorage,
  output: vscode.OutputChannel,
): (storeName: string) => Promise<WorkerStudyStore> {
  return async (storeName) => {
    const store = await openPostgresStore(storeName, {
      settings: storesSetting(),
      env: process.env,
      secret: async (name) => await secrets.get(storePasswordKey(name)),
      onWarning: (message) => output.appendLine(`[stores] ${message}`),
    });
    return withInProcessJobs(store);
  };
}
