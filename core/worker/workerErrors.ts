// Errors cross the worker boundary as name + message and come back as the same classes, so the CLI's and the
// extension's handling (userError.ts: a StoreError is printed as is, anything else is a bug) sees no difference.
import { ImportRequestError } from '../store/declaredImport.ts';
import { SchemaVersionError } from '../store/migrate.ts';
import { NativeBindingMissingError } from '../store/sqliteDatabase.ts';
import { ImportCancelledError, StoreError } from '../store/studyDatabase.ts';

export interface SerializedError {
  name: string;
  message: string;
  stack?: string;
  code?: string;
  reason?: string;
}

/** The classes that cross by name (some do not set `name`, so it is told here). */
function knownName(error: Error): string | undefined {
  if (error instanceof ImportCancelledError) return 'ImportCancelledError';
  if (error instanceof StoreError) return 'StoreError';
  if (error instanceof SchemaVersionError) return 'SchemaVersionError';
  if (error instanceof NativeBindingMissingError) return 'NativeBindingMissingError';
  if (error instanceof ImportRequestError) return 'ImportRequestError';
  return undefined;
}

export function serializeError(error: unknown): SerializedError {
  if (error instanceof Error) {
    const { code, reason } = error as { code?: unknown; reason?: unknown };
    return {
      name: knownName(error) ?? error.name,
      message: error.message,
      ...(error.stack !== undefined ? { stack: error.stack } : {}),
      ...(typeof code === 'string' ? { code } : {}),
      ...(typeof reason === 'string' ? { reason } : {}),
    };
  }
  return { name: 'Error', message: String(error) };
}

export function deserializeError(serialized: SerializedError): Error {
  let error: Error;
  switch (serialized.name) {
    case 'StoreError':
      error = new StoreError(serialized.message);
      break;
    case 'ImportCancelledError':
      error = new ImportCancelledError();
      break;
    case 'SchemaVersionError':
      error = new SchemaVersionError(serialized.message);
      break;
    case 'NativeBindingMissingError':
      error = new NativeBindingMissingError(serialized.message);
      break;
    case 'ImportRequestError':
      error = new ImportRequestError(serialized.reason as ImportRequestError['reason'], serialized.message);
      break;
    default:
      error = new Error(serialized.message);
      error.name = serialized.name;
  }
  if (serialized.code !== undefined) (error as { code?: string }).code = serialized.code;
  // The worker's stack says where it failed there; the caller's own stack is lost across the thread anyway.
  if (serialized.stack !== undefined) error.stack = serialized.stack;
  return error;
}
