// The open documents, kept by vscode-languageserver's TextDocuments, with one addition: each incremental change is
// also reported as whole lines replaced (the lines its range touched before, the lines they became), which is what
// core/lint's IncrementalLint needs to re-check only what an edit touched. A full-text change is reported as such.
import { TextDocuments } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { DocumentLines, LineChange } from '../core/lint/incrementalLint.ts';

export type DocumentChange = { kind: 'lines'; change: LineChange } | { kind: 'full' };

/** Lines `[first, last]` of `document`, without their line breaks. */
function lineTexts(document: TextDocument, first: number, last: number): string[] {
  const lines: string[] = [];
  for (let line = first; line <= last; line++) lines.push(lineText(document, line));
  return lines;
}

/** Line `line` (0-based) of `document` without its line break. */
export function lineText(document: TextDocument, line: number): string {
  const text = document.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } });
  if (text.endsWith('\r\n')) return text.slice(0, -2);
  return text.endsWith('\n') || text.endsWith('\r') ? text.slice(0, -1) : text;
}

/** A document as core/lint's IncrementalLint reads it. */
export function documentLines(document: TextDocument): DocumentLines {
  return { lineCount: document.lineCount, line: (index) => lineText(document, index), text: () => document.getText() };
}

function countLineBreaks(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/** TextDocuments that reports every change, line-wise, to `onChange` (before the content-change event fires). */
export function createDocumentStore(
  onChange: (uri: string, change: DocumentChange) => void,
): TextDocuments<TextDocument> {
  return new TextDocuments<TextDocument>({
    create: (uri, languageId, version, content) => TextDocument.create(uri, languageId, version, content),
    update: (document, changes, version) => {
      for (const change of changes) {
        // A '\r' in the new text may be a lone one (a line break here, not to core/lint): report it as new text.
        if (!('range' in change) || change.text.includes('\r')) {
          TextDocument.update(document, [change], version);
          onChange(document.uri, { kind: 'full' });
          continue;
        }
        // Positions past the end are clamped by the update: take the lines it will really replace.
        const from = document.positionAt(document.offsetAt(change.range.start)).line;
        const to = document.positionAt(document.offsetAt(change.range.end)).line;
        const removed = lineTexts(document, from, to);
        TextDocument.update(document, [change], version);
        const added = lineTexts(document, from, from + countLineBreaks(change.text));
        onChange(document.uri, { kind: 'lines', change: { from, removed, added } });
      }
      return TextDocument.update(document, [], version);
    },
  });
}
