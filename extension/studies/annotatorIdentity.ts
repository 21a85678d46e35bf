// Who is labelling: the `qrelsStudio.annotator` setting, trimmed, or the OS user name when it is empty. Kept apart
// from settings.ts (which reads VS Code's configuration) so that the rules are plain functions.
import { userInfo } from 'node:os';

/** The OS user name; the environment's when the OS cannot say (no passwd entry in some containers). */
export function osUserName(): string {
  try {
    const name = userInfo().username.trim();
    if (name !== '') return name;
  } catch {
    // userInfo() throws when the uid has no passwd entry.
  }
  return (process.env.USER ?? process.env.USERNAME ?? '').trim() || 'annotator';
}

/** The annotator a configured value names: the value trimmed, or the OS user name when it is empty or not text. */
export function effectiveAnnotatorName(configured: unknown, fallback: () => string = osUserName): string {
  const name = typeof configured === 'string' ? configured.trim() : '';
  return name === '' ? fallback() : name;
}

/** Why `name` cannot be a person's annotator id, or undefined when it can. */
export function annotatorNameProblem(name: string): string | undefined {
  const trimmed = name.trim();
  if (trimmed === '') return 'expected a name (empty means your OS user name: clear the setting instead)';
  // The store tells LLM judges from people by this prefix (core/store: `llm:<model>@<prompt-hash>`).
  if (trimmed.startsWith('llm:')) return "'llm:' names LLM judges; a person's id cannot start with it";
  if (/[\s,"]/.test(trimmed)) return 'expected a name without spaces, commas or quotes (it is an id in label files)';
  return undefined;
}
