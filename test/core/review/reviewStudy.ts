// A real review for the review tests (core and Chromium): generated instructions and a MultiConIR-style rewrite of
// the Section 420 sentence, a `review` block over them, its record (a store of either kind: a SQLite file beside the
// study, or a fresh database of the test cluster) synced and its items imported.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseStudyFile, resolveStudies } from '../../../core/dsl/index.ts';
import type { ReviewModel } from '../../../core/dsl/model.ts';
import { importReviewItems, type ReviewCommit, ReviewSession } from '../../../core/review/reviewSession.ts';
import { studyDatabasePath } from '../../../core/store/studyDatabase.ts';
import type { StudyStore } from '../../../core/store/studyStore.ts';
import { scratchDir } from '../../helpers.ts';
import { openTestStore, type StoreKind, type TestStoreOptions } from '../../storeKinds.ts';

export const reviewItems = [
  {
    iid: 'i1',
    qid: 'q1',
    type: 'C2',
    generator: 'gpt-5.2',
    instruction: 'Find medal tables, excluding the 2008 Beijing Games.',
  },
  {
    iid: 'i2',
    qid: 'q2',
    type: 'S1',
    generator: 'gpt-5.2',
    instruction: 'Find tables of tall buildings with heights in metres.',
  },
  {
    iid: 'n1',
    qid: 'q3',
    type: 'HN',
    generator: 'gpt-4o',
    instruction: 'The defendant was found guilty of fraud and received a prison sentence.',
    original:
      'The defendant was convicted of fraud under Section 420 of the Penal Code and sentenced to five years in prison.',
  },
];

export interface ReviewStudy {
  folder: string;
  file: string;
  store: StudyStore;
  review: ReviewModel;
  imported: { added: number; changed: number; unchanged: number };
  session(annotator: string): Promise<ReviewSession>;
}

/**
 * The review study file `text` written to `folder` as gen.assess, its record (a store of `kind`: SQLite's file
 * beside the study, or a fresh PostgreSQL database — `postgres.connection`'s, when given) synced and its items
 * imported.
 */
export async function openReviewFile(
  folder: string,
  text: string,
  kind: StoreKind = 'sqlite',
  postgres: Pick<TestStoreOptions, 'connection'> = {},
) {
  const file = join(folder, 'gen.assess');
  writeFileSync(file, text);
  const model = resolveStudies(parseStudyFile(text), file);
  const store: StudyStore = await openTestStore(kind, { file: studyDatabasePath(file), ...postgres });
  await store.studies.sync(model);
  const review = model.reviews[0]!;
  const imported = await importReviewItems(store, review, folder);
  return { file, store, review, imported };
}

/** The review with `statements` added to its block (annotators, blind, a title, …) and `files` beside it. */
export async function createReviewStudy(
  statements = '',
  files: Record<string, string> = {},
  kind: StoreKind = 'sqlite',
): Promise<ReviewStudy> {
  const folder = scratchDir('qrels-studio-review-');
  writeFileSync(join(folder, 'items.jsonl'), reviewItems.map((i) => `${JSON.stringify(i)}\n`).join(''));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
  const text = `review "gen" {
  items "items.jsonl" { id: iid  text: instruction  parent: qid  type: type  model: generator  source: original }
  taxonomy { C2 "Exclusive topic"  S1 "Attribute-centric"  HN "Hard negative" }
  rubric levels excellent acceptable poor { clarity  consistency }
  verdicts accept edit reject
${statements}}
`;
  const { file, store, review, imported } = await openReviewFile(folder, text, kind);
  return {
    folder,
    file,
    store,
    review,
    imported,
    session: (annotator) => ReviewSession.open(store, { studyFile: file, review, annotator }),
  };
}

/** Gives a verdict on the item at `position` as the session shows it now (its id and the version under review). */
export async function verdictOn(
  session: ReviewSession,
  position: number,
  verdict: Omit<ReviewCommit, 'position' | 'itemId' | 'versionId'>,
) {
  const item = (await session.itemAt(position))!;
  return session.commit({ ...verdict, position, itemId: item.itemId, versionId: item.reviewing });
}

/** Every verdict of the review as stored, oldest first, with its item and the version it judged. */
export async function storedVerdicts(store: StudyStore, review = 'gen') {
  const verdicts = (await store.reviews.records(review)).flatMap(({ item, verdicts }) =>
    verdicts.map((v) => ({ ...v, item: item.itemId })),
  );
  return verdicts.sort((a, b) => a.id - b.id);
}

/** Every version of the review's items as stored, oldest first, with its item. */
export async function storedVersions(store: StudyStore, review = 'gen') {
  const versions = (await store.reviews.records(review)).flatMap(({ item, versions }) =>
    versions.map((v) => ({ ...v, item: item.itemId })),
  );
  return versions.sort((a, b) => a.id - b.id);
}
