// Lints files the editor does not hand over: VS Code keeps documents over 50 MB from extensions (a 1M-line run is
// ~55 MB), so the client names such a file (protocol.ts `lintFileOnDisk`) when it is opened or saved, and the
// server lints it from disk with the streaming linters core/lint uses in the CLI, then publishes its diagnostics.
// Positions need the text of the lines they point at (columns are UTF-16 in LSP): a second streaming pass reads
// just those lines.
import type { PublishDiagnosticsParams } from 'vscode-languageserver';
import { recordFileByName } from '../core/data/recordFormat.ts';
import { FileReadError, readLines } from '../core/formats/lineReader.ts';
import { lintFile } from '../core/lint/lintFile.ts';
import { lintRecordFile } from '../core/lint/records/lintRecordFile.ts';
import type { LintResult } from '../core/lint/types.ts';
import { isLintFileType } from './dataLinting.ts';
import { LineTextPositions, selectPublished, toLspDiagnosticsAt } from './diagnostics.ts';
import type { StudyWorkspace } from './studyWorkspace.ts';
import { uriToPath } from './studyWorkspace.ts';

export class DiskLinting {
  private readonly workspace: StudyWorkspace;
  private readonly publish: (params: PublishDiagnosticsParams) => void;
  /** The lint running per uri: a newer request waits for it, then runs (a save during a lint is not lost). */
  private readonly running = new Map<string, Promise<void>>();

  private readonly log: (message: string) => void;

  constructor(
    workspace: StudyWorkspace,
    publish: (params: PublishDiagnosticsParams) => void,
    log: (message: string) => void,
  ) {
    this.workspace = workspace;
    this.publish = publish;
    this.log = log;
  }

  /** The files linted from disk and not closed since: a change to their study lints them again. */
  private readonly open = new Set<string>();

  /** The client closed the file: its diagnostics go. */
  closed(uri: string): void {
    this.open.delete(uri);
    void this.lint(uri, true);
  }

  /** Lints every file linted from disk again (their study changed, or an index it reads finished loading). */
  studiesChanged(): void {
    for (const uri of this.open) void this.lint(uri);
  }

  lint(uri: string, clear = false): Promise<void> {
    if (!clear) this.open.add(uri);
    const previous = this.running.get(uri) ?? Promise.resolve();
    const next = previous
      .then(() => (clear ? this.publish({ uri, diagnostics: [] }) : this.lintNow(uri)))
      .catch((error: unknown) =>
        this.log(`linting ${uri} from disk failed: ${error instanceof Error ? error.stack : error}`),
      );
    this.running.set(uri, next);
    void next.finally(() => {
      if (this.running.get(uri) === next) this.running.delete(uri);
    });
    return next;
  }

  private async lintNow(uri: string): Promise<void> {
    const path = uriToPath(uri);
    if (path === undefined) return;
    let result: LintResult;
    try {
      const byName = recordFileByName(path);
      result =
        byName === 'records'
          ? { file: uri, type: 'unknown', diagnostics: [] }
          : await lintFile(path, { name: uri, study: this.workspace.studyContextFor(uri) });
      if (byName !== undefined && !isLintFileType(result.type)) {
        const records = await lintRecordFile(path, { file: uri });
        result = { file: uri, type: 'unknown', diagnostics: records.diagnostics };
      } else if (!isLintFileType(result.type)) {
        // Not a data file after all (a large log named .txt): as for an open document, nothing to say.
        result = { file: uri, type: result.type, diagnostics: [] };
      }
    } catch (error) {
      if (error instanceof FileReadError) {
        this.publish({ uri, diagnostics: [] });
        return;
      }
      throw error;
    }
    // The lines the published diagnostics (and their related positions, and the summary's) point at.
    const { shown, hidden } = selectPublished(result.diagnostics);
    const wanted = new Set<number>();
    for (const d of hidden.length > 0 ? [...shown, hidden[0]!] : shown) {
      wanted.add(d.line);
      wanted.add(d.endLine);
      if (d.related) wanted.add(d.related.line);
    }
    const lines = new Map<number, string>();
    const decoder = new TextDecoder();
    const last = Math.max(0, ...wanted);
    try {
      if (wanted.size > 0) {
        await readLines(path, (bytes, start, end, number) => {
          if (wanted.has(number)) lines.set(number, decoder.decode(bytes.subarray(start, end)));
          return number < last;
        });
      }
    } catch (error) {
      // Deleted or unreadable since the lint: nothing to show for it.
      if (!(error instanceof FileReadError)) throw error;
      this.publish({ uri, diagnostics: [] });
      return;
    }
    this.publish({ uri, diagnostics: toLspDiagnosticsAt(uri, result, new LineTextPositions(lines)) });
  }
}
