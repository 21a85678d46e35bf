// Lints an editor document with core/lint, as the CLI lints a file: the content decides the file type (real qrels
// end in .txt, .tsv, .trec, so a name or a language id is a hint, not a fact). The document's language id decides
// only where the content cannot tell — a file being typed, or one so malformed that detection gives up — so that
// a `.qrels` document gets the qrels rules' errors line by line instead of "cannot tell what kind of file this is".
// A document in any other language is linted only when its content detects as a data file.
import { lintText } from '../core/lint/lintText.ts';
import { type LintFileType, type LintResult, lintFileTypes } from '../core/lint/types.ts';
import { dataLanguages } from './protocol.ts';

/** What of an editor document the linter needs (a vscode-languageserver-textdocument TextDocument has it). */
export interface LintableDocument {
  readonly uri: string;
  readonly languageId: string;
  getText(): string;
}

/** The lint type a language id stands for (`qrels` → qrels, `trec-run` → run), if it is a data language. */
export function languageLintType(languageId: string): LintFileType | undefined {
  return Object.hasOwn(dataLanguages, languageId) ? dataLanguages[languageId as keyof typeof dataLanguages] : undefined;
}

/** The document's lint result, or undefined when it is not a data file (another language, content not detected). */
export function lintDocument(document: LintableDocument): LintResult | undefined {
  const text = document.getText();
  // Detection reads only the first lines; a file it cannot place stops there, so a second pass costs little.
  const detected = lintText(text, undefined, document.uri);
  const declared = languageLintType(document.languageId);
  if (declared === undefined) return isLintFileType(detected.type) ? detected : undefined;
  if (detected.type === 'unknown') return lintText(text, declared, document.uri);
  return detected;
}

function isLintFileType(type: string): type is LintFileType {
  return (lintFileTypes as readonly string[]).includes(type);
}
