import { type AspectStatement, type BlockNode, statementsOf } from '../ast.ts';
import { deriveRange, isYesNoForm } from '../deriveRange.ts';
import { eachBlock, listWords, type StudyCheck } from './check.ts';

/** Each graded aspect's levels (`aspect NAME "…" levels 0 1 2`) in `block`. */
export function gradedAspects(block: BlockNode): Map<string, number[]> {
  return new Map(
    statementsOf(block, 'aspect').flatMap((a: AspectStatement) =>
      a.name && a.levels && a.levels.length > 0
        ? [[a.name.text, a.levels.map((l) => l.value).filter(Number.isFinite)] as [string, number[]]]
        : [],
    ),
  );
}

/** At most this many values of a range are listed one by one. */
const maxListed = 6;

export const deriveValues: StudyCheck = {
  code: 'derive-value',
  severity: 'error',
  description:
    'Every value `derive label = …` can produce must be a value of the scale (a yes/no result gives 1 or 0; ' +
    'sums, products, `count(…)` and graded aspects give the range interval arithmetic finds), and `label` is ' +
    'the only thing derive computes. A range the study cannot bound (`count(conditions)`) is `derive-unbounded`.',
  check(context) {
    eachBlock(context, (block, report) => {
      const scale = statementsOf(block, 'scale')[0];
      const values = scale ? scale.entries.map((e) => e.value.value).filter(Number.isFinite) : [];
      const graded = gradedAspects(block);
      for (const derive of statementsOf(block, 'derive')) {
        if (derive.target && derive.target.text !== 'label') {
          report({
            range: derive.target.range,
            message: `expected \`label\` after \`derive\` (the only derived value), found \`${derive.target.text}\``,
            fixes: [{ title: 'Derive `label`', edits: [{ range: derive.target.range, newText: 'label' }] }],
          });
        }
        if (!derive.expression || !scale) continue;
        const shown = listWords(values.map(String), false);
        for (const { node, range } of deriveRange(derive.expression, graded).results) {
          if (node.kind === 'number') {
            if (!Number.isFinite(node.value) || values.includes(node.value)) continue;
            report({ range: node.range, message: `${node.value} is not a scale value: expected one of ${shown}` });
          } else if (isYesNoForm(node, graded)) {
            const missing = [1, 0].filter((v) => !values.includes(v));
            if (missing.length === 0) continue;
            report({
              range: node.range,
              message: `this yes/no result gives 1 or 0, but ${listWords(missing.map(String), false)} ${missing.length === 1 ? 'is' : 'are'} not a scale value (${shown}): expected \`? VALUE : VALUE\``,
            });
          } else {
            // Unbounded ends are derive-unbounded's; the finite part of the range is checked here.
            const low = Number.isFinite(range.min) ? range.min : Math.min(...values);
            const high = Number.isFinite(range.max) ? range.max : Math.max(...values);
            const outside: number[] = [];
            for (let v = low; v <= high && outside.length <= maxListed; v++) if (!values.includes(v)) outside.push(v);
            if (outside.length === 0) continue;
            const listed =
              outside.length > maxListed
                ? `${outside.slice(0, maxListed).join(', ')}, …`
                : listWords(outside.map(String), false);
            report({
              range: node.range,
              message:
                `this can give ${shownRange(range)}, but ${listed} ${outside.length === 1 ? 'is not a scale value' : 'are not scale values'} ` +
                `(${shown}): expected a rule whose every value is on the scale (cap it with \`? :\`)`,
            });
          }
        }
      }
    });
  },
};

/** `0 to 5`, `0 or more`. */
export function shownRange(range: { min: number; max: number }): string {
  if (range.min === range.max) return String(range.min);
  if (!Number.isFinite(range.max)) return Number.isFinite(range.min) ? `${range.min} or more` : 'any number';
  if (!Number.isFinite(range.min)) return `${range.max} or less`;
  return `${range.min} to ${range.max}`;
}
