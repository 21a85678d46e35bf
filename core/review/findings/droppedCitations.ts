// Citations of the source a rewrite dropped: statute and section references ("Section 420 of the Penal Code",
// "§ 12", "Article 5", "Rule 23(b)"), case and paper citations ("Smith et al., 2020", "[12]"), identifiers with
// digits and capitals ("ICD-10", "RFC 2616").
import type { RewriteCheck } from './finding.ts';

const citationPatterns = [
  /\b(?:Section|Sec\.|Article|Art\.|Rule|Chapter|Clause|Paragraph|Title|Act)\s+\d+[A-Za-z]?(?:\(\w+\))*/g,
  /§+\s*\d+[\w.()]*/g,
  /\b[A-Z][\p{L}-]+ et al\.,? \d{4}/gu,
  /\[\d+(?:[,–-]\s*\d+)*\]/g,
  /\b[A-Z]{2,}[- ]?\d+(?:\.\d+)*\b/g,
];

export function citationsIn(text: string): string[] {
  return citationPatterns.flatMap((pattern) => text.match(pattern) ?? []).map((c) => c.replace(/\s+/g, ' '));
}

export const droppedCitations: RewriteCheck = {
  id: 'dropped-citation',
  description: 'a citation of the source (statute section, article, paper reference, code) is missing from the rewrite',
  check(item) {
    const kept = new Set(citationsIn(item.rewrite));
    const missing = [...new Set(citationsIn(item.source))].filter((c) => !kept.has(c));
    return missing.length === 0
      ? []
      : [
          {
            check: 'dropped-citation',
            severity: 'warning',
            message: `the rewrite dropped the citation${missing.length > 1 ? 's' : ''} ${missing.map((c) => `'${c}'`).join(', ')}`,
            terms: missing,
          },
        ];
  },
};
