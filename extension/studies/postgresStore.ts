// The extension's side of `store postgres "name"`: the connection from the user's `qrelsStudio.stores` setting, the
// editor's environment (PG* variables, a URL in the variable `urlEnv` names, ~/.pgpass) and the password stored
// for the name in VS Code's secret storage ("Qrels Studio: Set Store Password"). A PostgreSQL store is async I/O
// already, so it runs in the extension host; its heavy jobs (imports, the Agreement view's report, Evaluate) run
// next to it, in process, behind the same `store.jobs` the SQLite store's worker answers.
import * as vscode from 'vscode';
import { openPostgresStore } from '../../core/store/openPostgresStore.ts';
import type { StoresSettings } from '../../core/store/postgres/connectionConfig.ts';
import { changedStoreNames, ReconnectingStore } from '../../core/store/postgres/reconnectingStore.ts';
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
    judgeBatches: store.judgeBatches,
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

/**
 * Opens PostgreSQL stores by name with the user's settings, environment and stored password. Each store follows
 * them: when its `qrelsStudio.stores` entry changes (changedStoreNames) or its password is set or removed, it
 * connects again with the new ones (ReconnectingStore) — the same store object for the Studies view, the status bar
 * and an open Label view, whose listeners hear one `external` change once it is done. Subscribed at once (before
 * StudyFiles' own recount on the same events), ended with `disposables`.
 */
export function postgresStoreOpener(
  secrets: vscode.SecretStorage,
  output: vscode.OutputChannel,
  disposables?: vscode.Disposable[],
): (storeName: string) => Promise<WorkerStudyStore> {
  const open = new Map<string, Set<ReconnectingStore>>();
  let settings = storesSetting();
  const reconnect = (names: readonly string[], why: string): void => {
    for (const name of names) {
      for (const store of open.get(name) ?? []) {
        output.appendLine(`[stores] store "${name}": ${why}, connecting again`);
        void store.reconnect();
      }
    }
  };
  disposables?.push(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (!event.affectsConfiguration('qrelsStudio.stores')) return;
      const now = storesSetting();
      const changed = changedStoreNames(settings, now);
      settings = now;
      reconnect(changed, 'its qrelsStudio.stores entry changed');
    }),
    secrets.onDidChange((event) => {
      reconnect(
        [...open.keys()].filter((name) => storePasswordKey(name) === event.key),
        'its password was set or removed',
      );
    }),
  );
  return async (storeName) => {
    const store = await ReconnectingStore.open(() =>
      openPostgresStore(storeName, {
        settings: storesSetting(),
        env: process.env,
        secret: async (name) => await secrets.get(storePasswordKey(name)),
        onWarning: (message) => output.appendLine(`[stores] ${message}`),
      }),
    );
    const stores = open.get(storeName) ?? new Set();
    stores.add(store);
    open.set(storeName, stores);
    const inProcess = withInProcessJobs(store);
    return {
      ...inProcess,
      close: async () => {
        stores.delete(store);
        if (stores.size === 0) open.delete(storeName);
        await store.close();
      },
    };
  };
}
