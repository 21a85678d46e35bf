// Every record lint rule, one line each. Adding a rule: one module in rules/ plus one line here.
import type { RecordRule } from './rule.ts';
import { blankLine } from './rules/blankLine.ts';
import { byteOrderMark } from './rules/byteOrderMark.ts';
import { crlfLineEndings } from './rules/crlfLineEndings.ts';
import { crumbRunShape } from './rules/crumbRunShape.ts';
import { csvColumnCount } from './rules/csvColumnCount.ts';
import { csvUnterminatedQuote } from './rules/csvUnterminatedQuote.ts';
import { duplicateHeader } from './rules/duplicateHeader.ts';
import { duplicateId } from './rules/duplicateId.ts';
import { duplicateItem } from './rules/duplicateItem.ts';
import { emptyId } from './rules/emptyId.ts';
import { idType } from './rules/idType.ts';
import { invalidJson } from './rules/invalidJson.ts';
import { missingColumn } from './rules/missingColumn.ts';
import { missingField } from './rules/missingField.ts';
import { missingFinalNewline } from './rules/missingFinalNewline.ts';
import { noRecords } from './rules/noRecords.ts';
import { notAnObject } from './rules/notAnObject.ts';
import { numericId } from './rules/numericId.ts';
import { recordFormat } from './rules/recordFormat.ts';

export const recordRules: readonly RecordRule[] = [
  recordFormat,
  noRecords,
  invalidJson,
  notAnObject,
  blankLine,
  missingField,
  emptyId,
  idType,
  numericId,
  duplicateId,
  csvColumnCount,
  csvUnterminatedQuote,
  duplicateHeader,
  missingColumn,
  crumbRunShape,
  duplicateItem,
  byteOrderMark,
  crlfLineEndings,
  missingFinalNewline,
];

export function findRecordRule(id: string): RecordRule | undefined {
  return recordRules.find((rule) => rule.id === id);
}
