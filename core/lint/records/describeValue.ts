// A JSON value named for a message: "a string ('12.5')", "a number (3)", "null", "an array".
import { quote } from './rule.ts';

export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return `a string (${quote(value.length > 40 ? `${value.slice(0, 40)}…` : value)})`;
    case 'number':
      return `a number (${value})`;
    case 'boolean':
      return String(value);
    case 'object':
      return 'an object';
    default:
      return 'nothing';
  }
}
