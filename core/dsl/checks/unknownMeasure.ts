import { measureNameProblem } from '../../metrics/measureNames.ts';
import { findNamedMeasureFamily } from '../../metrics/namedMeasures.ts';
import { statementsOf } from '../ast.ts';
import { eachBlock, type StudyCheck } from './check.ts';

export const unknownMeasure: StudyCheck = {
  code: 'unknown-measure',
  severity: 'error',
  description:
    'Each name in `measures` must be one the Evaluate view computes: a trec_eval measure as `eval -m` takes it ' +
    '(map, "ndcg_cut.10") or a named measure ("err@20", "rbp@0.8"). Diversity measures (ndeval\'s) need subtopics, ' +
    "which a study's labels do not have.",
  check(context) {
    eachBlock(context, (block, report) => {
      for (const statement of statementsOf(block, 'measures')) {
        const seen = new Set<string>();
        for (const name of statement.names) {
          if (seen.has(name.text)) {
            report({ range: name.range, message: `measure '${name.text}' is listed twice`, severity: 'warning' });
            continue;
          }
          seen.add(name.text);
          const problem = measureNameProblem(name.text);
          if (problem) {
            const close = problem.suggestions;
            // A name with `.` or `@`, or one written quoted, is replaced by a string.
            const written = (w: string) =>
              context.text[name.range.start] === '"' || /[^\p{L}\p{N}_-]/u.test(w) ? JSON.stringify(w) : w;
            report({
              range: name.range,
              message:
                problem.message +
                (close.length > 0 ? `; did you mean ${close.map((w) => `\`${w}\``).join(' or ')}?` : ''),
              ...(close.length > 0 && {
                fixes: close.map((w) => ({
                  title: `Replace \`${name.text}\` with \`${w}\``,
                  edits: [{ range: name.range, newText: written(w) }],
                })),
              }),
            });
            continue;
          }
          const family = findNamedMeasureFamily(name.text.split('@', 1)[0]!);
          if (family?.diversity) {
            report({
              range: name.range,
              message:
                `'${name.text}' is a diversity measure (${family.tool}'s ${family.toolName}): it needs diversity ` +
                "qrels (topic subtopic docno grade), and a study's labels have no subtopics — evaluate it with " +
                '`qrels-studio eval --as ndeval` on diversity qrels',
            });
          }
        }
      }
    });
  },
};
