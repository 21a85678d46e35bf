// One annotator labelling one study: the `label/*` requests of the Label view (webview/protocol.ts), one method
// each, over the study's task database. The queue (pair ids in the chosen order) is built once per order and kept
// in memory; progress is counted once at open and then kept up to date by commit and undo; everything a label needs
// — showing a pair, storing a label, undoing it — is a handful of indexed lookups, so a study of a million pairs
// labels as fast as a small one. Every label is one transaction, committed before the method returns.
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
import { readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { AspectAnswer } from '../dsl/evaluateDerive.ts';
import type { StudyModel } from '../dsl/model.ts';
import type { SqliteDatabase } from '../store/sqliteDatabase.ts';
import { StoreError, type StudyDatabase } from '../store/studyDatabase.ts';
import { assignPairs } from './assignment.ts';
import { buildLabelQueue, queueOrders } from './labelQueue.ts';
import { queryConditions } from './queryConditions.ts';
import type {
  CommitLabel,
  DocumentFormat,
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
  /** The study as resolved from the study file; it must have been synced into `database`. */
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

interface QueryRow {
  qid: string;
  text: string;
  instruction: string | null;
  type: string | null;
  metadata: string | null;
}

interface DocumentRow {
  id: number;
  docid: string;
  title: string | null;
  body: string;
  format: DocumentFormat;
  parent_docid: string | null;
  metadata: string | null;
}

/** Orders that show what others did: refused in blind mode to all but the adjudicator. */
const revealingOrders: ReadonlySet<QueueOrder> = new Set(['confidence', 'disagreement']);

const notRetracted = 'NOT EXISTS (SELECT 1 FROM judgment_retraction AS r WHERE r.judgment_id = j.id)';

/** The statements a session runs per pair, label or undo (exported so a test can check each is an indexed lookup). */
/** How chunk ids sort: numbers inside them by value. */
const chunkOrder = new Intl.Collator('en', { numeric: true });

export function sessionStatements(db: SqliteDatabase) {
  return {
    pair: db.prepare('SELECT id, qid, docid, best_rank FROM pair WHERE id = ?'),
    query: db.prepare('SELECT qid, text, instruction, type, metadata FROM query WHERE study_id = ? AND qid = ?'),
    document: db.prepare(
      'SELECT id, docid, title, body, format, parent_docid, metadata FROM document WHERE study_id = ? AND docid = ?',
    ),
    /** The chunks of one parent (document_by_parent index); ordered in JS, naturally (see documentView). */
    chunks: db.prepare('SELECT docid FROM document WHERE study_id = ? AND parent_docid = ?').pluck(),
    /** The annotator's current judgment of a pair: the latest not retracted. */
    mine: db.prepare(
      `SELECT id, label, created_at, rationale FROM judgment AS j
       WHERE j.pair_id = ? AND j.annotator_id = ? AND ${notRetracted}
       ORDER BY j.created_at DESC, j.id DESC LIMIT 1`,
    ),
    mineConditions: db.prepare('SELECT condition, satisfied FROM condition_judgment WHERE judgment_id = ?'),
    mineAspects: db.prepare('SELECT aspect, answer FROM aspect_judgment WHERE judgment_id = ? ORDER BY aspect'),
    others: db.prepare(
      `SELECT a.name AS annotator, a.kind, j.label, j.source, j.rationale, j.created_at AS at
       FROM current_judgment AS j JOIN annotator AS a ON a.id = j.annotator_id
       WHERE j.pair_id = ? AND j.annotator_id != ? ORDER BY a.kind, a.name`,
    ),
    /** The latest suggestion of each judge for a pair. */
    suggestions: db.prepare(
      `SELECT a.name AS judge, s.label, s.rationale, s.confidence
       FROM suggestion AS s JOIN annotator AS a ON a.id = s.annotator_id
       WHERE s.pair_id = ? AND NOT EXISTS (
         SELECT 1 FROM suggestion AS later
         WHERE later.pair_id = s.pair_id AND later.annotator_id = s.annotator_id
           AND (later.created_at > s.created_at OR (later.created_at = s.created_at AND later.id > s.id)))
       ORDER BY a.name`,
    ),
    /** The latest time of any judgment (retracted ones too: the UNIQUE key counts them) of a pair by an annotator. */
    latestTime: db.prepare('SELECT max(created_at) FROM judgment WHERE pair_id = ? AND annotator_id = ?').pluck(),
    /** A pair of the study the annotator may label: assigned to them, or any pair when `@assignedOnly` is 0. */
    inScope: db.prepare(
      `SELECT 1 FROM pair AS p WHERE p.id = @pair AND p.study_id = @study
         AND (@assignedOnly = 0 OR EXISTS (
           SELECT 1 FROM assignment AS s WHERE s.pair_id = p.id AND s.annotator_id = @annotator))`,
    ),
    insertJudgment: db.prepare(
      `INSERT INTO judgment (pair_id, annotator_id, label, created_at, source, rationale, shown_label)
       VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    ),
    insertCondition: db.prepare('INSERT INTO condition_judgment (judgment_id, condition, satisfied) VALUES (?, ?, ?)'),
    insertAspect: db.prepare('INSERT INTO aspect_judgment (judgment_id, aspect, answer) VALUES (?, ?, ?)'),
    retract: db.prepare(
      'INSERT INTO judgment_retraction (judgment_id, retracted_at) VALUES (?, ?) ON CONFLICT DO NOTHING',
    ),
    /**
     * The study as last synced, and whether it was in the latest sync (syncStudies stamps every study of the file
     * with one time: a study renamed or removed from the file keeps an older one).
     */
    synced: db.prepare(
      'SELECT model, synced_at = (SELECT max(synced_at) FROM study) AS latest FROM study WHERE id = ?',
    ),
    saveCursor: db.prepare(
      `INSERT INTO label_cursor (study_id, annotator_id, queue_order, unlabelled_only, pair_id, updated_at)
       VALUES (@study, @annotator, @order, @unlabelledOnly, @pair, @at)
       ON CONFLICT (study_id, annotator_id) DO UPDATE SET queue_order = excluded.queue_order,
         unlabelled_only = excluded.unlabelled_only, pair_id = excluded.pair_id, updated_at = excluded.updated_at`,
    ),
  };
}

type Statements = ReturnType<typeof sessionStatements>;

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
  readonly database: StudyDatabase;
  readonly annotator: string;
  private readonly db: SqliteDatabase;
  private readonly statements: Statements;
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
  private readonly progress: Progress;
  /** This session's judgments not yet undone, latest last. */
  private readonly undoable: { judgmentId: number; pairId: number }[] = [];
  /** The study as synced into the database when this session opened (see studyChanged). */
  private readonly syncedModel: string;
  /** The adjudication queue on screen (the Agreement view's disagreements), if any: not saved as the cursor. */
  private adjudication: { title: string } | undefined;

  private constructor(database: StudyDatabase, options: LabelSessionOptions, studyId: number, annotatorId: number) {
    this.database = database;
    this.db = database.db;
    this.statements = sessionStatements(this.db);
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
    this.progress = this.countProgress();
    this.syncedModel = (this.statements.synced.get(studyId) as { model: string }).model;
  }

  /**
   * Opens `annotator`'s session on a study already synced into `database`: adds the annotator, assigns the pairs
   * not assigned yet, and puts the annotator back where they were (their queue order and filter, and the pair they
   * were at, if it is still in the queue).
   */
  static open(database: StudyDatabase, options: LabelSessionOptions): LabelSession {
    const { study, annotator } = options;
    const studyId = database.studyId(study.name);
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
    const db = database.db;
    const { annotatorId, kind } = db
      .prepare(
        `INSERT INTO annotator (name, kind) VALUES (?, 'human')
         ON CONFLICT (name) DO UPDATE SET name = excluded.name RETURNING id AS annotatorId, kind`,
      )
      .get(annotator) as { annotatorId: number; kind: string };
    if (kind !== 'human') throw new StoreError(`'${annotator}' is an LLM judge in ${database.file}, not a person`);
    assignPairs(db, studyId, study.annotators, study.overlap, now());
    const session = new LabelSession(database, options, studyId, annotatorId);
    session.version = options.replaces?.version ?? 0;
    session.restoreCursor();
    return session;
  }

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

  /**
   * The study file was synced into the database since this session opened with another model of this study, or
   * without it (renamed, removed): open a new session to go on with what the file says now.
   */
  studyChanged(): boolean {
    const synced = this.statements.synced.get(this.studyId) as { model: string; latest: number } | undefined;
    return synced === undefined || synced.latest !== 1 || synced.model !== this.syncedModel;
  }

  /**
   * Reorders or filters the queue: a new queue version, at the pair the annotator was at if it is in it. From an
   * adjudication queue, back to the annotator's own queue where they left it.
   */
  setQueue(settings: QueueSettings): SessionState {
    this.checkStudy();
    this.checkSettings(settings);
    if (this.adjudication) {
      // Back to the annotator's own queue where they left it, then ordered as asked.
      this.adjudication = undefined;
      this.restoreCursor();
    }
    const current = this.position < this.queue.length ? this.queue[this.position] : undefined;
    this.rebuild({ order: settings.order, unlabelledOnly: settings.unlabelledOnly });
    const found = current === undefined ? -1 : this.queue.indexOf(current);
    this.position = Math.max(found, 0);
    this.saveCursor();
    return this.state();
  }

  /**
   * An adjudication queue: exactly these pairs (the disagreements the Agreement view picked), in the order given,
   * for the study's adjudicator, who sees every label, note and rationale and stores the final label with a reason
   * (source 'adjudicated', which `export --from adjudicated` reads). A new queue version at its first pair; the
   * annotator's own queue and cursor are kept for `setQueue` to return to.
   */
  adjudicate(pairIds: readonly number[], title: string): SessionState {
    this.checkStudy();
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
    const inStudy = this.db.prepare('SELECT 1 FROM pair WHERE id = ? AND study_id = ?').pluck();
    for (const id of pairIds) {
      if (!Number.isInteger(id) || inStudy.get(id, this.studyId) === undefined) {
        throw new StoreError(`pair ${id} is not a pair of study '${this.study.name}'`);
      }
    }
    this.queue = Int32Array.from(new Set(pairIds));
    this.version++;
    this.position = 0;
    this.adjudication = { title };
    return this.state();
  }

  /** The pair at `position` of the queue (null past its end); `current`: the annotator is there now. */
  pairAt(position: number, queueVersion: number, current: boolean): PairView | null {
    this.checkStudy();
    this.checkVersion(queueVersion);
    if (!Number.isInteger(position) || position < 0) {
      throw new StoreError(`expected a queue position (a whole number ≥ 0), found ${position}`);
    }
    if (position >= this.queue.length) {
      if (current) {
        this.position = this.queue.length;
        this.saveCursor();
      }
      return null;
    }
    const view = this.pairView(this.queue[position]!, position);
    if (current) {
      this.position = position;
      this.saveCursor();
    }
    return view;
  }

  /**
   * Stores a label of the pair at `position` (one transaction: the judgment, its condition and aspect answers, and
   * the cursor on the next pair) and returns the pair as it now is — in blind mode, with the others revealed.
   * Position -1 is a pair of the annotator's that the current queue does not hold (undo hands such a pair back after
   * a reorder left it out): it is labelled, and the cursor stays where the annotator is.
   */
  commit(commit: CommitLabel & { queueVersion: number }): { progress: Progress; pair: PairView } {
    this.checkStudy();
    this.checkVersion(commit.queueVersion);
    const { position, pairId, label } = commit;
    const outsideQueue = position === -1;
    if (outsideQueue) {
      if (!Number.isInteger(pairId) || this.statements.inScope.get(this.scopeParameters(pairId)) === undefined) {
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
    this.checkAnswers(pairId, conditions, aspects);
    const s = this.statements;
    const stored = this.db
      .transaction(() => {
        const before = s.mine.get(pairId, this.annotatorId) as { id: number } | undefined;
        // 'suggestion' only when the label is what a suggestion the annotator could see said.
        const hiddenBefore = this.blind && before === undefined;
        const accepted =
          commit.shownLabel !== undefined &&
          commit.shownLabel === label &&
          !hiddenBefore &&
          this.suggestions(pairId).some((suggestion) => suggestion.label === label);
        const createdAt = this.judgmentTime(s.latestTime.get(pairId, this.annotatorId) as string | null);
        const note = commit.note !== undefined && commit.note.trim() !== '' ? commit.note : null;
        const { id } = s.insertJudgment.get(
          pairId,
          this.annotatorId,
          label,
          createdAt,
          this.adjudicates ? 'adjudicated' : accepted ? 'suggestion' : 'manual',
          note,
          commit.shownLabel ?? null,
        ) as { id: number };
        conditions.forEach((satisfied, i) => {
          s.insertCondition.run(id, i + 1, satisfied ? 1 : 0);
        });
        for (const [aspect, answer] of Object.entries(aspects)) {
          s.insertAspect.run(id, aspect, typeof answer === 'number' ? answer : answer ? 1 : 0);
        }
        if (!outsideQueue) this.saveCursor(position + 1);
        return { id, labelledBefore: before !== undefined };
      })
      .immediate();
    if (!outsideQueue) this.position = Math.min(position + 1, this.queue.length);
    if (!stored.labelledBefore) this.progress.judged++;
    this.undoable.push({ judgmentId: stored.id, pairId });
    return { progress: { ...this.progress }, pair: this.pairView(pairId, position) };
  }

  /**
   * Retracts this session's latest judgment not undone yet (again: the one before it, and so on); the annotator's
   * previous label of that pair, if any, is current again. The pair comes back with its position in the current
   * queue (-1 when the queue no longer holds it); null when there is nothing to undo.
   */
  undo(): { progress: Progress; pair: PairView } | null {
    this.checkStudy();
    const s = this.statements;
    for (let last = this.undoable.pop(); last !== undefined; last = this.undoable.pop()) {
      const { judgmentId, pairId } = last;
      const position = this.queue.indexOf(pairId);
      let undone: { stillLabelled: boolean } | undefined;
      try {
        undone = this.db
          .transaction(() => {
            // Already retracted (someone changed the database under this session): try the one before.
            if (s.retract.run(judgmentId, this.now().toISOString()).changes === 0) return undefined;
            if (position >= 0) this.saveCursor(position);
            return { stillLabelled: s.mine.get(pairId, this.annotatorId) !== undefined };
          })
          .immediate();
      } catch (error) {
        // Nothing was retracted (a locked database, say): the judgment can still be undone.
        this.undoable.push(last);
        throw error;
      }
      if (undone === undefined) continue;
      if (position >= 0) this.position = position;
      if (!undone.stillLabelled) this.progress.judged--;
      return { progress: { ...this.progress }, pair: this.pairView(pairId, position) };
    }
    return null;
  }

  /** A document of the study by id (a neighbouring chunk); null when the corpus has none by that id. */
  document(docid: string): DocumentView | null {
    this.checkStudy();
    const row = this.statements.document.get(this.studyId, docid) as DocumentRow | undefined;
    return row ? this.documentView(row) : null;
  }

  /** The study's guidelines file (Markdown); null when the study declares none. */
  guidelines(): { path: string; markdown: string } | null {
    this.checkStudy();
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

  /** Pairs in the annotator's assignment, and how many of them they have a current label for. */
  private countProgress(): Progress {
    const labelled = `EXISTS (SELECT 1 FROM judgment AS j WHERE j.pair_id = p.id AND j.annotator_id = @annotator
                       AND ${notRetracted})`;
    const from = this.assignedOnly
      ? `FROM assignment AS s JOIN pair AS p ON p.id = s.pair_id WHERE s.annotator_id = @annotator AND p.study_id = @study`
      : 'FROM pair AS p WHERE p.study_id = @study';
    const row = this.db
      .prepare(`SELECT count(*) AS assigned, coalesce(sum(${labelled}), 0) AS judged ${from}`)
      .get({ study: this.studyId, annotator: this.annotatorId }) as Progress;
    return { assigned: row.assigned, judged: row.judged };
  }

  private restoreCursor(): void {
    const saved = this.db
      .prepare('SELECT queue_order, unlabelled_only, pair_id FROM label_cursor WHERE study_id = ? AND annotator_id = ?')
      .get(this.studyId, this.annotatorId) as
      | { queue_order: string; unlabelled_only: number; pair_id: number | null }
      | undefined;
    let order = (saved?.queue_order ?? 'query') as QueueOrder;
    // An order this annotator may no longer use (the study became blind) or does not know: the default.
    if (!queueOrders.includes(order) || (this.blind && revealingOrders.has(order))) order = 'query';
    this.rebuild({ order, unlabelledOnly: saved?.unlabelled_only === 1 });
    const found = saved?.pair_id != null ? this.queue.indexOf(saved.pair_id) : -1;
    this.position = Math.max(found, 0);
  }

  private rebuild(settings: QueueSettings): void {
    this.queue = buildLabelQueue(this.db, settings.order, {
      studyId: this.studyId,
      annotatorId: this.annotatorId,
      assignedOnly: this.assignedOnly,
      unlabelledOnly: settings.unlabelledOnly,
    });
    this.settings = settings;
    this.version++;
  }

  /** Records where the annotator is: the pair at `position` (the last pair when past the end). */
  private saveCursor(position: number = this.position): void {
    // An adjudication queue is not the annotator's own queue: where they were in that one stays saved.
    if (this.adjudication) return;
    const index = Math.min(position, this.queue.length - 1);
    this.statements.saveCursor.run({
      study: this.studyId,
      annotator: this.annotatorId,
      order: this.settings.order,
      unlabelledOnly: this.settings.unlabelledOnly ? 1 : 0,
      pair: index >= 0 ? this.queue[index]! : null,
      at: this.now().toISOString(),
    });
  }

  private scopeParameters(pairId: number) {
    return { pair: pairId, study: this.studyId, annotator: this.annotatorId, assignedOnly: this.assignedOnly ? 1 : 0 };
  }

  private checkStudy(): void {
    if (this.studyChanged()) {
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

  private checkAnswers(pairId: number, conditions: readonly boolean[], aspects: Record<string, AspectAnswer>): void {
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
    const pair = this.statements.pair.get(pairId) as { qid: string };
    const query = this.statements.query.get(this.studyId, pair.qid) as QueryRow | undefined;
    const count = query ? queryConditions(this.study, query).length : 0;
    if (conditions.length !== count) {
      throw new StoreError(
        `expected ${count} condition answer${count === 1 ? '' : 's'} for query '${pair.qid}', found ${conditions.length}`,
      );
    }
  }

  /** A judgment time later than `latest` (the pair's latest judgment by the annotator), even within a millisecond. */
  private judgmentTime(latest: string | null): string {
    const now = this.now().getTime();
    return new Date(latest === null ? now : Math.max(now, Date.parse(latest) + 1)).toISOString();
  }

  private pairView(pairId: number, position: number): PairView {
    const s = this.statements;
    const pair = s.pair.get(pairId) as { id: number; qid: string; docid: string; best_rank: number | null };
    const query = this.queryView(pair.qid);
    const documentRow = s.document.get(this.studyId, pair.docid) as DocumentRow | undefined;
    const mine = this.mine(pairId, query.conditions.length);
    const hidden = this.blind && mine === undefined;
    return {
      position,
      queueVersion: this.version,
      pairId,
      ...(pair.best_rank !== null && { bestRank: pair.best_rank }),
      query,
      ...(documentRow && { document: this.documentView(documentRow) }),
      ...(mine && { mine }),
      others: hidden ? [] : this.others(pairId),
      suggestions: hidden ? [] : this.suggestions(pairId),
      hidden,
    };
  }

  private queryView(qid: string): QueryView {
    const row = this.statements.query.get(this.studyId, qid) as QueryRow | undefined;
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

  private documentView(row: DocumentRow): DocumentView {
    const view: DocumentView = {
      docid: row.docid,
      ...(row.title !== null && { title: row.title }),
      body: row.body,
      format: row.format,
      metadata: parseMetadata(row.metadata, `document '${row.docid}'`),
    };
    if (row.parent_docid !== null) {
      view.parentDocid = row.parent_docid;
      // Natural order of the ids (doc#2 before doc#10): chunkers number their chunks, and the corpus may list
      // them in any order (documents are stored in docid order).
      const siblings = (this.statements.chunks.all(this.studyId, row.parent_docid) as string[]).sort(
        chunkOrder.compare,
      );
      const index = siblings.indexOf(row.docid);
      view.chunk = {
        index,
        count: siblings.length,
        ...(index > 0 && { previousDocid: siblings[index - 1]! }),
        ...(index < siblings.length - 1 && { nextDocid: siblings[index + 1]! }),
      };
    }
    return view;
  }

  private mine(pairId: number, conditionCount: number): MyLabel | undefined {
    const s = this.statements;
    const row = s.mine.get(pairId, this.annotatorId) as
      | { id: number; label: number; created_at: string; rationale: string | null }
      | undefined;
    if (!row) return undefined;
    const answered = s.mineConditions.all(row.id) as { condition: number; satisfied: number }[];
    const conditions: boolean[] = Array(Math.max(conditionCount, ...answered.map((c) => c.condition))).fill(false);
    for (const { condition, satisfied } of answered) conditions[condition - 1] = satisfied === 1;
    const aspects: Record<string, AspectAnswer> = {};
    for (const { aspect, answer } of s.mineAspects.all(row.id) as { aspect: string; answer: number }[]) {
      aspects[aspect] = this.aspectLevels.has(aspect) ? answer : answer === 1;
    }
    return {
      label: row.label,
      at: row.created_at,
      ...(row.rationale !== null && { note: row.rationale }),
      conditions: answered.length > 0 ? conditions : [],
      aspects,
    };
  }

  private others(pairId: number): OtherLabel[] {
    const rows = this.statements.others.all(pairId, this.annotatorId) as (Omit<OtherLabel, 'rationale'> & {
      rationale: string | null;
    })[];
    return rows.map(({ rationale, ...other }) => ({ ...other, ...(rationale !== null && { rationale }) }));
  }

  private suggestions(pairId: number): SuggestionView[] {
    const rows = this.statements.suggestions.all(pairId) as {
      judge: string;
      label: number | null;
      rationale: string | null;
      confidence: number | null;
    }[];
    return rows.map((row) => ({
      judge: row.judge,
      label: row.label,
      ...(row.rationale !== null && { rationale: row.rationale }),
      ...(row.confidence !== null && { confidence: row.confidence }),
    }));
  }
}
