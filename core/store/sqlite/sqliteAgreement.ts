import type { AgreementPort } from '../port/agreementPort.ts';
import type { SqliteContext } from './sqliteContext.ts';

export class SqliteAgreement implements AgreementPort {
  protected readonly context: SqliteContext;

  constructor(context: SqliteContext) {
    this.context = context;
  }
}
