// The review of generated text in SQLite: review_item, review_item_version (generated texts and edits, append-only),
// review_verdict (append-only) and review_table. Reviewers and critics are recorded by the one annotator rule
// (annotators.ts): a person as `human`, the LLM critic as `llm`.

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
import { ensureAnnotatorId } from './annotators.ts';
import { type ReviewStatements, reviewStatements } from './reviews/reviewStatements.ts';
import type { SqliteContext } from './sqliteContext.ts';

export class SqliteReviews implements ReviewsPort {
  protected readonly context: SqliteContext;
  private prepared: ReviewStatements | undefined;

  constructor(context: SqliteContext) {
    this.context = context;
  }

  private get statements(): ReviewStatements {
    this.prepared ??= reviewStatements(this.context.db);
    return this.prepared;
  }

  private studyId(review: string): number {
    return this.context.database.studyId(review);
  }

  async importItems(
    review: string,
    items: readonly ReviewItemInput[],
    tables: ReadonlyMap<string, ReadonlyMap<string, number>> | undefined,
    at: string,
  ): Promise<{ added: number; changed: number; unchanged: number }> {
    const s = this.statements;
    const result = this.context.db
      .transaction(() => {
        const studyId = this.studyId(review);
        let added = 0;
        let changed = 0;
        let unchanged = 0;
        for (const item of items) {
          const author = item.model ?? 'generator';
          let id = s.findItem.get(studyId, item.id) as number | undefined;
          if (id === undefined) {
            id = (
              s.insertItem.get(
                studyId,
                item.id,
                item.parent ?? null,
                item.type ?? null,
                item.model ?? null,
                item.source !== undefined ? JSON.stringify({ source: item.source }) : null,
              ) as { id: number }
            ).id;
            s.insertVersion.run(id, item.text, author, at, null);
            added++;
          } else if (s.latestGeneratedText.get(id) !== item.text) {
            s.insertVersion.run(id, item.text, author, at, null);
            changed++;
          } else unchanged++;
          // The table set as the file has it now.
          s.clearTables.run(id);
          for (const [docid, label] of tables?.get(item.id) ?? []) s.insertTable.run(id, docid, label);
        }
        return { added, changed, unchanged };
      })
      .immediate();
    this.context.changed({ what: 'reviews', study: review });
    return result;
  }

  async items(review: string): Promise<ReviewItemRow[]> {
    return (this.statements.items.all(this.studyId(review)) as RawItem[]).map(itemRow);
  }

  async records(review: string): Promise<ReviewItemRecords[]> {
    const s = this.statements;
    return this.context.db.transaction(() => {
      const studyId = this.studyId(review);
      const byItem = new Map<number, ReviewItemRecords>();
      for (const raw of s.items.all(studyId) as RawItem[]) {
        byItem.set(raw.id, { item: itemRow(raw), versions: [], verdicts: [] });
      }
      for (const { item, ...v } of s.studyVersions.all(studyId) as (VersionRecord & { item: number })[]) {
        byItem.get(item)?.versions.push(v);
      }
      for (const { item, ...v } of s.studyVerdicts.all(studyId) as (RawVerdict & { item: number })[]) {
        byItem.get(item)?.verdicts.push(verdictRecord(v));
      }
      return [...byItem.values()];
    })();
  }

  async item(review: string, item: number, options: { tables?: boolean } = {}): Promise<ReviewItemDetail | undefined> {
    const s = this.statements;
    return this.context.db.transaction(() => {
      const studyId = this.studyId(review);
      const raw = s.item.get(item, studyId) as RawItem | undefined;
      if (raw === undefined) return undefined;
      const row = itemRow(raw);
      const parentText = row.parent === null ? undefined : (s.queryText.get(studyId, row.parent) as string | undefined);
      const tables = options.tables ? (s.tableSet.all(studyId, item) as RawTableEntry[]).map(tableEntry) : undefined;
      return {
        item: row,
        versions: s.itemVersions.all(item) as VersionRecord[],
        verdicts: (s.itemVerdicts.all(item) as RawVerdict[]).map(verdictRecord),
        ...(parentText !== undefined && { parentText }),
        ...(tables && { tables }),
      };
    })();
  }

  async progress(review: string, reviewer: string): Promise<{ items: number; reviewed: number }> {
    const s = this.statements;
    return this.context.db.transaction(() => {
      const studyId = this.studyId(review);
      return {
        items: s.itemCount.get(studyId) as number,
        reviewed: s.reviewedCount.get(studyId, reviewer) as number,
      };
    })();
  }

  async recordVerdicts(review: string, verdicts: readonly NewReviewVerdict[], at: string): Promise<void> {
    this.context.db
      .transaction(() => {
        const studyId = this.studyId(review);
        for (const v of verdicts) this.storeVerdict(studyId, v, 'human', at);
      })
      .immediate();
    this.context.changed({ what: 'reviews', study: review });
  }

  async criticItems(review: string, critic: string): Promise<CriticItem[]> {
    const rows = this.statements.criticItems.all(critic, this.studyId(review)) as RawCriticItem<number>[];
    return rows.map((r) => criticItem(r, r.rated === 1));
  }

  async recordCriticVerdict(review: string, verdict: Omit<NewReviewVerdict, 'text'>, at: string): Promise<void> {
    this.context.db.transaction(() => this.storeVerdict(this.studyId(review), verdict, 'llm', at)).immediate();
    this.context.changed({ what: 'reviews', study: review });
  }

  /** One verdict (an edit's version first), inside the caller's transaction. */
  private storeVerdict(studyId: number, v: NewReviewVerdict, kind: 'human' | 'llm', at: string): void {
    const s = this.statements;
    const item = s.itemOfVersion.get(v.versionId, studyId) as number | undefined;
    if (item === undefined || item !== v.item) {
      throw noSuchVersion(v.versionId, v.item, this.context.file);
    }
    if (v.root !== undefined && s.latestGeneratedId.get(item) !== v.root) {
      const itemId = (s.item.get(item, studyId) as RawItem).item_id;
      throw itemChanged(itemId);
    }
    const reviewer = ensureAnnotatorId(this.context.db, this.context.file, v.reviewer, kind);
    if (v.text !== undefined) s.insertVersion.run(item, v.text, v.reviewer, at, v.versionId);
    s.insertVerdict.run(v.versionId, reviewer, v.verdict, JSON.stringify(v.rubric), v.reason, at);
  }
}
