// What a study's documents are when its declaration leaves it open (a Markdown or HTML corpus holds tables in
// FollowTable and documents in CRUMB): tables when every document looked at is one — a JSON table, an HTML body that
// is one <table>, a Markdown pipe table and nothing else. The documents looked at are those the judge will see (the
// study's pairs), at most `sample` of them in pair order, else the corpus's first ones; none: undefined.
import type { CorpusKind } from '../judge/defaultPrompts.ts';
import { isTableDocument } from '../judge/promptDocument.ts';
import type { StudyStore } from './studyStore.ts';

export async function storedCorpusKind(
  store: StudyStore,
  studyName: string,
  sample = 200,
): Promise<CorpusKind | undefined> {
  const rows = await store.studies.sampleDocuments(studyName, sample);
  if (rows.length === 0) return undefined;
  return rows.every((row) => isTableDocument(row.body, row.format)) ? 'tables' : 'documents';
}
