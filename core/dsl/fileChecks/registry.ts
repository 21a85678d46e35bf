// Every cross-file check, one line each. Adding one: a module in this folder plus one line here.
import { dataFileUnreadable } from './dataFileUnreadable.ts';
import type { FileCheck } from './fileCheck.ts';
import { fileNotFound } from './fileNotFound.ts';
import { promptVariable } from './promptVariable.ts';
import { runFileInvalid } from './runFileInvalid.ts';
import { unknownField } from './unknownField.ts';

export const fileChecks: readonly FileCheck[] = [
  fileNotFound,
  dataFileUnreadable,
  unknownField,
  runFileInvalid,
  promptVariable,
];
