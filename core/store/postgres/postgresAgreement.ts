// The agreement port over PostgreSQL: reads only, each a single statement on a pooled connection (one snapshot, one
// round trip). The SQL is agreement/agreementSql.ts; the rows are SQLite's (core/store/sqlite/sqliteAgreement.ts),
// in the same order.
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
  pairIdsSql,
  peopleMeanLabelsSql,
  studyLabelRowsSql,
} from './agreement/agreementSql.ts';
import type { PostgresContext } from './postgresContext.ts';

export class PostgresAgreement implements AgreementPort {
  protected readonly context: PostgresContext;

  constructor(context: PostgresContext) {
    this.context = context;
  }

  private async rows<T>(sql: string, values: unknown[]): Promise<T[]> {
    return (await this.context.query(sql, values)).rows as T[];
  }

  private async arrays<T>(sql: string, values: unknown[]): Promise<T[]> {
    return (await this.context.query({ text: sql, values, rowMode: 'array' })).rows as T[];
  }

  async studyLabelRows(studyId: number): Promise<StudyLabelRow[]> {
    // As SQLite's: each row also carries the two columns it is ordered by (row id, suggested).
    return this.arrays<StudyLabelRow>(studyLabelRowsSql, [studyId]);
  }

  async knownAnnotators(studyId: number, kind: 'human' | 'llm'): Promise<string[]> {
    return (await this.rows<{ name: string }>(knownAnnotatorsSql, [studyId, kind])).map((row) => row.name);
  }

  annotatorLabels(studyId: number, annotator: string): Promise<PairLabel[]> {
    return this.rows<PairLabel>(annotatorLabelsSql, [studyId, annotator]);
  }

  majorityLabels(studyId: number): Promise<PairLabel[]> {
    return this.rows<PairLabel>(majorityLabelsSql, [studyId]);
  }

  adjudicatedLabels(studyId: number): Promise<PairLabel[]> {
    return this.rows<PairLabel>(adjudicatedLabelsSql, [studyId]);
  }

  peopleMeanLabels(studyId: number): Promise<{ qid: string; docid: string; mean: number }[]> {
    return this.rows<{ qid: string; docid: string; mean: number }>(peopleMeanLabelsSql, [studyId]);
  }

  async adjudicatedPairCount(studyId: number): Promise<number> {
    return (await this.rows<{ n: number }>(adjudicatedPairCountSql, [studyId]))[0]?.n ?? 0;
  }

  async pairCount(studyId: number): Promise<number> {
    return (await this.rows<{ n: number }>(pairCountSql, [studyId]))[0]?.n ?? 0;
  }

  async pairIds(studyId: number, pairs: [qid: string, docid: string][]): Promise<number[]> {
    if (pairs.length === 0) return [];
    const rows = await this.rows<{ id: number | null }>(pairIdsSql, [
      studyId,
      pairs.map(([qid]) => qid),
      pairs.map(([, docid]) => docid),
    ]);
    // A pair the study lacks is undefined, as SQLite's lookup answers it.
    return rows.map((row) => row.id ?? (undefined as unknown as number));
  }

  chunkParents(studyId: number): Promise<[chunk: string, parent: string][]> {
    return this.arrays<[string, string]>(chunkParentsSql, [studyId]);
  }

  labelGivers(studyId: number): Promise<{ name: string; kind: 'human' | 'llm' }[]> {
    return this.rows<{ name: string; kind: 'human' | 'llm' }>(labelGiversSql, [studyId]);
  }

  evaluationQueries(studyId: number): Promise<{ qid: string; type: string | null; metadata: string | null }[]> {
    return this.rows<{ qid: string; type: string | null; metadata: string | null }>(evaluationQueriesSql, [studyId]);
  }
}
