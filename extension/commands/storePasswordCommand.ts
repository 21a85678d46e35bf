// "Qrels Studio: Set Store Password": the password of a PostgreSQL store (`store postgres "name"` in a study file),
// kept per store name in VS Code's secret storage (the OS keychain) — never in settings or a workspace file. An
// empty password removes the stored one (then PGPASSWORD or ~/.pgpass is used, as libpq does).
import * as vscode from 'vscode';
import type { StoresSettings } from '../../core/store/postgres/connectionConfig.ts';

/** The secret storage key of store `storeName`'s password. */
export function storePasswordKey(storeName: string): string {
  return `qrelsStudio.store.${storeName}.password`;
}

/** The store names a study file of the workspace declares (`store postgres "name"`), found by a plain scan. */
async function declaredStoreNames(): Promise<string[]> {
  const names = new Set<string>();
  const files = await vscode.workspace.findFiles('**/*.assess', '**/node_modules/**', 200);
  for (const file of files) {
    try {
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
      for (const match of text.matchAll(/^[ \t]*store[ \t]+postgres[ \t]+"((?:[^"\\\n]|\\.)*)"/gm)) {
        names.add(match[1]!.replace(/\\(["\\])/g, '$1'));
      }
    } catch {
      // An unreadable file names no store.
    }
  }
  return [...names];
}

async function pickStoreName(argument: unknown): Promise<string | undefined> {
  if (typeof argument === 'string' && argument !== '') return argument;
  const configured = Object.keys(vscode.workspace.getConfiguration('qrelsStudio').get<StoresSettings>('stores') ?? {});
  const names = [...new Set([...(await declaredStoreNames()), ...configured])].sort();
  const other = 'Another store name…';
  if (names.length > 0) {
    const picked = await vscode.window.showQuickPick([...names, other], {
      title: 'Qrels Studio: the store whose password to set',
      placeHolder: 'A store name from `store postgres "name"` or the qrelsStudio.stores setting',
    });
    if (picked === undefined || picked !== other) return picked;
  }
  const typed = await vscode.window.showInputBox({
    title: 'Qrels Studio: the store whose password to set',
    prompt: 'The name in `store postgres "name"`',
    validateInput: (value) => (value.trim() === '' ? 'expected a store name' : undefined),
  });
  return typed?.trim();
}

export function registerStorePasswordCommand(context: vscode.ExtensionContext): vscode.Disposable {
  return vscode.commands.registerCommand('qrelsStudio.setStorePassword', async (argument?: unknown) => {
    const storeName = await pickStoreName(argument);
    if (storeName === undefined || storeName === '') return;
    const password = await vscode.window.showInputBox({
      title: `Qrels Studio: password of store "${storeName}"`,
      prompt:
        "Kept in the editor's secret storage, never in a file. Empty: remove it (PGPASSWORD or ~/.pgpass then apply).",
      password: true,
      ignoreFocusOut: true,
    });
    if (password === undefined) return;
    if (password === '') {
      await context.secrets.delete(storePasswordKey(storeName));
      void vscode.window.showInformationMessage(`Qrels Studio: the password of store "${storeName}" was removed`);
      return;
    }
    await context.secrets.store(storePasswordKey(storeName), password);
    void vscode.window.showInformationMessage(
      `Qrels Studio: the password of store "${storeName}" is stored; it applies when the store next connects`,
    );
  });
}
