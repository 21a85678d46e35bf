// Every lint rule, one line each. Adding a rule: one module in rules/ plus one line here.
import type { LintRule } from './rule.ts';
import { beirHeader } from './rules/beirHeader.ts';
import { byteOrderMark } from './rules/byteOrderMark.ts';
import { columnCount } from './rules/columnCount.ts';
import { commentPlacement } from './rules/commentPlacement.ts';
import { crlfLineEndings } from './rules/crlfLineEndings.ts';
import { diversityQrelsLine } from './rules/diversityQrelsLine.ts';
import { duplicateDocid } from './rules/duplicateDocid.ts';
import { duplicatePair } from './rules/duplicatePair.ts';
import { emptyFile } from './rules/emptyFile.ts';
import { extraColumns } from './rules/extraColumns.ts';
import { fileType } from './rules/fileType.ts';
import { labelOutsideScale } from './rules/labelOutsideScale.ts';
import { missingFinalNewline } from './rules/missingFinalNewline.ts';
import { mixedRunTags } from './rules/mixedRunTags.ts';
import { nonIntegerLabel } from './rules/nonIntegerLabel.ts';
import { noRelevantDocument } from './rules/noRelevantDocument.ts';
import { queryMissingFromRun } from './rules/queryMissingFromRun.ts';
import { rankNotInteger } from './rules/rankNotInteger.ts';
import { rankScoreDisagreement } from './rules/rankScoreDisagreement.ts';
import { scoreNotNumber } from './rules/scoreNotNumber.ts';
import { trailingWhitespace } from './rules/trailingWhitespace.ts';
import { unknownDocument } from './rules/unknownDocument.ts';
import { unknownQuery } from './rules/unknownQuery.ts';
import { unsupportedFormat } from './rules/unsupportedFormat.ts';

export const lintRules: readonly LintRule[] = [
  fileType,
  unsupportedFormat,
  emptyFile,
  columnCount,
  extraColumns,
  nonIntegerLabel,
  diversityQrelsLine,
  scoreNotNumber,
  rankNotInteger,
  duplicatePair,
  duplicateDocid,
  mixedRunTags,
  rankScoreDisagreement,
  noRelevantDocument,
  unknownQuery,
  unknownDocument,
  labelOutsideScale,
  queryMissingFromRun,
  beirHeader,
  commentPlacement,
  byteOrderMark,
  crlfLineEndings,
  missingFinalNewline,
  trailingWhitespace,
];

export function findLintRule(id: string): LintRule | undefined {
  return lintRules.find((rule) => rule.id === id);
}
