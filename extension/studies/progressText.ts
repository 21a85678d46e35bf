// The words and numbers the Studies view, the status bar and the commands show for a study's progress and imports.
// Plain functions of core results (no VS Code), with thousands separators: "412 / 2,000 judged".
import type { ImportReport } from '../../core/store/studyDatabase.ts';
import type { AnnotatorProgress, StudyProgress } from '../../core/store/studyProgress.ts';

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** "412 / 2,000 judged". */
export function judgedText(judged: number, total: number): string {
  return `${formatCount(judged)} / ${formatCount(total)} judged`;
}

/** The status bar's "412 / 2,000 judged by you": the annotator's own progress, said to be theirs. */
export function ownJudgedText(judged: number, total: number): string {
  return `${judgedText(judged, total)} by you`;
}

/**
 * A study's line in the Studies view, both numbers saying whose they are: "15 / 19 judged by people · 4 / 19 by you"
 * (pairs with a person's label; pairs `annotator` labelled, of those they have to judge).
 */
export function studyProgressText(progress: StudyProgress, annotator: string): string {
  const own = ownProgress(progress, annotator);
  return `${judgedText(progress.judgedByHumans, progress.pairs)} by people · ${formatCount(own.judged)} / ${formatCount(own.total)} by you`;
}

/** What one annotator has to judge: the pairs assigned to them when the study assigns, else every pair. */
export function annotatorTotal(annotator: Pick<AnnotatorProgress, 'assigned'>, pairs: number): number {
  return annotator.assigned ?? pairs;
}

/** "alice — 200 / 1,000". */
export function annotatorProgressText(annotator: AnnotatorProgress, pairs: number): string {
  return `${annotator.name} — ${formatCount(annotator.judged)} / ${formatCount(annotatorTotal(annotator, pairs))}`;
}

/** The progress of `annotator` (who may not have judged anything yet): judged / assigned, else judged / pairs. */
export function ownProgress(progress: StudyProgress, annotator: string): { judged: number; total: number } {
  const own = progress.annotators.find((a) => a.name === annotator);
  if (own !== undefined) return { judged: own.judged, total: annotatorTotal(own, progress.pairs) };
  const assigns = progress.annotators.some((a) => a.assigned !== null);
  return { judged: 0, total: assigns ? 0 : progress.pairs };
}

/** One line saying what an import did. */
export function importSummary(study: string, report: ImportReport): string {
  const parts: string[] = [];
  const rows = (what: string, counts: ImportReport['queries']) => {
    const total = counts.added + counts.updated + counts.unchanged;
    if (total === 0) return;
    const changed = [
      counts.added > 0 ? `${formatCount(counts.added)} new` : '',
      counts.updated > 0 ? `${formatCount(counts.updated)} updated` : '',
    ].filter((s) => s !== '');
    parts.push(`${formatCount(total)} ${what}${changed.length > 0 ? ` (${changed.join(', ')})` : ''}`);
  };
  rows('queries', report.queries);
  rows('documents', report.documents);
  rows('judgments', report.judgments);
  const pool = report.pools.at(-1);
  if (pool !== undefined) {
    const added = report.pools.reduce((sum, p) => sum + p.added, 0);
    parts.push(
      `${formatCount(pool.pairs)} pairs from ${report.pools.length} run${report.pools.length === 1 ? '' : 's'} (${formatCount(added)} new)`,
    );
  }
  return `imported into '${study}': ${parts.length > 0 ? parts.join(', ') : 'nothing'}`;
}
