import type { StudyCheck } from './check.ts';

/**
 * A URL with a password in its user part: `postgres://alice:secret@db/wqt`, `https://u:p@host`. The scheme, the
 * user and the `:` before the password are groups so the fix can cut exactly the password.
 */
const urlWithPassword = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s"'/?#@:]*)(:[^\s"'/?#@]*)@/gi;

export const storePassword: StudyCheck = {
  code: 'store-password',
  severity: 'warning',
  description:
    'A connection URL with a password in a study file: the file is shared (a workspace, a repository), so the ' +
    'password would be too. A password comes from the editor\'s secret storage ("Qrels Studio: Set Store ' +
    'Password"), `PGPASSWORD` or `~/.pgpass`, never from the study file (a password written here is not used).',
  check(context) {
    for (const match of context.text.matchAll(urlWithPassword)) {
      const [, scheme, user, password] = match;
      if (!password || password === ':') continue;
      const start = match.index + scheme!.length + user!.length;
      const range = { start, end: start + password.length };
      context.report({
        range,
        message:
          `expected no password in a study file, found one in the URL \`${scheme}${user}:…@\`: the file is shared, ` +
          'and a password written here is not used — store it with "Qrels Studio: Set Store Password", in ' +
          '`PGPASSWORD` or in `~/.pgpass`',
        fixes: [{ title: 'Remove the password from the URL', edits: [{ range, newText: '' }] }],
      });
    }
  },
};
