// What a study's documents are when its declaration leaves it open (a Markdown or HTML corpus holds tables in
// FollowTable and documents in CRUMB): tables when every document looked at is one — a JSON table, an HTML body that
// is one <table>, a Markdown pipe table and nothing else. The documents looked at are those the judge will see (the
// study's pairs), at most `sample` of them in pair order, else the corpus's first ones; none: undefined.
import type { CorpusKind } from '../judge/defaultPrompts.ts';
import { isTableDocument } from '../judge/promptDocument.ts';
import type { DocumentFormat } from '../labelling/types.ts';
import type { StudyDatabase } from './studyDatabase.ts';

export function storedCorpusKind(database: StudyDatabase, studyName: string, sample = 200): CorpusKind | undefined {
  const studyId = database.studyId(studyName);
  let rows = database.db
    .prepare(
      `SELECT d.body, d.format FROM (SELECT docid FROM pair WHERE study_id = ? GROUP BY docid ORDER BY min(id) LIMIT ?) AS p
       JOIN document AS d ON d.study_id = ? AND d.docid = p.docid`,
    )
    .all(studyId, sample, studyId) as { body: string; format: DocumentFormat }[];
  if (rows.length === 0) {
    rows = database.db
      .prepare('SELECT body, format FROM document WHERE study_id = ? ORDER BY id LIMIT ?')
      .all(studyId, sample) as { body: string; format: DocumentFormat }[];
  }
  if (rows.length === 0) return undefined;
  return rows.every((row) => isTableDocument(row.body, row.format)) ? 'tables' : 'documents';
}
