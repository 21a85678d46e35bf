// A field name as the study file writes it, resolved in a JSON record: a top-level key first (keys may contain
// dots), else a dotted path into nested objects, as readFieldNames lists BEIR's `metadata.lang`.

export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The keys leading to `name` in `record`, or undefined when the record has no such field. */
export function resolveFieldPath(record: JsonObject, name: string): readonly string[] | undefined {
  if (Object.hasOwn(record, name)) return [name];
  if (!name.includes('.')) return undefined;
  const path = name.split('.');
  let value: unknown = record;
  for (const key of path) {
    if (!isJsonObject(value) || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  return path;
}

/** The value at `path` (from resolveFieldPath). */
export function valueAtPath(record: JsonObject, path: readonly string[]): unknown {
  let value: unknown = record;
  for (const key of path) value = (value as JsonObject)[key];
  return value;
}

/** The value of field `name`, or undefined when absent. */
export function fieldValue(record: JsonObject, name: string): unknown {
  const path = resolveFieldPath(record, name);
  return path === undefined ? undefined : valueAtPath(record, path);
}
