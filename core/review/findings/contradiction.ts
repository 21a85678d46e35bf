// An instruction that contradicts its own table set: a table labelled compliant mentions an entity the instruction
// excludes ("…, excluding the 2008 Beijing Olympics"), so it cannot comply. The entity is matched by its words, not
// as one phrase: a title names the same Games as "2008 Summer Olympics (Beijing)" — every word of the entity, in any
// order, within one title, caption or table row.
import { parseHtmlTable } from '../../judge/promptDocument.ts';
import { excludedEntities } from '../../labelling/highlightTerms.ts';
import { type JsonTable, parseJsonTable } from '../../labelling/jsonTable.ts';
import { containsWords } from './droppedEntities.ts';
import type { InstructionCheck } from './finding.ts';

/** Words an entity's name is built with that name nothing on their own ("the Bank of England"). */
const connectives = new Set(['the', 'a', 'an', 'of', 'and', 'in', 'at', 'de', 'la', 'le', 'van', 'von', 'for', 'on']);

/** The words that identify an entity: its words less connectives; the whole entity when that leaves nothing. */
function entityWords(entity: string): string[] {
  const words = entity.match(/[\p{L}\p{N}]+(?:['’.-][\p{L}\p{N}]+)*/gu) ?? [];
  const named = words.filter((w) => !connectives.has(w.toLowerCase()));
  return named.length > 0 ? named : [entity];
}

/** Whether `segment` names `entity`: each identifying word as a whole word (a plural too), ignoring case. */
export function namesEntity(segment: string, entity: string): boolean {
  return entityWords(entity).every(
    (word) => containsWords(segment, word, true) || (!/s$/i.test(word) && containsWords(segment, `${word}s`, true)),
  );
}

/** A table's text as its rows: an HTML or JSON table parsed (a row per line is not how they are written). */
function rowsOf(text: string): string[] {
  const trimmed = text.trim();
  let table: JsonTable | undefined;
  if (/^<table\b/i.test(trimmed)) table = parseHtmlTable(trimmed);
  else if (/^[[{]/.test(trimmed)) {
    const parsed = parseJsonTable(trimmed);
    if (!('error' in parsed)) table = parsed;
  }
  return table ? [table.header, ...table.rows].map((cells) => cells.join(' | ')) : text.split('\n');
}

export const contradiction: InstructionCheck = {
  id: 'contradiction',
  description: 'a table labelled compliant mentions an entity the instruction excludes',
  check(item) {
    const excluded = excludedEntities(item.instruction);
    return item.tables
      .filter((t) => t.label === 2)
      .flatMap((table) => {
        // One entity is named within one place: a title, a caption, a row of the table's text.
        const segments = [table.title ?? '', table.caption ?? '', ...rowsOf(table.text ?? '')];
        // Whole words, ignoring case: excluding "Java" says nothing of a JavaScript table.
        const found = excluded.filter((e) => segments.some((segment) => namesEntity(segment, e)));
        return found.length === 0
          ? []
          : [
              {
                check: 'contradiction',
                severity: 'warning' as const,
                message: `table '${table.id}' is labelled compliant but mentions ${found.map((e) => `'${e}'`).join(', ')}, which the instruction excludes`,
                terms: found,
              },
            ];
      });
  },
};
