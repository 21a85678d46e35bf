// The review of generated text in PostgreSQL (same tables as SQLite's): review_item, review_item_version (generated
// texts and edits, append-only), review_verdict (append-only) and review_table. Reviewers and critics are recorded by
// the one annotator rule: a person as `human`, the LLM critic as `llm`. Imports and verdicts of a review hold the
// review's advisory lock, so a verdict's stale-root check and the import that would make it stale never interleave.

import type { VersionRecord } from '../../review/reviewOutcome.ts';
import {
  criticItem,
  itemChanged,
  itemRow,
  noSuchVersion,
  type RawCriticItem,
  type RawItem,
  type RawTableEntry,
  type RawVerdict,
  tableEntry,
  verdictRecord,
} from '../adapterShared/reviewRows.ts';
import type {
  CriticItem,
  NewReviewVerdict,
  ReviewItemDetail,
  ReviewItemInput,
  ReviewItemRecords,
  ReviewItemRow,
  ReviewsPort,
} from '../port/reviewsPort.ts';
import { lockInSchema } from './advisoryLocks.ts';
import { ensureAnnotatorId } from './annotators.ts';
import type { PostgresClient, PostgresContext, TransactionOptions } from './postgresContext.ts';
import { studyIdIn } from './postgresStudies.ts';
import { reviewSql } from './reviews/reviewSql.ts';

/** A read (the review's id, then its rows) sees one snapshot. */
const snapshot: TransactionOptions = { isolation: 'repeatable read', readOnly: true };

export class PostgresReviews implements ReviewsPort {
  protected readonly context: PostgresContext;

  constructor(context: PostgresContext) {
    this.context = context;
  }

  private studyId(client: PostgresClient, review: string): Promise<number> {
    return studyIdIn(client, this.context.location, review);
  }

  async importItems(
    review: string,
    items: readonly ReviewItemInput[],
    tables: ReadonlyMap<string, ReadonlyMap<string, number>> | undefined,
    at: string,
  ): Promise<{ added: number; changed: number; unchanged: number }> {
    const result = await this.context.transaction(async (client) => {
      const studyId = await this.studyId(client, review);
      await lockInSchema(client, 'study', studyId);
      // What the review has now: each item's row id and latest generated text.
      const known = await client.query<{ id: number; item_id: string; text: string | null }>(reviewSql.latestTexts, [
        studyId,
      ]);
      const existing = new Map(known.rows.map((r) => [r.item_id, r]));
      const newIds = new Map<string, number>();
      // The items the review lacks, in the order the file first names them: one statement (ids in that order).
      const fresh = new Map<string, ReviewItemInput>();
      for (const item of items) if (!existing.has(item.id) && !fresh.has(item.id)) fresh.set(item.id, item);
      if (fresh.size > 0) {
        const list = [...fresh.values()];
        const inserted = await client.query<{ id: number; item_id: string }>(reviewSql.insertItems, [
          studyId,
          list.map((item) => item.id),
          list.map((item) => item.parent ?? null),
          list.map((item) => item.type ?? null),
          list.map((item) => item.model ?? null),
          list.map((item) => (item.source !== undefined ? JSON.stringify({ source: item.source }) : null)),
        ]);
        for (const row of inserted.rows) newIds.set(row.item_id, row.id);
      }
      let added = 0;
      let changed = 0;
      let unchanged = 0;
      const itemIds: number[] = [];
      const versions: { item: number; text: string; author: string }[] = [];
      // A file may name an item twice: the second sees the first (as SQLite's one-by-one import does).
      for (const item of items) {
        const author = item.model ?? 'generator';
        let row = existing.get(item.id);
        if (row === undefined) {
          row = { id: newIds.get(item.id) as number, item_id: item.id, text: item.text };
          existing.set(item.id, row);
          versions.push({ item: row.id, text: item.text, author });
          added++;
        } else if (row.text !== item.text) {
          row.text = item.text;
          versions.push({ item: row.id, text: item.text, author });
          changed++;
        } else unchanged++;
        itemIds.push(row.id);
      }
      if (versions.length > 0) {
        await client.query(reviewSql.insertGeneratedVersions, [
          versions.map((v) => v.item),
          versions.map((v) => v.text),
          versions.map((v) => v.author),
          at,
        ]);
      }
      // The table sets as the file has them now (an item named twice: its last naming's set, the same set).
      if (itemIds.length > 0) {
        await client.query('DELETE FROM review_table WHERE item_id = ANY($1::integer[])', [itemIds]);
        const tableItems: number[] = [];
        const docids: string[] = [];
        const labels: number[] = [];
        const done = new Set<number>();
        items.forEach((item, index) => {
          const id = itemIds[index] as number;
          if (done.has(id)) return;
          done.add(id);
          for (const [docid, label] of tables?.get(item.id) ?? []) {
            tableItems.push(id);
            docids.push(docid);
            labels.push(label);
          }
        });
        if (tableItems.length > 0) {
          await client.query(
            `INSERT INTO review_table (item_id, docid, label)
             SELECT * FROM unnest($1::integer[], $2::text[], $3::integer[])`,
            [tableItems, docids, labels],
          );
        }
      }
      await this.context.notify(client, { what: 'reviews', study: review });
      return { added, changed, unchanged };
    });
    this.context.changed({ what: 'reviews', study: review });
    return result;
  }

  async items(review: string): Promise<ReviewItemRow[]> {
    return this.context.transaction(async (client) => {
      const studyId = await this.studyId(client, review);
      return (await client.query<RawItem>(reviewSql.items, [studyId])).rows.map(itemRow);
    }, snapshot);
  }

  async records(review: string): Promise<ReviewItemRecords[]> {
    return this.context.transaction(async (client) => {
      const studyId = await this.studyId(client, review);
      // One statement, one snapshot: every item with its versions and verdicts.
      const { rows } = await client.query<RawItem & { versions: VersionRecord[]; verdicts: RawVerdict[] }>(
        reviewSql.records,
        [studyId],
      );
      return rows.map(({ versions, verdicts, ...raw }) => ({
        item: itemRow(raw),
        versions,
        verdicts: verdicts.map(verdictRecord),
      }));
    }, snapshot);
  }

  async item(review: string, item: number, options: { tables?: boolean } = {}): Promise<ReviewItemDetail | undefined> {
    return this.context.transaction(async (client) => {
      const studyId = await this.studyId(client, review);
      const { rows } = await client.query<
        RawItem & {
          parent_text: string | null;
          versions: VersionRecord[];
          verdicts: RawVerdict[];
          tables: RawTableEntry[] | null;
        }
      >(reviewSql.item, [item, studyId, options.tables === true]);
      const raw = rows[0];
      if (raw === undefined) return undefined;
      const { parent_text: parentText, versions, verdicts, tables, ...itemRaw } = raw;
      return {
        item: itemRow(itemRaw),
        versions,
        verdicts: verdicts.map(verdictRecord),
        ...(parentText !== null && { parentText }),
        ...(options.tables &&
          tables !== null && {
            tables: tables.map(tableEntry),
          }),
      };
    }, snapshot);
  }

  async progress(review: string, reviewer: string): Promise<{ items: number; reviewed: number }> {
    return this.context.transaction(async (client) => {
      const studyId = await this.studyId(client, review);
      const { rows } = await client.query<{ items: number; reviewed: number }>(reviewSql.progress, [studyId, reviewer]);
      return rows[0] as { items: number; reviewed: number };
    }, snapshot);
  }

  async recordVerdicts(review: string, verdicts: readonly NewReviewVerdict[], at: string): Promise<void> {
    await this.context.transaction(async (client) => {
      const studyId = await this.studyId(client, review);
      await lockInSchema(client, 'study', studyId);
      // Every verdict is checked before any is written: a batch refused writes nothing, and takes no id from a
      // sequence either (ids stay SQLite's).
      const checked: { item: number; reviewer: number }[] = [];
      for (const v of verdicts) checked.push(await this.checkVerdict(client, studyId, v, 'human'));
      for (const [i, v] of verdicts.entries()) await this.writeVerdict(client, v, checked[i]!, at);
      await this.context.notify(client, { what: 'reviews', study: review });
    });
    this.context.changed({ what: 'reviews', study: review });
  }

  async criticItems(review: string, critic: string): Promise<CriticItem[]> {
    const rows = await this.context.transaction(async (client) => {
      const studyId = await this.studyId(client, review);
      const result = await client.query<RawCriticItem<boolean>>(reviewSql.criticItems, [critic, studyId]);
      return result.rows;
    }, snapshot);
    return rows.map((r) => criticItem(r, r.rated));
  }

  async recordCriticVerdict(review: string, verdict: Omit<NewReviewVerdict, 'text'>, at: string): Promise<void> {
    await this.context.transaction(async (client) => {
      const studyId = await this.studyId(client, review);
      await lockInSchema(client, 'study', studyId);
      await this.writeVerdict(client, verdict, await this.checkVerdict(client, studyId, verdict, 'llm'), at);
      await this.context.notify(client, { what: 'reviews', study: review });
    });
    this.context.changed({ what: 'reviews', study: review });
  }

  /**
   * Inside the caller's transaction (which holds the review's lock): the verdict's version is of its item, the item
   * was not imported again since it was shown (`root`), and the reviewer is of `kind`. Returns the item and reviewer.
   */
  private async checkVerdict(
    client: PostgresClient,
    studyId: number,
    v: NewReviewVerdict,
    kind: 'human' | 'llm',
  ): Promise<{ item: number; reviewer: number }> {
    const { rows } = await client.query<{ item: number; item_id: string; root: number | null }>(
      reviewSql.versionCheck,
      [v.versionId, studyId],
    );
    const found = rows[0];
    if (found === undefined || found.item !== v.item) {
      throw noSuchVersion(v.versionId, v.item, this.context.location);
    }
    if (v.root !== undefined && found.root !== v.root) {
      throw itemChanged(found.item_id);
    }
    return { item: found.item, reviewer: await ensureAnnotatorId(client, this.context.location, v.reviewer, kind) };
  }

  /** One checked verdict (an edit's version first), inside the caller's transaction. */
  private async writeVerdict(
    client: PostgresClient,
    v: NewReviewVerdict,
    checked: { item: number; reviewer: number },
    at: string,
  ): Promise<void> {
    if (v.text !== undefined) {
      await client.query(
        'INSERT INTO review_item_version (item_id, text, author, created_at, based_on) VALUES ($1, $2, $3, $4, $5)',
        [checked.item, v.text, v.reviewer, at, v.versionId],
      );
    }
    await client.query(
      `INSERT INTO review_verdict (version_id, annotator_id, verdict, rubric, rationale, created_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [v.versionId, checked.reviewer, v.verdict, JSON.stringify(v.rubric), v.reason, at],
    );
  }
}
