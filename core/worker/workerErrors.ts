// Errors cross the worker boundary as name + message and come back as the same classes, so the CLI's and the
// extension's handling (userError.ts: a StoreError is printed as is, anything else is a bug) sees no difference.
import { FormatError } from '../formats/formatError.ts';
import { FileReadError } from '../formats/lineReader.ts';
import { ImportError } from '../importers/types.ts';
import { MeasureSpecError } from '../metrics/measureSelection.ts';
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
  /** The own fields of an error that carries positions (ImportError's `at`, FormatError's `line`…), as data. */
  fields?: Record<string, unknown>;
}

/**
 * Errors about the user's files, thrown by an import that runs in the worker: they come back as their class with
 * their fields (the extension shows their positioned message as is), rebuilt without calling their constructors.
 */
const positioned: Record<string, abstract new (...args: never[]) => Error> = {
  ImportError,
  FormatError,
  FileReadError,
  MeasureSpecError,
};

/** The error's own enumerable fields that are plain data (positions, strings, numbers). */
function ownFields(error: Error): Record<string, unknown> | undefined {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (key === 'name' || key === 'message' || key === 'stack') continue;
    try {
      fields[key] = structuredClone(value);
    } catch {
      // not data: left behind
    }
  }
  return Object.keys(fields).length > 0 ? fields : undefined;
}

/** The classes that cross by name (some do not set `name`, so it is told here). */
function knownName(error: Error): string | undefined {
  if (error instanceof ImportCancelledError) return 'ImportCancelledError';
  if (error instanceof StoreError) return 'StoreError';
  if (error instanceof SchemaVersionError) return 'SchemaVersionError';
  if (error instanceof NativeBindingMissingError) return 'NativeBindingMissingError';
  if (error instanceof ImportRequestError) return 'ImportRequestError';
  for (const [name, known] of Object.entries(positioned)) {
    if (error instanceof known) return name;
  }
  return undefined;
}

export function serializeError(error: unknown): SerializedError {
  if (error instanceof Error) {
    const { code, reason } = error as { code?: unknown; reason?: unknown };
    const name = knownName(error);
    const fields = name !== undefined && name in positioned ? ownFields(error) : undefined;
    return {
      name: name ?? error.name,
      ...(fields !== undefined ? { fields } : {}),
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
    default: {
      const known = positioned[serialized.name];
      if (known !== undefined) {
        error = Object.create(known.prototype) as Error;
        Object.assign(error, serialized.fields ?? {});
        Object.defineProperty(error, 'message', { value: serialized.message, writable: true, configurable: true });
        Object.defineProperty(error, 'name', { value: serialized.name, writable: true, configurable: true });
      } else {
        error = new Error(serialized.message);
        error.name = serialized.name;
      }
    }
  }
  if (serialized.code !== undefined) (error as { code?: string }).code = serialized.code;
  // The worker's stack says where it failed there; the caller's own stack is lost across the thread anyway.
  if (serialized.stack !== undefined) error.stack = serialized.stack;
  return error;
}
