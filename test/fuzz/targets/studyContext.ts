// A study context for the study-aware lint rules (unknown query, unknown document, label outside the scale): ids
// are "known" by a cheap arbitrary test, so fuzzed files hit both answers.
import type { StudyLintContext } from '../../../core/lint/studyContext.ts';

export const fuzzStudy: StudyLintContext = {
  name: "study 'fuzz'",
  queries: { source: 'data/queries.jsonl', has: (id) => id.length % 3 !== 0 },
  corpus: { source: 'data/corpus.jsonl', has: (id) => !id.includes('1') },
  scaleValues: [0, 1, 2],
};
