import type { StudyFileModel } from '../../dsl/model.ts';
import type { AnnotatorKind, StudiesPort } from '../port/studiesPort.ts';
import type { SyncReport } from '../studyDatabase.ts';
import { ensureAnnotatorId } from './annotators.ts';
import type { SqliteContext } from './sqliteContext.ts';

export class SqliteStudies implements StudiesPort {
  protected readonly context: SqliteContext;

  constructor(context: SqliteContext) {
    this.context = context;
  }

  async sync(model: StudyFileModel, now?: Date): Promise<SyncReport> {
    const report = this.context.database.syncStudies(model, now);
    this.context.changed({ what: 'studies' });
    return report;
  }

  async studyId(name: string): Promise<number> {
    return this.context.database.studyId(name);
  }

  async ensureAnnotator(name: string, kind?: AnnotatorKind): Promise<number> {
    return ensureAnnotatorId(this.context.db, this.context.file, name, kind);
  }
}
