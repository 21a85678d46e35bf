// The studies of a study file as the record holds them: syncing the file's model in, finding a study's id, and the
// one rule for adding an annotator (every feature that records a name — a label, a judge call, a review verdict,
// an import — goes through ensureAnnotator, so a person and an LLM judge can never share a name).
import type { StudyFileModel } from '../../dsl/model.ts';
import type { SyncReport } from '../studyDatabase.ts';

export type AnnotatorKind = 'human' | 'llm';

export interface StudiesPort {
  /** Makes the record say what the study file says (see StudyDatabase.syncStudies). One transaction. */
  sync(model: StudyFileModel, now?: Date): Promise<SyncReport>;
  /** The id of study `name`; a StoreError naming the known studies when there is none. */
  studyId(name: string): Promise<number>;
  /**
   * The id of annotator `name`, added as `kind` (default: `llm` for `llm:…` names, else `human`) if new; a
   * StoreError when the name is recorded as the other kind. Adapters use the same rule inside their own writes.
   */
  ensureAnnotator(name: string, kind?: AnnotatorKind): Promise<number>;
}
