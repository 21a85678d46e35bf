// What both adapters of the reviews port share, backend-independent: a review_item row and a review_verdict row as
// either driver returns them, mapped to the port's types, and the refusals of a verdict. The SQL stays in each
// adapter (core/store/sqlite/sqliteReviews.ts, core/store/postgres/postgresReviews.ts).
import type { VerdictRecord } from '../../review/reviewOutcome.ts';
import type { CriticItem, ReviewItemRow, ReviewTableDocument } from '../port/reviewsPort.ts';
import { StoreError } from '../studyDatabase.ts';

export interface RawItem {
  id: number;
  item_id: string;
  parent_id: string | null;
  type: string | null;
  model: string | null;
  metadata: string | null;
}

export type RawVerdict = Omit<VerdictRecord, 'rubric'> & { rubric: string | null };

/** A row of an item's table set, joined to its document. */
export interface RawTableEntry {
  id: string;
  label: number;
  title: string | null;
  text: string | null;
}

/** A critic's item: the item, its parent's text, and its latest generated version (`rated` as the driver has it). */
export type RawCriticItem<Rated> = RawItem & {
  parent_text: string | null;
  version_id: number;
  text: string;
  rated: Rated;
};

export function itemRow(raw: RawItem): ReviewItemRow {
  const source = raw.metadata ? (JSON.parse(raw.metadata) as { source?: string }).source : undefined;
  return {
    id: raw.id,
    itemId: raw.item_id,
    parent: raw.parent_id,
    type: raw.type,
    model: raw.model,
    ...(source !== undefined && { source }),
  };
}

export const verdictRecord = ({ rubric, ...v }: RawVerdict): VerdictRecord => ({
  ...v,
  rubric: rubric ? (JSON.parse(rubric) as Record<string, string>) : {},
});

export const tableEntry = (r: RawTableEntry): ReviewTableDocument => ({
  id: r.id,
  label: r.label,
  ...(r.title !== null && { title: r.title }),
  ...(r.text !== null && { text: r.text }),
});

export const criticItem = (r: RawCriticItem<unknown>, rated: boolean): CriticItem => ({
  item: itemRow(r),
  ...(r.parent_text !== null && { parentText: r.parent_text }),
  versionId: r.version_id,
  text: r.text,
  rated,
});

/** A verdict names a version that is not of its item (or not of the review). */
export const noSuchVersion = (versionId: number, item: number, location: string): StoreError =>
  new StoreError(`no version ${versionId} of item ${item} in ${location}`);

/** A verdict's item was imported again since it was shown. */
export const itemChanged = (itemId: string): StoreError =>
  new StoreError(
    `item '${itemId}' changed since it was shown (the version judged is not one of its current ` +
      'versions you may see): look at it again',
  );
