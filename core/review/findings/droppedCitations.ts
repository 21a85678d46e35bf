// Citations of the source a rewrite dropped: statute and section references ("Section 420 of the Penal Code",
// "§ 12", "Article 5", "Rule 23(b)"), case and paper citations ("Smith et al., 2020", "[12]"), identifiers with
// digits and capitals ("ICD-10", "RFC 2616").
import type { RewriteCheck } from './finding.ts';

const citationPatterns = [
  /\b(?:section|sec\.|article|art\.|rule|chapter|clause|paragraph|title|act)\s+\d+[a-z]?(?:\(\w+\))*/gi,
  /§+\s*\d+(?:[\w.()]*[\w)])?/g,
  // Not \b: it knows ASCII letters only, and "Özdemir et al. 2020" starts with another.
  /(?<![\p{L}\p{N}])\p{Lu}[\p{L}-]+ et al\.,? (?:\d{4}|\(\d{4}[a-z]?\))/gu,
  /(?<![\p{L}\p{N}])\p{Lu}[\p{L}-]+(?: (?:and|&) \p{Lu}[\p{L}-]+)? \(\d{4}[a-z]?\)/gu,
  /\[\d+(?:[,–-]\s*\d+)*\]/g,
  /\b[A-Z]{2,}[- ]?\d+(?:\.\d+)*\b/g,
];

/** The citations of a text as written (spaces normalised); compared ignoring case ("section 420" is "Section 420"). */
export function citationsIn(text: string): string[] {
  return citationPatterns.flatMap((pattern) => text.match(pattern) ?? []).map((c) => c.replace(/\s+/g, ' '));
}

export const droppedCitations: RewriteCheck = {
  id: 'dropped-citation',
  description: 'a citation of the source (statute section, article, paper reference, code) is missing from the rewrite',
  check(item) {
    const kept = new Set(citationsIn(item.rewrite).map((c) => c.toLowerCase()));
    const missing = [...new Set(citationsIn(item.source))].filter((c) => !kept.has(c.toLowerCase()));
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
