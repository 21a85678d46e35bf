// Lints the open qrels, run and BEIR qrels documents, each with its own core/lint IncrementalLint: the first lint
// reads the whole text, later ones re-check only what the edits since touched. The content decides the file type
// (real qrels end in .txt, .tsv, .trec); the language id decides only where the content cannot tell, and a
// document of another language is linted only when its content is a data file.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { IncrementalLint } from '../core/lint/incrementalLint.ts';
import type { StudyLintContext } from '../core/lint/studyContext.ts';
import { type LintFileType, type LintResult, lintFileTypes } from '../core/lint/types.ts';
import { type DocumentChange, documentLines } from './documentStore.ts';
import { dataLanguages } from './protocol.ts';

/** The lint type a language id stands for (`qrels` → qrels, `trec-run` → run), if it is a data language. */
function languageLintType(languageId: string): LintFileType | undefined {
  return Object.hasOwn(dataLanguages, languageId) ? dataLanguages[languageId as keyof typeof dataLanguages] : undefined;
}

export function isLintFileType(type: string): type is LintFileType {
  return (lintFileTypes as readonly string[]).includes(type);
}

export class DataLinting {
  private readonly engines = new Map<string, IncrementalLint>();
  private readonly studyOf: (uri: string) => StudyLintContext | undefined;

  constructor(studyOf: (uri: string) => StudyLintContext | undefined) {
    this.studyOf = studyOf;
  }

  /** Records an edit of an open document (before it is linted). */
  changed(uri: string, change: DocumentChange): void {
    const engine = this.engines.get(uri);
    if (engine === undefined) return;
    if (change.kind === 'full') engine.invalidate();
    else engine.applyChange(change.change);
  }

  /** The document's findings, or undefined when it is not a qrels, run or BEIR qrels file. */
  lint(document: TextDocument): LintResult | undefined {
    let engine = this.engines.get(document.uri);
    if (engine === undefined) {
      engine = new IncrementalLint(document.uri, languageLintType(document.languageId), this.studyOf(document.uri));
      this.engines.set(document.uri, engine);
    }
    const result = engine.lint(documentLines(document));
    if (!isLintFileType(result.type) && languageLintType(document.languageId) === undefined) return undefined;
    return result;
  }

  /** The study a document is checked against changed (a study file or its data was edited). */
  studiesChanged(): void {
    for (const [uri, engine] of this.engines) engine.setStudy(this.studyOf(uri));
  }

  closed(uri: string): void {
    this.engines.delete(uri);
  }
}
