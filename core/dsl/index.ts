// The study DSL (`*.assess`): parser, checks, cross-file checks and editor services. The CLI, the language
// server and the task database import from here only.
export type {
  BlockNode,
  Expression,
  StatementNode,
  StoreStatement,
  StudyFileAst,
} from './ast.ts';
export type { CheckContext, StudyCheck } from './checks/check.ts';
export { studyChecks } from './checks/registry.ts';
export type { FileCheck } from './fileChecks/fileCheck.ts';
export { resolveStudyPath } from './fileChecks/fileCheck.ts';
export { fileChecks } from './fileChecks/registry.ts';
export { type KeywordDoc, keywordDocs } from './keywords.ts';
export { checkStudyFile, checkStudyFiles, lintStudyText } from './lint.ts';
export {
  type AgreementModel,
  type AspectModel,
  type CorpusModel,
  type DataSourceModel,
  type DeriveExpression,
  type ExportModel,
  evaluateDerive,
  type FileRef,
  type ImportModel,
  type JudgeModel,
  type PoolModel,
  type ReviewModel,
  resolveStudies,
  type ScaleEntryModel,
  type ScaleModel,
  type StoreModel,
  type StudyFileModel,
  type StudyModel,
  storeKey,
  storeOfFile,
} from './model.ts';
export { parseStudyFile } from './parser.ts';
export { type CompletionContext, completionsAt, type DslCompletion } from './services/completion.ts';
export { definitionAt } from './services/definition.ts';
export { type DslSymbol, type DslSymbolKind, documentSymbols } from './services/documentSymbols.ts';
export { formatStudyText } from './services/format.ts';
export { hoverAt } from './services/hover.ts';
export { type DslSemanticToken, semanticTokens } from './services/semanticTokens.ts';
export { lintRunFile, nodeStudyHost, readDataFileFields, type StudyHost } from './studyHost.ts';
export { formatRange, offsetToLineColumn } from './textPosition.ts';
export type { DslDiagnostic, DslFix, DslSeverity, DslTextEdit, ParsedStudyFile, TextRange } from './types.ts';
