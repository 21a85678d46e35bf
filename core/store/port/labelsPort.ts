// What labelling asks of the record: judgments and their retractions, assignment, queues, cursors and the counts
// a Label view shows. core/labelling/labelSession.ts holds the rules (blind mode, scale, undo); this port holds the
// reads and writes, each one transaction.
import type { NewJudgment } from '../studyDatabase.ts';

export interface LabelsPort {
  /** One judgment, committed before the promise resolves. */
  addJudgment(judgment: NewJudgment): Promise<{ id: number; createdAt: string }>;
}
