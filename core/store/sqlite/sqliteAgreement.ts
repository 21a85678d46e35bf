// The agreement port over SQLite: reads only, each a single statement (one snapshot) or one read transaction;
// statements are prepared once per adapter, on first use.
import type Database from 'better-sqlite3';
import type { AgreementPort, PairLabel, StudyLabelRow } from '../port/agreementPort.ts';
import {
  adjudicatedLabelsSql,
  adjudicatedPairCountSql,
  annotatorLabelsSql,
  chunkParentsSql,
  evaluationQueriesSql,
  knownAnnotatorsSql,
  labelGiversSql,
  majorityLabelsSql,
  pairCountSql,
  pairIdSql,
  peopleMeanLabelsSql,
  studyLabelRowsSql,
} from './agreement/agreementStatements.ts';
import type { SqliteContext } from './sqliteContext.ts';

export class SqliteAgreement implements AgreementPort {
  protected readonly context: SqliteContext;
  private readonly statements = new Map<string, Database.Statement>();

  constructor(context: SqliteContext) {
    this.context = context;
  }

  /** The statement of `sql`, prepared on first use and kept. */
  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.context.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  async studyLabelRows(studyId: number): Promise<StudyLabelRow[]> {
    // The rows as arrays; each also carries the two columns it is ordered by (row id, suggested), left as they are:
    // copying a million rows to drop them would cost more than they do.
    return this.statement(studyLabelRowsSql).raw(true).all({ study: studyId }) as StudyLabelRow[];
  }

  async knownAnnotators(studyId: number, kind: 'human' | 'llm'): Promise<string[]> {
    return this.statement(knownAnnotatorsSql).pluck(true).all({ study: studyId, kind }) as string[];
  }

  async annotatorLabels(studyId: number, annotator: string): Promise<PairLabel[]> {
    return this.statement(annotatorLabelsSql).all(studyId, annotator) as PairLabel[];
  }

  async majorityLabels(studyId: number): Promise<PairLabel[]> {
    return this.statement(majorityLabelsSql).all(studyId) as PairLabel[];
  }

  async adjudicatedLabels(studyId: number): Promise<PairLabel[]> {
    return this.statement(adjudicatedLabelsSql).all(studyId) as PairLabel[];
  }

  async peopleMeanLabels(studyId: number): Promise<{ qid: string; docid: string; mean: number }[]> {
    return this.statement(peopleMeanLabelsSql).all(studyId) as { qid: string; docid: string; mean: number }[];
  }

  async adjudicatedPairCount(studyId: number): Promise<number> {
    return this.statement(adjudicatedPairCountSql).pluck(true).get(studyId) as number;
  }

  async pairCount(studyId: number): Promise<number> {
    return this.statement(pairCountSql).pluck(true).get(studyId) as number;
  }

  async pairIds(studyId: number, pairs: [qid: string, docid: string][]): Promise<number[]> {
    if (pairs.length === 0) return [];
    const id = this.statement(pairIdSql).pluck(true);
    return this.context.db.transaction(() => pairs.map(([qid, docid]) => id.get(studyId, qid, docid) as number))();
  }

  async chunkParents(studyId: number): Promise<[chunk: string, parent: string][]> {
    return this.statement(chunkParentsSql).raw(true).all(studyId) as [string, string][];
  }

  async labelGivers(studyId: number): Promise<{ name: string; kind: 'human' | 'llm' }[]> {
    return this.statement(labelGiversSql).all({ study: studyId }) as { name: string; kind: 'human' | 'llm' }[];
  }

  async evaluationQueries(studyId: number): Promise<{ qid: string; type: string | null; metadata: string | null }[]> {
    return this.statement(evaluationQueriesSql).all(studyId) as {
      qid: string;
      type: string | null;
      metadata: string | null;
    }[];
  }
}
