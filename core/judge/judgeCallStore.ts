// The judge's side of the record, as the judge code sees it: the cache key of a call, and a thin facade over the
// storage port's judge area (core/store/port/judgePort.ts, SQLite: core/store/sqlite/sqliteJudge.ts) that takes
// Dates where the port takes ISO text. Writes are short: a call's record (with, when it is a pair's last vote, the
// pair's suggestion — one port call, one transaction), so a run that crashes loses at most the calls that were in
// flight, and a labelling session in another process waits at most for one of them.
//
// The cache key is the sha256 of (endpoint, model, parameters, rendered prompt — by its sha256 —, vote index):
// exactly what decides the answer, and nothing that does not (the study, the pair, the time). Which recorded calls the cache serves is
// the migration's rule: answered ones, parsed or not; never a call that got no answer.
import type { CachedCall, CallRequest, JudgeCallRecord, JudgePort, SuggestionRecord } from '../store/port/judgePort.ts';
import { sha256 } from './promptTemplate.ts';

export type {
  CachedCall,
  CallRequest,
  JudgeCallTotals,
  JudgeFailureKind,
  SuggestionVote,
} from '../store/port/judgePort.ts';

export function judgeCacheKey(request: CallRequest): string {
  return sha256(
    JSON.stringify([request.endpoint, request.model, request.parameters, request.promptHash, request.voteIndex]),
  );
}

/** JSON with object keys sorted at every level, so equal parameters give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : item,
  );
}

/** A call to record, stamped with a Date. */
export type NewJudgeCall = Omit<JudgeCallRecord, 'createdAt'> & { createdAt: Date };

/** A suggestion to write, stamped with a Date. */
export type NewSuggestion = Omit<SuggestionRecord, 'createdAt'> & { createdAt: Date };

export class JudgeCallStore {
  private readonly port: JudgePort;

  constructor(port: JudgePort) {
    this.port = port;
  }

  /** The annotator id of judge `name` (llm:…), added if new; a StoreError when the name is a person's. */
  judgeAnnotator(name: string): Promise<number> {
    return this.port.judgeAnnotator(name);
  }

  /** The answered call with this key, if one was recorded. */
  cached(cacheKey: string): Promise<CachedCall | undefined> {
    return this.port.cachedCall(cacheKey);
  }

  /**
   * Records a call and, when given, the suggestion it completes (whose votes name this call by callId null): one
   * transaction, committed when the promise resolves; returns the call's id.
   */
  record(call: NewJudgeCall, suggestion?: NewSuggestion): Promise<number> {
    return this.port.recordCall(
      { ...call, createdAt: call.createdAt.toISOString() },
      suggestion && { ...suggestion, createdAt: suggestion.createdAt.toISOString() },
    );
  }

  /**
   * Makes `suggestion` the judge's one suggestion for its pair (one transaction): what the judge said before about
   * the pair, and its votes, are replaced — the calls behind them stay on record.
   */
  replaceSuggestion(suggestion: NewSuggestion): Promise<number> {
    return this.port.replaceSuggestion({ ...suggestion, createdAt: suggestion.createdAt.toISOString() });
  }
}
