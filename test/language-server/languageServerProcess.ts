// The built language server (dist/server.cjs) as a real child process, spoken to over stdio with vscode-jsonrpc, as
// an editor would. Diagnostics are awaited as they are published — per document, in the order they come — never
// after a fixed sleep.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createMessageConnection,
  type MessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-jsonrpc/node';
import type {
  InitializeParams,
  InitializeResult,
  PublishDiagnosticsParams,
  TextDocumentContentChangeEvent,
} from 'vscode-languageserver';
import { distDir } from '../helpers.ts';

export const serverBundle = join(distDir, 'server.cjs');

/** How long a test waits for something the server does within milliseconds. */
const waitMs = 10_000;

export interface LanguageServerProcess {
  child: ChildProcessWithoutNullStreams;
  connection: MessageConnection;
  initializeResult: InitializeResult;
  /** Everything the server wrote to stderr so far (for failure messages). */
  stderr(): string;
  open(uri: string, languageId: string, version: number, text: string): void;
  change(uri: string, version: number, changes: TextDocumentContentChangeEvent[]): void;
  save(uri: string): void;
  close(uri: string): void;
  /** The next diagnostics published for `uri` that no earlier call took. */
  nextDiagnostics(uri: string): Promise<PublishDiagnosticsParams>;
  /** Takes published diagnostics for `uri` until one satisfies `accept` (a server re-publishes as indexes load). */
  diagnosticsWhere(
    uri: string,
    accept: (params: PublishDiagnosticsParams) => boolean,
  ): Promise<PublishDiagnosticsParams>;
  /** Sends a request and waits (bounded) for its response. */
  request<R>(method: string, params: unknown): Promise<R>;
  /** Diagnostics published for `uri` that no call has taken yet. */
  untaken(uri: string): PublishDiagnosticsParams[];
  /** shutdown, then exit; resolves with the exit code (or signal) once the process has ended. */
  shutdown(): Promise<number | string | null>;
  /** Resolves with the exit code (or signal) once the process has ended. */
  exited: Promise<number | string | null>;
  /** Kills the process if it is still running (a test that failed half-way); resolves once it has ended. */
  kill(): Promise<void>;
}

/** Starts dist/server.cjs with this Node and `--stdio`, and initializes it (with `workspaceFolder` as its root). */
export async function startLanguageServer(
  options: { workspaceFolder?: string; resolveCodeActionEdits?: boolean } = {},
): Promise<LanguageServerProcess> {
  if (!existsSync(serverBundle)) throw new Error(`${serverBundle} is missing: run \`npm run build\` first`);
  const child = spawn(process.execPath, [serverBundle, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  const connection = createMessageConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );

  const queues = new Map<string, PublishDiagnosticsParams[]>();
  const waiters = new Map<string, ((params: PublishDiagnosticsParams) => void)[]>();
  connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => {
    const waiting = waiters.get(params.uri)?.shift();
    if (waiting) waiting(params);
    else queues.set(params.uri, [...(queues.get(params.uri) ?? []), params]);
  });
  connection.listen();

  const initializeParams: InitializeParams = {
    processId: process.pid,
    rootUri: options.workspaceFolder ? pathToFileURL(options.workspaceFolder).href : null,
    ...(options.workspaceFolder
      ? { workspaceFolders: [{ uri: pathToFileURL(options.workspaceFolder).href, name: 'workspace' }] }
      : {}),
    capabilities: {
      textDocument: {
        synchronization: { didSave: true, dynamicRegistration: false },
        publishDiagnostics: { relatedInformation: true, versionSupport: true },
        ...(options.resolveCodeActionEdits ? { codeAction: { resolveSupport: { properties: ['edit'] } } } : {}),
      },
      general: { positionEncodings: ['utf-16'] },
    },
  };
  const initializeResult = await withTimeout(
    connection.sendRequest<InitializeResult>('initialize', initializeParams),
    'the initialize response',
    () => stderr,
  );
  await connection.sendNotification('initialized', {});

  const server: LanguageServerProcess = {
    child,
    connection,
    initializeResult,
    stderr: () => stderr,
    open(uri, languageId, version, text) {
      void connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version, text } });
    },
    change(uri, version, changes) {
      void connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version },
        contentChanges: changes,
      });
    },
    save(uri) {
      void connection.sendNotification('textDocument/didSave', { textDocument: { uri } });
    },
    close(uri) {
      void connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
    },
    nextDiagnostics(uri) {
      const queued = queues.get(uri)?.shift();
      if (queued) return Promise.resolve(queued);
      const published = new Promise<PublishDiagnosticsParams>((resolve) => {
        waiters.set(uri, [...(waiters.get(uri) ?? []), resolve]);
      });
      return withTimeout(published, `diagnostics for ${uri}`, () => stderr);
    },
    async diagnosticsWhere(uri, accept) {
      for (;;) {
        const params = await server.nextDiagnostics(uri);
        if (accept(params)) return params;
      }
    },
    request(method, params) {
      return withTimeout(connection.sendRequest(method, params), `the ${method} response`, () => stderr);
    },
    untaken(uri) {
      return [...(queues.get(uri) ?? [])];
    },
    async shutdown() {
      await withTimeout(connection.sendRequest('shutdown'), 'the shutdown response', () => stderr);
      await connection.sendNotification('exit');
      const code = await withTimeout(exited, 'the server to exit', () => stderr);
      connection.dispose();
      return code;
    },
    exited,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      connection.dispose();
    },
  };
  return server;
}

function withTimeout<T>(promise: Promise<T>, what: string, stderr: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const printed = stderr();
      reject(new Error(`no ${what} within ${waitMs} ms${printed ? `; server stderr:\n${printed}` : ''}`));
    }, waitMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
