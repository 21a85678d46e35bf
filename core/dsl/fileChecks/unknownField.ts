import { type NameNode, type SourceKind, sourceStatements, statementOf } from '../ast.ts';
import { closestWords, editDistance } from '../editDistance.ts';
import { documentFormats } from '../keywords.ts';
import { existingReferences, type FileCheck, type FileCheckContext } from './fileCheck.ts';

const fieldsShown = 12;

function listFields(fields: readonly string[]): string {
  if (fields.length === 0) return 'none';
  const shown = fields.slice(0, fieldsShown).join(', ');
  return fields.length > fieldsShown ? `${shown}, …` : shown;
}

/** Fixes offered when no field is a likely misspelling: at most this many, the nearest. */
const nearestShown = 3;

/**
 * The fields to offer for an unknown one. Within two edits: a misspelling ("did you mean"). Otherwise a field
 * named as the role is the likeliest (`text: question` where the file has `text`); else the nearest by edit
 * distance (`text: question` where it has `qid` and `query`: `query`), ties kept, at most three.
 */
function candidates(
  field: string,
  role: string | undefined,
  fields: readonly string[],
): { close: boolean; words: string[] } {
  const close = closestWords(field, fields);
  if (close.length > 0) return { close: true, words: close };
  if (role !== undefined && fields.includes(role)) return { close: false, words: [role] };
  const limit = Math.max(field.length, ...fields.map((f) => f.length));
  const distance = new Map(fields.map((f) => [f, editDistance(field.toLowerCase(), f.toLowerCase(), limit)]));
  const best = Math.min(...distance.values());
  return { close: false, words: fields.filter((f) => distance.get(f) === best).slice(0, nearestShown) };
}

function reportUnknown(
  context: FileCheckContext,
  field: NameNode,
  role: string | undefined,
  path: string,
  fields: readonly string[],
): void {
  const { close, words } = candidates(field.text, role, fields);
  // A field written as a string keeps its quotes in the fix; a bare name stays bare when it can.
  const quoted = context.text[field.range.start] === '"';
  const spell = (w: string) => (quoted || !/^[\p{L}_][\p{L}\p{N}_-]*$/u.test(w) ? JSON.stringify(w) : w);
  const listed = words.map((w) => `'${w}'`).join(' or ');
  const hint = words.length === 0 ? '' : close ? `; did you mean ${listed}?` : `; the nearest: ${listed}`;
  context.report({
    range: field.range,
    message: `field '${field.text}' is not in ${path} (its fields: ${listFields(fields)})${hint}`,
    ...(words.length > 0 && {
      fixes: words.map((w) => ({ title: `Use field '${w}'`, edits: [{ range: field.range, newText: spell(w) }] })),
    }),
  });
}

export const unknownField: FileCheck = {
  code: 'unknown-field',
  severity: 'error',
  description:
    'A mapped field (`id: qid`) or the `conditions from` field is not a field of the data file (its JSONL keys or ' +
    'its CSV/TSV header).',
  async check(context) {
    const existing = new Set((await existingReferences(context, ['queries', 'corpus', 'items'])).map((r) => r.path));
    for (const block of context.file.blocks) {
      const fieldsBySource = new Map<SourceKind, string[]>();
      for (const source of sourceStatements(block)) {
        if (!source.path || !existing.has(source.path)) continue;
        const answer = await context.readFields(context.resolve(source.path.value));
        if ('problem' in answer) continue;
        fieldsBySource.set(source.kind, answer.fields);
        for (const mapping of source.mappings) {
          const isFormat = source.kind === 'corpus' && mapping.role.text === 'format';
          // `format: html` is a format; any other `format:` value is the field holding each record's format.
          if (!mapping.value || (isFormat && documentFormats.includes(mapping.value.text))) continue;
          if (answer.fields.includes(mapping.value.text)) continue;
          reportUnknown(context, mapping.value, mapping.role.text, source.path.value, answer.fields);
        }
      }
      const conditions = statementOf(block, 'conditions');
      const queries = statementOf(block, 'queries');
      const queryFields = fieldsBySource.get('queries');
      if (conditions?.field && queries?.path && queryFields) {
        const isRole = queries.mappings.some((m) => m.role.text === conditions.field!.text);
        if (!isRole && !queryFields.includes(conditions.field.text)) {
          reportUnknown(context, conditions.field, undefined, queries.path.value, queryFields);
        }
      }
    }
  },
};
