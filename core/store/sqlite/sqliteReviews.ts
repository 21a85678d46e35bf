import type { ReviewsPort } from '../port/reviewsPort.ts';
import type { SqliteContext } from './sqliteContext.ts';

export class SqliteReviews implements ReviewsPort {
  protected readonly context: SqliteContext;

  constructor(context: SqliteContext) {
    this.context = context;
  }
}
