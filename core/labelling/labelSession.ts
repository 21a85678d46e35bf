// One annotator labelling one study: the `label/*` requests of the Label view (webview/protocol.ts), one method
// each, over the study's record (a StudyStore; its labels port does the reads and writes). The queue (pair ids in
// the chosen order) is built once per order and kept in memory; progress is counted once at open and then kept up
// to date by commit and undo; everything a label needs — showing a pair, storing a label, undoing it — is a handful
// of indexed lookups, so a study of a million pairs labels as fast as a small one. Every label is one transaction,
// committed before the method resolves. The requests of a session run one at a time, in the order they came (the
// record is asynchronous; the session's queue, position and undo list are not shared between two requests).
//
// Blind mode (the study's `blind`): an annotator sees no other label and no suggestion of a pair until they have a
// label of their own for it, and may not order the queue by what others did (confidence, disagreement). The
// study's adjudicator is never blind, their queue is every pair (everyone else's is their assignment), and their
// labels are stored as adjudicated (what `export … from adjudicated` reads; they do not vote in the majority).
//
// A session holds the study as it was when it opened (scale, blind, annotators). When its study file is synced into
// the database with another model of the study (edited: blind switched on, a scale value removed) or without it
// (renamed, removed), the session refuses every request but `state` — nothing is shown or stored under rules the file
// no longer has — and the Label panel opens a new one (`studyChanged`). The same file synced again (another window
// opening it) changes nothing.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { AspectAnswer } from '../dsl/evaluateDerive.ts';
import type { StudyModel } from '../dsl/model.ts';
import type { DocumentRecord, LabelCursorWrite, LabelScope, PairRecord } from '../store/port/labelsPort.ts';
import { StoreError } from '../store/studyDatabase.ts';
import type { StudyStore } from '../store/studyStore.ts';
import { assignPairs } from './assignment.ts';
import { buildLabelQueue, queueOrders } from './labelQueue.ts';
import { queryConditions } from './queryConditions.ts';
import type {
  CommitLabel,
  DocumentView,
  MyLabel,
  OtherLabel,
  PairView,
  Progress,
  QueryView,
  QueueOrder,
  QueueSettings,
  SessionState,
  StudyView,
  SuggestionView,
} from './types.ts';

export interface LabelSessionOptions {
  /** Absolute path of the study file (the guidelines are resolved against its folder). */
  studyFile: string;
  /** The study as resolved from the study file; it must have been synced into the store. */
  study: StudyModel;
  /** Who labels: the `qrelsStudio.annotator` setting. */
  annotator: string;
  /** The clock judgments, retractions and cursors are stamped with (tests pin it). */
  now?: () => Date;
  /**
   * The session this one replaces (annotator switched, study reopened in the same view): queue versions continue
   * after its, so a request the view sent to the old session is refused as stale, never taken as the new one's.
   */
  replaces?: LabelSession;
}

/** Orders that show what others did: refused in blind mode to all but the adjudicator. */
const revealingOrders: ReadonlySet<QueueOrder> = new Set(['confidence', 'disagreement']);

/** How chunk ids sort: numbers inside them by value. */
const chunkOrder = new Intl.Collator('en', { numeric: true });

/** A stored JSON object (query or document metadata); an error naming the row when it is not one. */
function parseMetadata(text: string | null, what: string): Record<string, unknown> {
  if (text === null) return {};
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {}
  throw new StoreError(`${what}: its stored metadata is not a JSON object: import it again`);
}

export class LabelSession {
  readonly store: StudyStore;
  readonly annotator: string;
  private readonly studyFile: string;
  private readonly study: StudyModel;
  private readonly studyId: number;
  private readonly annotatorId: number;
  private readonly now: () => Date;
  /** The study's adjudicator: never blind, queue of every pair. */
  private readonly adjudicates: boolean;
  /** Blind mode applies to this annotator. */
  private readonly blind: boolean;
  /** The queue is the annotator's assignment (false: every pair of the study). */
  private readonly assignedOnly: boolean;
  private readonly scaleValues: readonly number[];
  private readonly aspectNames: ReadonlySet<string>;
  /** Each graded aspect's levels (`aspect NAME "…" levels 0 1 2`); the other aspects are yes/no. */
  private readonly aspectLevels: ReadonlyMap<string, readonly number[]>;
  private settings: QueueSettings = { order: 'query', unlabelledOnly: false };
  private queue: Int32Array = new Int32Array(0);
  private version = 0;
  /** Where the annotator is in the queue (may be its length: past the end). */
  private position = 0;
  private progress: Progress = { assigned: 0, judged: 0 };
  /** This session's judgments not yet undone, latest last. */
  private readonly undoable: { judgmentId: number; pairId: number }[] = [];
  /** The judgments this session's commits stored: a commit sent again with its commitId is not counted twice. */
  private readonly stored = new Set<number>();
  /** The judgment an undo was retracting when it failed: its retraction may have been committed all the same. */
  private unconfirmedUndo: number | undefined;
  /** The study as synced into the database when this session opened (see studyChanged). */
  private syncedModel = '';
  /** The adjudication queue on screen (the Agreement view's disagreements), if any: not saved as the cursor. */
  private adjudication: { title: string } | undefined;
  /** The request running now, and those waiting: one at a time. */
  private running: Promise<unknown> = Promise.resolve();

  private constructor(store: StudyStore, options: LabelSessionOptions, studyId: number, annotatorId: number) {
    this.store = store;
    this.studyFile = options.studyFile;
    this.study = options.study;
    this.studyId = studyId;
    this.annotator = options.annotator;
    this.annotatorId = annotatorId;
    this.now = options.now ?? (() => new Date());
    this.adjudicates = options.study.adjudicator === options.annotator;
    this.blind = options.study.blind && !this.adjudicates;
    this.assignedOnly = options.study.annotators.length > 0 && !this.adjudicates;
    this.scaleValues = options.study.scale?.entries.map((entry) => entry.value) ?? [];
    this.aspectNames = new Set(options.study.aspects.map((aspect) => aspect.name));
    this.aspectLevels = new Map(
      options.study.aspects.flatMap((aspect) => (aspect.levels ? [[aspect.name, aspect.levels] as const] : [])),
    );
  }

  /**
   * Opens `annotator`'s session on a study already synced into `store`: adds the annotator, assigns the pairs
   * not assigned yet, and puts the annotator back where they were (their queue order and filter, and the pair they
   * were at, if it is still in the queue).
   */
  static async open(store: StudyStore, options: LabelSessionOptions): Promise<LabelSession> {
    const { study, annotator } = options;
    const studyId = await store.studies.studyId(study.name);
    if (annotator.trim() === '') {
      throw new StoreError('no annotator: the setting qrelsStudio.annotator says who labels');
    }
    if (annotator.startsWith('llm:')) {
      throw new StoreError(`'${annotator}' names an LLM judge: the setting qrelsStudio.annotator names a person`);
    }
    if (study.annotators.length > 0 && !study.annotators.includes(annotator) && study.adjudicator !== annotator) {
      const adjudicator = study.adjudicator !== undefined ? `, adjudicator ${study.adjudicator}` : '';
      throw new StoreError(
        `'${annotator}' is not an annotator of study '${study.name}' (its annotators: ` +
          `${study.annotators.join(', ')}${adjudicator}): the setting qrelsStudio.annotator chooses who labels`,
      );
    }
    const now = options.now ?? (() => new Date());
    const annotatorId = await store.studies.ensureAnnotator(annotator, 'human');
    await assignPairs(store, studyId, study.annotators, study.overlap, now());
    const session = new LabelSession(store, options, studyId, annotatorId);
    session.version = options.replaces?.version ?? 0;
    const synced = await store.labels.syncedStudy(studyId);
    session.syncedModel = synced?.model ?? '';
    session.progress = await store.labels.labelProgress(session.scope());
    await session.restoreCursor();
    return session;
  }

  /** The session as it is now (what the view shows at open), without waiting for requests under way. */
  state(): SessionState {
    return {
      study: this.studyView(),
      queue: {
        ...this.settings,
        version: this.version,
        length: this.queue.length,
        ...(this.adjudication && { adjudication: this.adjudication }),
      },
      progress: { ...this.progress },
      position: this.position,
    };
  }

  /** The session's state after the requests before this one: the answer to the view's `label/session`. */
  currentState(): Promise<SessionState> {
    return this.exclusive(async () => this.state());
  }

  /**
   * The study file was synced into the database since this session opened with another model of this study, or
   * without it (renamed, removed): open a new session to go on with what the file says now.
   */
  async studyChanged(): Promise<boolean> {
    const synced = await this.store.labels.syncedStudy(this.studyId);
    return synced === undefined || !synced.latest || synced.model !== this.syncedModel;
  }

  /**
   * Reorders or filters the queue: a new queue version, at the pair the annotator was at if it is in it. From an
   * adjudication queue, back to the annotator's own queue where they left it.
   */
  setQueue(settings: QueueSettings): Promise<SessionState> {
    return this.exclusive(async () => {
      await this.checkStudy();
      this.checkSettings(settings);
      if (this.adjudication) {
        // Back to the annotator's own queue where they left it, then ordered as asked.
        this.adjudication = undefined;
        await this.restoreCursor();
      }
      const current = this.position < this.queue.length ? this.queue[this.position] : undefined;
      await this.rebuild({ order: settings.order, unlabelledOnly: settings.unlabelledOnly });
      const found = current === undefined ? -1 : this.queue.indexOf(current);
      this.position = Math.max(found, 0);
      await this.saveCursor();
      return this.state();
    });
  }

  /**
   * An adjudication queue: exactly these pairs (the disagreements the Agreement view picked), in the order given,
   * for the study's adjudicator, who sees every label, note and rationale and stores the final label with a reason
   * (source 'adjudicated', which `export --from adjudicated` reads). A new queue version at its first pair; the
   * annotator's own queue and cursor are kept for `setQueue` to return to.
   */
  adjudicate(pairIds: readonly number[], title: string): Promise<SessionState> {
    return this.exclusive(async () => {
      await this.checkStudy();
      const adjudicator = this.study.adjudicator;
      if (adjudicator === undefined) {
        throw new StoreError(
          `study '${this.study.name}' declares no adjudicator: add \`adjudicator NAME\` to its block in ` +
            `${basename(this.studyFile)} to adjudicate its disagreements`,
        );
      }
      if (!this.adjudicates) {
        throw new StoreError(
          `only the adjudicator of study '${this.study.name}', ${adjudicator}, adjudicates; this Label view labels as ` +
            `'${this.annotator}' (the setting qrelsStudio.annotator)`,
        );
      }
      const notWhole = pairIds.find((id) => !Number.isInteger(id));
      const [outside] =
        notWhole !== undefined ? [notWhole] : await this.store.labels.pairsNotInStudy(this.studyId, pairIds);
      if (outside !== undefined) throw new StoreError(`pair ${outside} is not a pair of study '${this.study.name}'`);
      this.queue = Int32Array.from(new Set(pairIds));
      this.version++;
      this.position = 0;
      this.adjudication = { title };
      return this.state();
    });
  }

  /** The pair at `position` of the queue (null past its end); `current`: the annotator is there now. */
  pairAt(position: number, queueVersion: number, current: boolean): Promise<PairView | null> {
    return this.exclusive(async () => {
      await this.checkStudy();
      this.checkVersion(queueVersion);
      if (!Number.isInteger(position) || position < 0) {
        throw new StoreError(`expected a queue position (a whole number ≥ 0), found ${position}`);
      }
      if (position >= this.queue.length) {
        if (current) {
          this.position = this.queue.length;
          await this.saveCursor();
        }
        return null;
      }
      const view = await this.pairView(this.queue[position]!, position);
      if (current) {
        this.position = position;
        await this.saveCursor();
      }
      return view;
    });
  }

  /**
   * Stores a label of the pair at `position` (one transaction: the judgment, its condition and aspect answers, and
   * the cursor on the next pair) and returns the pair as it now is — in blind mode, with the others revealed.
   * Position -1 is a pair of the annotator's that the current queue does not hold (undo hands such a pair back after
   * a reorder left it out): it is labelled, and the cursor stays where the annotator is.
   */
  commit(commit: CommitLabel & { queueVersion: number }): Promise<{ progress: Progress; pair: PairView }> {
    return this.exclusive(async () => {
      await this.checkStudy();
      this.checkVersion(commit.queueVersion);
      const { position, pairId, label } = commit;
      const outsideQueue = position === -1;
      if (outsideQueue) {
        if (!Number.isInteger(pairId) || !(await this.store.labels.inLabelScope(this.scope(), pairId))) {
          throw new StoreError(`pair ${pairId} is not one of the pairs '${this.annotator}' labels in this study`);
        }
      } else if (!Number.isInteger(position) || position < 0 || position >= this.queue.length) {
        throw new StoreError(`expected a position in the queue (0 to ${this.queue.length - 1}), found ${position}`);
      } else if (this.queue[position] !== pairId) {
        throw new StoreError(
          `expected pair ${this.queue[position]} at position ${position} of the queue, found pair ${pairId}: the queue changed: reload`,
        );
      }
      this.checkLabel(label);
      if (commit.note !== undefined && typeof commit.note !== 'string')
        throw new StoreError('expected the note to be text');
      if (this.adjudicates && (commit.note === undefined || commit.note.trim() === '')) {
        throw new StoreError('an adjudicated label needs a reason: write it in the note, then store the label');
      }
      const conditions = commit.conditions ?? [];
      const aspects = commit.aspects ?? {};
      await this.checkAnswers(pairId, conditions, aspects);
      const note = commit.note !== undefined && commit.note.trim() !== '' ? commit.note : null;
      if (commit.commitId !== undefined && (typeof commit.commitId !== 'string' || commit.commitId.length > 100)) {
        throw new StoreError('expected the commit id to be text (a UUID)');
      }
      const stored = await this.store.labels.commitLabel({
        studyId: this.studyId,
        pairId,
        annotatorId: this.annotatorId,
        label,
        source: this.adjudicates ? 'adjudicated' : 'manual',
        // 'suggestion' only when the label is what a suggestion the annotator could see said (blind: they saw
        // none before a label of their own).
        ...(!this.adjudicates &&
          commit.shownLabel !== undefined &&
          commit.shownLabel === label && { suggestion: { label, onlyIfLabelled: this.blind } }),
        note,
        shownLabel: commit.shownLabel ?? null,
        conditions: [...conditions],
        aspects: Object.entries(aspects).map(([aspect, answer]) => ({
          aspect,
          answer: typeof answer === 'number' ? answer : answer ? 1 : 0,
        })),
        at: this.now().toISOString(),
        ...(!outsideQueue && this.cursorWrite(position + 1)),
        clientId: commit.commitId ?? randomUUID(),
      });
      if (!outsideQueue) this.position = Math.min(position + 1, this.queue.length);
      // Counted once, even when a commit that was confirmed is sent again with its commitId.
      if (!this.stored.has(stored.judgmentId)) {
        this.stored.add(stored.judgmentId);
        if (!stored.labelledBefore) this.progress.judged++;
        this.undoable.push({ judgmentId: stored.judgmentId, pairId });
      }
      let pair: PairView;
      try {
        pair = await this.pairView(pairId, position);
      } catch (error) {
        // The label is stored and counted: the error must not say otherwise (sent again with its commitId, the
        // commit answers with the stored label, counted once).
        if (!(error instanceof StoreError)) throw error;
        const reason = error.cause instanceof Error ? error.cause.message : error.message;
        throw new StoreError(
          `the label was saved, but the pair could not be read back (${reason}): send the commit again (same commit id) to carry on`,
          { cause: error },
        );
      }
      return { progress: { ...this.progress }, pair };
    });
  }

  /**
   * Retracts this session's latest judgment not undone yet (again: the one before it, and so on); the annotator's
   * previous label of that pair, if any, is current again. The pair comes back with its position in the current
   * queue (-1 when the queue no longer holds it); null when there is nothing to undo.
   */
  undo(): Promise<{ progress: Progress; pair: PairView } | null> {
    return this.exclusive(async () => {
      await this.checkStudy();
      for (let last = this.undoable.pop(); last !== undefined; last = this.undoable.pop()) {
        const { judgmentId, pairId } = last;
        const position = this.queue.indexOf(pairId);
        let undone: { retracted: boolean; stillLabelled: boolean };
        try {
          undone = await this.store.labels.retractLabel({
            studyId: this.studyId,
            judgmentId,
            pairId,
            annotatorId: this.annotatorId,
            at: this.now().toISOString(),
            ...(position >= 0 && this.cursorWrite(position)),
          });
        } catch (error) {
          // Nothing was retracted (a locked database, say) — or, the connection lost with the reply, it was: the
          // judgment is undone again next time, and then found retracted by this very undo.
          this.undoable.push(last);
          this.unconfirmedUndo = judgmentId;
          throw error;
        }
        const retriedOwn = this.unconfirmedUndo === judgmentId;
        this.unconfirmedUndo = undefined;
        if (!undone.retracted && retriedOwn) {
          // This session's undo that failed went through after all: it is done, not a reason to undo one more.
          if (position >= 0) this.position = position;
          const pair = await this.pairView(pairId, position);
          if (pair.mine === undefined) this.progress.judged--;
          return { progress: { ...this.progress }, pair };
        }
        // Already retracted (someone changed the database under this session): try the one before.
        if (!undone.retracted) continue;
        if (position >= 0) this.position = position;
        if (!undone.stillLabelled) this.progress.judged--;
        return { progress: { ...this.progress }, pair: await this.pairView(pairId, position) };
      }
      return null;
    });
  }

  /** A document of the study by id (a neighbouring chunk); null when the corpus has none by that id. */
  document(docid: string): Promise<DocumentView | null> {
    return this.exclusive(async () => {
      await this.checkStudy();
      const record = await this.store.labels.documentRecord(this.studyId, docid);
      return record ? this.documentView(record) : null;
    });
  }

  /** The study's guidelines file (Markdown); null when the study declares none. */
  guidelines(): Promise<{ path: string; markdown: string } | null> {
    return this.exclusive(async () => {
      await this.checkStudy();
      const guidelines = this.study.guidelines;
      if (!guidelines) return null;
      const path = guidelines.absolutePath ?? resolve(dirname(this.studyFile), guidelines.path);
      try {
        return { path, markdown: readFileSync(path, 'utf8') };
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : String(error);
        throw new StoreError(`cannot read the guidelines of study '${this.study.name}' at ${path}: ${why}`);
      }
    });
  }

  /** Runs `request` after the requests before it have settled (whether they succeeded or not). */
  private exclusive<T>(request: () => Promise<T>): Promise<T> {
    const result = this.running.then(request, request);
    this.running = result.catch(() => {});
    return result;
  }

  private scope(): LabelScope {
    return { studyId: this.studyId, annotatorId: this.annotatorId, assignedOnly: this.assignedOnly };
  }

  private studyView(): StudyView {
    const study = this.study;
    return {
      studyFile: this.studyFile,
      study: study.name,
      ...(study.title !== undefined && { title: study.title }),
      annotator: this.annotator,
      scale: study.scale?.entries ?? [],
      aspects: study.aspects,
      hasConditions: study.conditionsFrom !== undefined,
      derives: study.derive !== undefined,
      ...(study.derive !== undefined && { derive: study.derive }),
      ...(study.adjudicator !== undefined && { adjudicator: study.adjudicator }),
      blind: this.blind,
      ...(study.guidelines !== undefined && { guidelines: study.guidelines.path }),
    };
  }

  private async restoreCursor(): Promise<void> {
    const saved = await this.store.labels.labelCursor(this.studyId, this.annotatorId);
    let order = saved?.order ?? 'query';
    // An order this annotator may no longer use (the study became blind) or does not know: the default.
    if (!queueOrders.includes(order) || (this.blind && revealingOrders.has(order))) order = 'query';
    await this.rebuild({ order, unlabelledOnly: saved?.unlabelledOnly === true });
    const found = saved?.pairId != null ? this.queue.indexOf(saved.pairId) : -1;
    this.position = Math.max(found, 0);
  }

  private async rebuild(settings: QueueSettings): Promise<void> {
    this.queue = await buildLabelQueue(this.store, settings.order, {
      ...this.scope(),
      unlabelledOnly: settings.unlabelledOnly,
    });
    this.settings = settings;
    this.version++;
  }

  /**
   * The cursor at `position` (the last pair when past the end), to save with a write; nothing in an adjudication
   * queue (it is not the annotator's own queue: where they were in that one stays saved).
   */
  private cursorWrite(position: number): { cursor: LabelCursorWrite } | Record<string, never> {
    if (this.adjudication) return {};
    const index = Math.min(position, this.queue.length - 1);
    return {
      cursor: {
        studyId: this.studyId,
        annotatorId: this.annotatorId,
        order: this.settings.order,
        unlabelledOnly: this.settings.unlabelledOnly,
        pairId: index >= 0 ? this.queue[index]! : null,
        at: this.now().toISOString(),
      },
    };
  }

  /** Records where the annotator is: the pair at `position` (the last pair when past the end). */
  private async saveCursor(position: number = this.position): Promise<void> {
    const { cursor } = this.cursorWrite(position);
    if (cursor) await this.store.labels.saveLabelCursor(cursor);
  }

  private async checkStudy(): Promise<void> {
    if (await this.studyChanged()) {
      throw new StoreError(
        `${basename(this.studyFile)} changed since this Label view opened: nothing was stored; open study ` +
          `'${this.study.name}' again to label with what the file says now`,
      );
    }
  }

  private checkVersion(queueVersion: number): void {
    if (queueVersion !== this.version) throw new StoreError('the queue changed: reload');
  }

  private checkSettings(settings: QueueSettings): void {
    if (!queueOrders.includes(settings.order)) {
      throw new StoreError(`unknown queue order '${settings.order}' (expected one of: ${queueOrders.join(', ')})`);
    }
    if (typeof settings.unlabelledOnly !== 'boolean') {
      throw new StoreError(`expected unlabelledOnly to be true or false, found ${String(settings.unlabelledOnly)}`);
    }
    if (this.blind && revealingOrders.has(settings.order)) {
      const adjudicator = this.study.adjudicator ? ` (only its adjudicator, ${this.study.adjudicator}, may)` : '';
      throw new StoreError(
        `study '${this.study.name}' is blind: ordering by ${settings.order} would show what others labelled${adjudicator}`,
      );
    }
  }

  private checkLabel(label: number): void {
    if (this.scaleValues.length === 0) {
      throw new StoreError(`study '${this.study.name}' declares no scale: add a \`scale\` block to label its pairs`);
    }
    if (!this.scaleValues.includes(label)) {
      const allowed = (this.study.scale?.entries ?? []).map((e) => `${e.value} (${e.label})`).join(', ');
      throw new StoreError(`label ${label} is not on the scale of study '${this.study.name}': expected ${allowed}`);
    }
  }

  private async checkAnswers(
    pairId: number,
    conditions: readonly boolean[],
    aspects: Record<string, AspectAnswer>,
  ): Promise<void> {
    for (const [name, answer] of Object.entries(aspects)) {
      if (!this.aspectNames.has(name)) {
        const declared = [...this.aspectNames].join(', ') || 'none';
        throw new StoreError(`study '${this.study.name}' has no aspect '${name}' (its aspects: ${declared})`);
      }
      const levels = this.aspectLevels.get(name);
      if (levels) {
        if (typeof answer !== 'number' || !levels.includes(answer)) {
          throw new StoreError(
            `expected aspect '${name}' to be one of its levels (${levels.join(', ')}), found ${answer}`,
          );
        }
      } else if (typeof answer !== 'boolean') {
        throw new StoreError(`expected aspect '${name}' to be true or false`);
      }
    }
    if (conditions.length === 0) return;
    if (conditions.some((c) => typeof c !== 'boolean')) throw new StoreError('expected conditions to be true or false');
    const { qid, query } = await this.store.labels.pairQuery(this.studyId, pairId);
    const count = query ? queryConditions(this.study, query).length : 0;
    if (conditions.length !== count) {
      throw new StoreError(
        `expected ${count} condition answer${count === 1 ? '' : 's'} for query '${qid}', found ${conditions.length}`,
      );
    }
  }

  private async pairView(pairId: number, position: number): Promise<PairView> {
    const record = await this.store.labels.pairRecord(this.studyId, this.annotatorId, pairId);
    const query = this.queryView(record);
    const mine = this.mine(record, query.conditions.length);
    const hidden = this.blind && mine === undefined;
    return {
      position,
      queueVersion: this.version,
      pairId,
      ...(record.bestRank !== null && { bestRank: record.bestRank }),
      query,
      ...(record.document && { document: this.documentView(record.document) }),
      ...(mine && { mine }),
      others: hidden ? [] : this.others(record),
      suggestions: hidden ? [] : this.suggestions(record),
      hidden,
    };
  }

  private queryView(record: PairRecord): QueryView {
    const { qid, query: row } = record;
    // A pair an imported qrels file named for a query the study's queries do not have: shown by its id.
    if (!row) return { qid, text: '', conditions: [], metadata: {} };
    return {
      qid,
      text: row.text,
      ...(row.instruction !== null && { instruction: row.instruction }),
      conditions: queryConditions(this.study, row),
      ...(row.type !== null && { type: row.type }),
      metadata: parseMetadata(row.metadata, `query '${qid}'`),
    };
  }

  private documentView(record: DocumentRecord): DocumentView {
    const view: DocumentView = {
      docid: record.docid,
      ...(record.title !== null && { title: record.title }),
      body: record.body,
      format: record.format,
      metadata: parseMetadata(record.metadata, `document '${record.docid}'`),
    };
    if (record.parentDocid !== null) {
      view.parentDocid = record.parentDocid;
      // Natural order of the ids (doc#2 before doc#10): chunkers number their chunks, and the corpus may list
      // them in any order (documents are stored in docid order).
      const siblings = [...(record.siblings ?? [])].sort(chunkOrder.compare);
      const index = siblings.indexOf(record.docid);
      view.chunk = {
        index,
        count: siblings.length,
        ...(index > 0 && { previousDocid: siblings[index - 1]! }),
        ...(index < siblings.length - 1 && { nextDocid: siblings[index + 1]! }),
      };
    }
    return view;
  }

  private mine(record: PairRecord, conditionCount: number): MyLabel | undefined {
    const row = record.mine;
    if (!row) return undefined;
    const answered = row.conditions;
    const conditions: boolean[] = Array(Math.max(conditionCount, ...answered.map((c) => c.condition))).fill(false);
    for (const { condition, satisfied } of answered) conditions[condition - 1] = satisfied;
    const aspects: Record<string, AspectAnswer> = {};
    for (const { aspect, answer } of row.aspects) {
      aspects[aspect] = this.aspectLevels.has(aspect) ? answer : answer === 1;
    }
    return {
      label: row.label,
      at: row.createdAt,
      ...(row.rationale !== null && { note: row.rationale }),
      conditions: answered.length > 0 ? conditions : [],
      aspects,
    };
  }

  private others(record: PairRecord): OtherLabel[] {
    return record.others.map(({ rationale, ...other }) => ({
      ...other,
      ...(rationale !== null && { rationale }),
    })) as OtherLabel[];
  }

  private suggestions(record: PairRecord): SuggestionView[] {
    return record.suggestions.map((row) => ({
      judge: row.judge,
      label: row.label,
      ...(row.rationale !== null && { rationale: row.rationale }),
      ...(row.confidence !== null && { confidence: row.confidence }),
    }));
  }
}
